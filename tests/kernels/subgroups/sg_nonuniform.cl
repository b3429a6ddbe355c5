// cl_khr_subgroup_non_uniform_arithmetic: reductions and scans over the
// work-items of the subgroup that reach them. In a divergent if (odd x):
// add, mul, min, max, and, or, xor, logical and/or/xor reductions, and
// inclusive and exclusive scans of add, mul, min, max, and, or, xor; in
// the else branch, another set over the even ones; and in a loop whose
// trip count (x & 3) differs between lanes, the sum over the lanes still
// in the loop in each iteration.
kernel void sg_nonuniform(global const int *x, global int *out) {
  size_t g = get_global_id(0);
  int v = x[g];
  global int *o = out + 24 * g;
  int m = (v & 7) + 1;
  if (v & 1) {
    o[0] = sub_group_non_uniform_reduce_add(v);
    o[1] = sub_group_non_uniform_reduce_mul(m);
    o[2] = sub_group_non_uniform_reduce_min(v);
    o[3] = sub_group_non_uniform_reduce_max((uint)v);
    o[4] = sub_group_non_uniform_reduce_and(v | 0x100);
    o[5] = sub_group_non_uniform_reduce_or(v & 0x0f0);
    o[6] = sub_group_non_uniform_reduce_xor(v);
    o[7] = sub_group_non_uniform_reduce_logical_and(v > -500);
    o[8] = sub_group_non_uniform_reduce_logical_or(v > 800);
    o[9] = sub_group_non_uniform_reduce_logical_xor(v > 0);
    o[10] = sub_group_non_uniform_scan_inclusive_add(v);
    o[11] = sub_group_non_uniform_scan_inclusive_mul(m);
    o[12] = sub_group_non_uniform_scan_inclusive_min(v);
    o[13] = sub_group_non_uniform_scan_inclusive_max(v);
    o[14] = sub_group_non_uniform_scan_exclusive_and(v);
    o[15] = sub_group_non_uniform_scan_exclusive_or(v & 0xff);
    o[16] = sub_group_non_uniform_scan_exclusive_xor(v);
    o[17] = sub_group_non_uniform_scan_exclusive_logical_or(v > 500);
  } else {
    o[0] = sub_group_non_uniform_reduce_add((long)v * 1000000);
    o[1] = (int)sub_group_non_uniform_reduce_mul((float)(((v >> 1) & 1) + 1));
    o[2] = (int)sub_group_non_uniform_reduce_max((double)v * 0.5);
    o[3] = sub_group_non_uniform_scan_exclusive_add(v);
    o[4] = sub_group_non_uniform_scan_exclusive_mul(m);
    o[5] = sub_group_non_uniform_scan_exclusive_min((uint)v);
    o[6] = sub_group_non_uniform_scan_exclusive_max(v);
    o[7] = sub_group_non_uniform_scan_inclusive_and(v | 3);
    o[8] = sub_group_non_uniform_scan_inclusive_or(v & 0x1f);
    o[9] = sub_group_non_uniform_scan_inclusive_xor(v);
    o[10] = sub_group_non_uniform_scan_inclusive_logical_and(v < 600);
    o[11] = sub_group_non_uniform_scan_inclusive_logical_xor(v < 0);
    for (int k = 12; k < 18; k++) o[k] = -7;
  }
  int acc = 0;
  for (int j = 0; j < (v & 3); j++) {
    acc += sub_group_non_uniform_reduce_add(j + v);
    acc ^= sub_group_non_uniform_scan_inclusive_add(1) << 16;
  }
  o[18] = acc;
  // After the loop, every work-item again.
  o[19] = sub_group_reduce_add(acc);
  o[20] = sub_group_non_uniform_reduce_add(1);
  o[21] = 0;
  o[22] = 0;
  o[23] = 0;
}
