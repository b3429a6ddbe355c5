// cl_khr_subgroup_clustered_reduce: reductions over clusters of 2 and 4
// consecutive lanes (add, mul, min, max, and, or, xor, logical and/or/
// xor; int, uint, long, float), in uniform code and, over the work-items
// of each cluster that take part, in a divergent if.
kernel void sg_clustered(global const int *x, global long *out) {
  size_t g = get_global_id(0);
  int v = x[g];
  global long *o = out + 16 * g;
  int m = (v & 3) + 1;
  o[0] = sub_group_clustered_reduce_add(v, 2);
  o[1] = sub_group_clustered_reduce_mul(m, 4);
  o[2] = sub_group_clustered_reduce_min(v, 4);
  o[3] = sub_group_clustered_reduce_max((uint)v, 2);
  o[4] = sub_group_clustered_reduce_and(v, 4);
  o[5] = sub_group_clustered_reduce_or(v & 0xf0, 4);
  o[6] = sub_group_clustered_reduce_xor(v, 2);
  o[7] = sub_group_clustered_reduce_logical_and(v > 0, 2);
  o[8] = sub_group_clustered_reduce_logical_or(v > 700, 4);
  o[9] = sub_group_clustered_reduce_logical_xor(v > 0, 4);
  o[10] = sub_group_clustered_reduce_add((long)v * 3000000000L, 4);
  o[11] = (long)sub_group_clustered_reduce_max((float)v * 0.5f, 4);
  o[12] = sub_group_clustered_reduce_add(v, 1);
  o[13] = -1;
  o[14] = -1;
  if (v % 3 != 0) {
    o[13] = sub_group_clustered_reduce_add(v, 4);
    o[14] = sub_group_clustered_reduce_min(v, 2);
  }
  // Clusters of 16: the whole subgroup at W = 4 and 8.
  o[15] = sub_group_clustered_reduce_add(v, 16);
}
