// Rotations (cl_khr_subgroup_rotate): sub_group_rotate by a delta the same
// in the whole subgroup (from the data: negative, or more than the size),
// by fixed deltas, of int, long, float and ushort; and
// sub_group_clustered_rotate in clusters of 1, 2, 4 and the largest power
// of two up to the largest subgroup size (24 work-items at W=32). A rotation is around the subgroup of the largest size: where the
// source work-item is past a partial subgroup's end the result is
// undefined, and the kernel writes -1 instead.
#pragma OPENCL EXTENSION cl_khr_subgroup_rotate : enable

// The source of work-item `lid` rotated by `d` in clusters of `c`.
uint source(uint lid, int d, uint c) {
  return (lid - lid % c) + (uint)(((int)(lid % c) + d % (int)c + (int)c) % (int)c);
}

kernel void sg_rotate(global const int *x, global int *out) {
  size_t g = get_global_id(0);
  int v = x[g];
  global int *o = out + 8 * g;
  uint n = get_sub_group_size();
  uint w = get_max_sub_group_size();
  uint lid = get_sub_group_local_id();
  int d = sub_group_broadcast(v, 0) % 40;
  int r = sub_group_rotate(v, d);
  o[0] = source(lid, d, w) < n ? r : -1;
  long l = sub_group_rotate((long)v * 3000000000L, -3);
  o[1] = source(lid, -3, w) < n ? (int)(l / 1000000000L) : -1;
  float f = sub_group_rotate((float)v * 0.5f, (int)w + 1);
  o[2] = source(lid, 1, w) < n ? (int)(f * 2.0f) : -1;
  ushort s = sub_group_rotate((ushort)(v & 0xffff), 2);
  o[3] = source(lid, 2, w) < n ? (int)s : -1;
  int c1 = sub_group_clustered_rotate(v, 5, 1);
  o[4] = c1;
  int c2 = sub_group_clustered_rotate(v, 1, 2);
  o[5] = source(lid, 1, 2) < n ? c2 : -1;
  int c4 = sub_group_clustered_rotate(v, d, 4);
  o[6] = source(lid, d, 4) < n ? c4 : -1;
  uint c = 1u << (31 - clz(w));
  int cw = sub_group_clustered_rotate(v, -1, c);
  o[7] = source(lid, -1, c) < n ? cw : -1;
}
