// One work-item and an empty pipe of 5 (passed twice): two write
// reservations committed in the opposite order. The second's packets are
// not readable while the first's are not committed, and the packets come
// out in the order of their positions.
kernel void pipe_ring_order(write_only pipe int out, read_only pipe int in, global int *log) {
  reserve_id_t first = reserve_write_pipe(out, 2), second = reserve_write_pipe(out, 2);
  for (int i = 0; i < 4; i++) {
    int v = 100 + i;
    log[i] = write_pipe(out, i < 2 ? first : second, i % 2, &v);
  }
  commit_write_pipe(out, second);
  log[4] = is_valid_reserve_id(reserve_read_pipe(in, 1)); // position 0 is not committed
  commit_write_pipe(out, first);
}
