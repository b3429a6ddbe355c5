// One work-item and a pipe of 5 holding 100 and 101 (passed twice): the
// slots of packets being read are not free until the read is committed;
// then a write reservation of 4 takes positions 2 .. 5, round the ring
// to slot 0, and the packets stay in order.
kernel void pipe_ring_wrap(write_only pipe int out, read_only pipe int in, global int *log) {
  reserve_id_t r = reserve_read_pipe(in, 2);
  for (int i = 0; i < 2; i++)
    log[i] = read_pipe(in, r, i, &log[2 + i]);
  log[4] = is_valid_reserve_id(reserve_write_pipe(out, 4)); // slot 0 is being read
  commit_read_pipe(in, r);
  reserve_id_t w = reserve_write_pipe(out, 4);
  log[5] = is_valid_reserve_id(w);
  for (int i = 0; i < 4; i++) {
    int v = 102 + i;
    log[6 + i] = write_pipe(out, w, i, &v);
  }
  commit_write_pipe(out, w);
}
