// sub_group_reduce_{add,min,max} of int, uint, long, ulong, float and
// double, per work-item (floats as integers: 4 times the result, exact).
kernel void sg_reduce(global const int *x, global int *oi, global uint *ou,
                      global long *ol, global ulong *oul, global int *of,
                      global long *od) {
  size_t g = get_global_id(0);
  int v = x[g];
  uint u = (uint)v * 2654435761u;
  long l = (long)v * 1000000007L;
  ulong ul = ((ulong)u << 20) | g;
  float f = (float)v * 0.5f;
  double d = (double)v * 0.25;
  oi[3 * g] = sub_group_reduce_add(v);
  oi[3 * g + 1] = sub_group_reduce_min(v);
  oi[3 * g + 2] = sub_group_reduce_max(v);
  ou[3 * g] = sub_group_reduce_add(u);
  ou[3 * g + 1] = sub_group_reduce_min(u);
  ou[3 * g + 2] = sub_group_reduce_max(u);
  ol[3 * g] = sub_group_reduce_add(l);
  ol[3 * g + 1] = sub_group_reduce_min(l);
  ol[3 * g + 2] = sub_group_reduce_max(l);
  oul[3 * g] = sub_group_reduce_add(ul);
  oul[3 * g + 1] = sub_group_reduce_min(ul);
  oul[3 * g + 2] = sub_group_reduce_max(ul);
  of[3 * g] = (int)(4.0f * (sub_group_reduce_add(f)));
  of[3 * g + 1] = (int)(4.0f * (sub_group_reduce_min(f)));
  of[3 * g + 2] = (int)(4.0f * (sub_group_reduce_max(f)));
  od[3 * g] = (long)(4.0 * (sub_group_reduce_add(d)));
  od[3 * g + 1] = (long)(4.0 * (sub_group_reduce_min(d)));
  od[3 * g + 2] = (long)(4.0 * (sub_group_reduce_max(d)));
}
