// Shuffles: sub_group_shuffle from a lane the data picks, shuffle_xor,
// shuffle_up and shuffle_down (each written only where its source lane is
// in the subgroup, else -1), and the cl_intel_subgroups shuffles of
// scalars and vectors: intel_sub_group_shuffle, _xor, and _down / _up,
// which take lanes past the subgroup's end from a second value.
kernel void sg_shuffle(global const int *x, global int *out) {
  size_t g = get_global_id(0);
  int v = x[g];
  global int *o = out + 16 * g;
  uint n = get_sub_group_size();
  uint lid = get_sub_group_local_id();
  uint src = (uint)(v & 0x7fffffff) % n;
  o[0] = sub_group_shuffle(v, src);
  uint xs = lid ^ 1u;
  int a = sub_group_shuffle_xor(v, 1u);
  o[1] = xs < n ? a : -1;
  int up = sub_group_shuffle_up(v, 2u);
  o[2] = lid >= 2u ? up : -1;
  int down = sub_group_shuffle_down(v, 3u);
  o[3] = lid + 3u < n ? down : -1;
  double d = sub_group_shuffle_xor((double)v * 0.5, 2u);
  o[4] = (lid ^ 2u) < n ? (int)(d * 2.0) : -1;
  o[5] = intel_sub_group_shuffle(v * 3, 0u);
  float f = intel_sub_group_shuffle_xor((float)v, 1u);
  o[6] = xs < n ? (int)f : -1;
  uint w = get_max_sub_group_size();
  // A full subgroup: every lane of both values exists.
  int dn = intel_sub_group_shuffle_down(v, v + 10000, 1u);
  o[7] = n == w ? dn : -1;
  int upv = intel_sub_group_shuffle_up(v - 10000, v, 1u);
  o[8] = n == w ? upv : -1;
  int4 q = (int4)(v, v + 1, v + 2, v + 3);
  int4 r = intel_sub_group_shuffle(q, 1u);
  o[9] = r.x;
  o[10] = r.w;
  uint2 p = intel_sub_group_shuffle((uint2)((uint)v, (uint)lid), n - 1u);
  o[11] = (int)p.x;
  o[12] = (int)p.y;
  long l = sub_group_shuffle((long)v * 3000000000L, n - 1u - lid);
  o[13] = (int)(l / 1000000000L);
  ulong ul = intel_sub_group_shuffle((ulong)(v & 0xff) << 33, 0u);
  o[14] = (int)(ul >> 33);
  o[15] = 0;
}
