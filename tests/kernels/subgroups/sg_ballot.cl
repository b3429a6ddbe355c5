// cl_khr_subgroup_ballot: a ballot of odd values in uniform code and its
// helpers (inverse ballot, bit extract, bit count, inclusive and exclusive
// scans, lowest and highest bit), the lane masks, and a ballot inside a
// divergent if (only the work-items that took it are set).
kernel void sg_ballot(global const int *x, global uint *out) {
  size_t g = get_global_id(0);
  int v = x[g];
  global uint *o = out + 16 * g;
  uint4 b = sub_group_ballot(v & 1);
  o[0] = b.x;
  o[1] = b.y | b.z | b.w;
  o[2] = sub_group_inverse_ballot(b);
  o[3] = sub_group_ballot_bit_extract(b, 2u);
  o[4] = sub_group_ballot_bit_count(b);
  o[5] = sub_group_ballot_inclusive_scan(b);
  o[6] = sub_group_ballot_exclusive_scan(b);
  o[7] = b.x ? sub_group_ballot_find_lsb(b) : 99u;
  o[8] = b.x ? sub_group_ballot_find_msb(b) : 99u;
  o[9] = get_sub_group_eq_mask().x;
  o[10] = get_sub_group_ge_mask().x;
  o[11] = get_sub_group_gt_mask().x;
  o[12] = get_sub_group_le_mask().x;
  o[13] = get_sub_group_lt_mask().x;
  o[14] = 7;
  o[15] = 7;
  if (v % 4 == 0) {
    uint4 d = sub_group_ballot(v > 0);
    o[14] = d.x;
    o[15] = sub_group_ballot_bit_count(sub_group_ballot(1));
  }
}
