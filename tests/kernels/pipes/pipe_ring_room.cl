// One work-item and a pipe of 5 holding 100 and 101 (passed twice): a
// reservation needs every one of its slots, free for writing or
// committed for reading, and fails at once without them.
kernel void pipe_ring_room(write_only pipe int out, read_only pipe int in, global int *log) {
  log[0] = is_valid_reserve_id(reserve_write_pipe(out, 4)); // 3 slots are free
  reserve_id_t held = reserve_write_pipe(out, 3);           // positions 2 .. 4
  log[1] = is_valid_reserve_id(held);
  for (int i = 0; i < 3; i++) {
    int v = 102 + i;
    log[2 + i] = write_pipe(out, held, i, &v);
  }
  log[5] = is_valid_reserve_id(reserve_read_pipe(in, 3)); // position 2 is not committed
  commit_write_pipe(out, held);
  log[6] = is_valid_reserve_id(reserve_read_pipe(in, 6)); // more than the pipe holds
}
