// Votes and broadcasts. In uniform code: sub_group_all/any, a broadcast
// from lane 1 (0 in a subgroup of one) and from the subgroup's last lane, of each type. In a
// divergent if (x % 3 == 0): the non-uniform votes over the work-items
// that took it, elect, all_equal, broadcast_first and a non-uniform
// broadcast from the lowest of them.
kernel void sg_vote(global const int *x, global long *out) {
  size_t g = get_global_id(0);
  int v = x[g];
  global long *o = out + 16 * g;
  uint last = get_sub_group_size() - 1;
  o[0] = sub_group_all(v > -800);
  o[1] = sub_group_any(v > 850);
  uint one = last >= 1u ? 1u : 0u;
  o[2] = sub_group_broadcast(v, one);
  o[3] = sub_group_broadcast((uint)v * 7u, last);
  o[4] = sub_group_broadcast((long)v * 100000000000L, last);
  o[5] = sub_group_broadcast((ulong)v << 40, 0u);
  o[6] = (long)(sub_group_broadcast((float)v * 0.5f, last) * 2.0f);
  o[7] = (long)(sub_group_broadcast((double)v * 0.25, one) * 4.0);
  for (int k = 8; k < 16; k++) o[k] = -1;
  if (v % 3 == 0) {
    o[8] = sub_group_non_uniform_all(v > 0);
    o[9] = sub_group_non_uniform_any(v > 600);
    o[10] = sub_group_elect();
    o[11] = sub_group_non_uniform_all_equal(v / 1000);
    o[12] = sub_group_non_uniform_all_equal(v);
    o[13] = sub_group_broadcast_first(v);
    o[14] = (long)sub_group_broadcast_first((double)v * 0.5) * 2;
    uint4 b = sub_group_ballot(1);
    o[15] = sub_group_non_uniform_broadcast(v * 2, sub_group_ballot_find_msb(b));
  }
}
