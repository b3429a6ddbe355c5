// Work-group collectives over large groups (many subgroups, the last one
// partial at some widths) of int, uint, long, ulong, float and double:
// reductions, inclusive and exclusive scans, all/any, broadcast (1-D and
// 2-D). Floats as integers (4 times the result, exact).
kernel void wg_collectives(global const int *x, global long *out) {
  size_t g = get_global_id(1) * get_global_size(0) + get_global_id(0);
  int v = x[g];
  uint u = (uint)v + 5000u;
  long l = (long)v * 3000000L;
  ulong ul = (ulong)(v + 1000);
  float f = (float)v * 0.5f;
  double d = (double)v * 0.25;
  global long *o = out + 12 * g;
  o[0] = work_group_reduce_add(v);
  o[1] = work_group_reduce_min(u);
  o[2] = work_group_reduce_max(l);
  o[3] = work_group_scan_inclusive_add(l);
  o[4] = work_group_scan_exclusive_add(v);
  o[5] = work_group_scan_inclusive_min(v);
  o[6] = work_group_scan_exclusive_max(ul);
  o[7] = (long)(4.0 * work_group_reduce_add(d));
  o[8] = (long)(4.0f * work_group_scan_inclusive_add(f));
  o[9] = work_group_all(v > -900) * 2 + work_group_any(v > 995);
  if (get_work_dim() == 1)
    o[10] = work_group_broadcast(v, min((size_t)3, get_local_size(0) - 1));
  else
    o[10] = work_group_broadcast(v, (size_t)2, (size_t)1);
  float m = work_group_scan_exclusive_min(f);
  o[11] = isinf(m) ? -1 : (long)(4.0f * m);
}
