// cl_khr_subgroup_extended_types: reductions and scans of char, uchar,
// short and ushort (wrapping), and broadcasts of vectors (int4, float2,
// uchar8, long3) and a non-uniform broadcast of a short4.
kernel void sg_extended(global const int *x, global int *out) {
  size_t g = get_global_id(0);
  int v = x[g];
  global int *o = out + 24 * g;
  char c = (char)v;
  uchar uc = (uchar)v;
  short s = (short)(v * 37);
  ushort us = (ushort)(v * 37);
  o[0] = sub_group_reduce_add(c);
  o[1] = sub_group_reduce_max(uc);
  o[2] = sub_group_scan_inclusive_add(s);
  o[3] = sub_group_scan_exclusive_min(us);
  o[4] = sub_group_reduce_min(c);
  o[5] = sub_group_scan_inclusive_max(uc);
  o[6] = sub_group_reduce_add(us);
  o[7] = sub_group_scan_exclusive_max(s);
  uint last = get_sub_group_size() - 1;
  int4 q = sub_group_broadcast((int4)(v, v * 2, v * 3, -v), last);
  o[8] = q.x;
  o[9] = q.y;
  o[10] = q.z;
  o[11] = q.w;
  float2 f = sub_group_broadcast((float2)(v, v * 0.5f), 0u);
  o[12] = (int)f.x;
  o[13] = (int)(f.y * 2.0f);
  uchar8 b = sub_group_broadcast((uchar8)(uc, uc + 1, uc + 2, uc + 3, uc + 4, uc + 5, uc + 6, uc + 7), last);
  o[14] = b.s0;
  o[15] = b.s7;
  long3 l = sub_group_broadcast((long3)(v, (long)v << 20, -v), 0u);
  o[16] = (int)l.x;
  o[17] = (int)(l.y >> 20);
  o[18] = (int)l.z;
  o[19] = -1;
  o[20] = -1;
  if (v & 1) {
    uint first = sub_group_ballot_find_lsb(sub_group_ballot(1));
    short4 t = sub_group_non_uniform_broadcast((short4)(s, s + 1, s + 2, s + 3), first);
    o[19] = t.x;
    o[20] = t.w;
  }
  o[21] = 0;
  o[22] = 0;
  o[23] = 0;
}
