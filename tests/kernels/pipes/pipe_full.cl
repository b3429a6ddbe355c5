// One work-group of 32 and a pipe of 10 (passed twice): 10 writes
// succeed and 22 find the pipe full; the counts the pipe reports; 10
// reads succeed and 22 find it empty; reservations of 0 or of more than
// the capacity are invalid. Every count is independent of the order.
kernel __attribute__((reqd_work_group_size(32, 1, 1))) void pipe_full(
    write_only pipe uint out, read_only pipe uint in, global uint *seen, global int *counts) {
  uint lid = get_local_id(0);
  uint mine = lid * 5;
  if (write_pipe(out, &mine) == 0)
    atomic_inc(&counts[0]);
  else
    atomic_inc(&counts[1]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (lid == 0) {
    counts[2] = get_pipe_num_packets(out);
    counts[3] = get_pipe_max_packets(in);
    counts[4] = is_valid_reserve_id(reserve_write_pipe(out, 11));
    counts[5] = is_valid_reserve_id(reserve_read_pipe(in, 0));
    counts[6] = is_valid_reserve_id(reserve_read_pipe(in, 11));
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  uint v;
  if (read_pipe(in, &v) == 0) {
    atomic_inc(&counts[7]);
    atomic_inc(&seen[v / 5]);
  } else {
    atomic_inc(&counts[8]);
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (lid == 0) counts[9] = get_pipe_num_packets(in);
}
