// sub_group_scan_{inclusive,exclusive}_{add,min,max} of int, uint, long,
// ulong, float and double, per work-item (floats as integers: 4 times the result, exact). An exclusive float min or max
// is the identity (+-inf) in the first lane: written as 0.
kernel void sg_scan(global const int *x, global int *oi, global uint *ou,
                    global long *ol, global ulong *oul, global int *of,
                    global long *od) {
  size_t g = get_global_id(0);
  int v = x[g];
  uint u = (uint)v * 2654435761u;
  long l = (long)v * 1000000007L;
  ulong ul = ((ulong)u << 20) | g;
  float f = (float)v * 0.5f;
  double d = (double)v * 0.25;
  oi[6 * g] = sub_group_scan_inclusive_add(v);
  oi[6 * g + 1] = sub_group_scan_inclusive_min(v);
  oi[6 * g + 2] = sub_group_scan_inclusive_max(v);
  oi[6 * g + 3] = sub_group_scan_exclusive_add(v);
  oi[6 * g + 4] = sub_group_scan_exclusive_min(v);
  oi[6 * g + 5] = sub_group_scan_exclusive_max(v);
  ou[6 * g] = sub_group_scan_inclusive_add(u);
  ou[6 * g + 1] = sub_group_scan_inclusive_min(u);
  ou[6 * g + 2] = sub_group_scan_inclusive_max(u);
  ou[6 * g + 3] = sub_group_scan_exclusive_add(u);
  ou[6 * g + 4] = sub_group_scan_exclusive_min(u);
  ou[6 * g + 5] = sub_group_scan_exclusive_max(u);
  ol[6 * g] = sub_group_scan_inclusive_add(l);
  ol[6 * g + 1] = sub_group_scan_inclusive_min(l);
  ol[6 * g + 2] = sub_group_scan_inclusive_max(l);
  ol[6 * g + 3] = sub_group_scan_exclusive_add(l);
  ol[6 * g + 4] = sub_group_scan_exclusive_min(l);
  ol[6 * g + 5] = sub_group_scan_exclusive_max(l);
  oul[6 * g] = sub_group_scan_inclusive_add(ul);
  oul[6 * g + 1] = sub_group_scan_inclusive_min(ul);
  oul[6 * g + 2] = sub_group_scan_inclusive_max(ul);
  oul[6 * g + 3] = sub_group_scan_exclusive_add(ul);
  oul[6 * g + 4] = sub_group_scan_exclusive_min(ul);
  oul[6 * g + 5] = sub_group_scan_exclusive_max(ul);
  float fmn = sub_group_scan_exclusive_min(f), fmx = sub_group_scan_exclusive_max(f);
  of[6 * g] = (int)(4.0f * (sub_group_scan_inclusive_add(f)));
  of[6 * g + 1] = (int)(4.0f * (sub_group_scan_inclusive_min(f)));
  of[6 * g + 2] = (int)(4.0f * (sub_group_scan_inclusive_max(f)));
  of[6 * g + 3] = (int)(4.0f * (sub_group_scan_exclusive_add(f)));
  of[6 * g + 4] = (int)(4.0f * (isinf(fmn) ? 0.0f : fmn));
  of[6 * g + 5] = (int)(4.0f * (isinf(fmx) ? 0.0f : fmx));
  double dmn = sub_group_scan_exclusive_min(d), dmx = sub_group_scan_exclusive_max(d);
  od[6 * g] = (long)(4.0 * (sub_group_scan_inclusive_add(d)));
  od[6 * g + 1] = (long)(4.0 * (sub_group_scan_inclusive_min(d)));
  od[6 * g + 2] = (long)(4.0 * (sub_group_scan_inclusive_max(d)));
  od[6 * g + 3] = (long)(4.0 * (sub_group_scan_exclusive_add(d)));
  od[6 * g + 4] = (long)(4.0 * (isinf(dmn) ? 0.0 : dmn));
  od[6 * g + 5] = (long)(4.0 * (isinf(dmx) ? 0.0 : dmx));
}
