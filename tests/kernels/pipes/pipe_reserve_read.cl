// Read reservations of 1, 2 or 3 packets (by global id) from a pipe holding
// 100 packets: 48 work-items reserve 96 in all, so every reservation
// succeeds and the last 4 packets stay in the pipe. Each reservation's
// packets are read by index; an index past it fails, as does a read
// through CLK_NULL_RESERVE_ID.
kernel void pipe_reserve_read(read_only pipe int in, global int *seen, global int *status) {
  uint n = get_global_id(0) % 3 + 1;
  reserve_id_t r = reserve_read_pipe(in, n);
  if (!is_valid_reserve_id(r)) {
    atomic_inc(&status[0]);
    return;
  }
  for (uint i = 0; i < n; i++) {
    int v;
    if (read_pipe(in, r, i, &v) == 0)
      atomic_inc(&seen[v - 100]);
    else
      atomic_inc(&status[1]);
  }
  int past;
  if (read_pipe(in, r, n, &past) == 0) atomic_inc(&status[2]);
  commit_read_pipe(in, r);
  reserve_id_t none = CLK_NULL_RESERVE_ID;
  if (is_valid_reserve_id(none) || read_pipe(in, none, 0, &past) == 0) atomic_inc(&status[3]);
  if (get_global_id(0) == 0) status[4] = get_pipe_max_packets(in);
}
