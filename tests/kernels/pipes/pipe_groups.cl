// Work-group and subgroup reservations: each work-group reserves room for
// its packets at once and each work-item writes its own; then each
// subgroup reserves as many packets as it has work-items (trying again
// while other groups' packets are still being written) and each
// work-item reads one. Every packet arrives exactly once.
kernel void pipe_groups(write_only pipe long out, read_only pipe long in, global int *seen,
                        global int *failed) {
  long mine = (long)get_global_id(0) * 1000003L;
  reserve_id_t w = work_group_reserve_write_pipe(out, get_local_size(0));
  if (is_valid_reserve_id(w)) {
    if (write_pipe(out, w, get_local_id(0), &mine) != 0) atomic_inc(failed);
    work_group_commit_write_pipe(out, w);
  } else if (get_local_id(0) == 0) {
    atomic_inc(failed);
  }
  reserve_id_t r;
  do {
    r = sub_group_reserve_read_pipe(in, get_sub_group_size());
  } while (!is_valid_reserve_id(r));
  long v;
  if (read_pipe(in, r, get_sub_group_local_id(), &v) != 0) atomic_inc(failed);
  sub_group_commit_read_pipe(in, r);
  atomic_inc(&seen[v / 1000003L]);
}
