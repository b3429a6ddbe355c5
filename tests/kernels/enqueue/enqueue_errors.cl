// The CLK_* codes of enqueues the device refuses, device event validity,
// and a device queue that fills up: one work-item enqueues blocks that
// capture 4 KiB until it does (`filled[1]` is 1 if more than 10 fitted
// first; the default queue's preferred size is at least 16 KiB), and each
// child checks its copy of the captured struct.
struct big {
  int v[1024];
};

kernel void enqueue_errors(global int *out, global int *filled) {
  queue_t q = get_default_queue();
  queue_t none = 0;
  clk_event_t e, bad = CLK_NULL_EVENT;
  void (^blk)(void) = ^{ out[15] = 1; };
  out[0] = enqueue_kernel(none, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), blk);
  out[1] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(0), blk);
  out[2] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(64, 8192), blk);
  out[3] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, 0, &e, blk);
  out[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &bad, &e, blk);
  out[5] = enqueue_marker(q, 0, 0, &e);
  out[6] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                          ^(local void *p) { out[14] = 2; }, 0u);
  out[7] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                          ^(local void *p) { out[14] = 3; }, 1024u * 1024u);
  out[8] = is_valid_event(bad);
  clk_event_t u = create_user_event();
  out[9] = is_valid_event(u);
  set_user_event_status(u, CL_COMPLETE);
  release_event(u);
  out[10] = is_valid_event(u);
  out[11] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), blk);
  struct big b;
  for (int i = 0; i < 1024; i++)
    b.v[i] = i;
  int ok = 0, full = 0;
  for (int i = 0; i < 100000 && !full; i++) {
    int r = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{
      if (b.v[1023] != 1023 || b.v[7] != 7)
        atomic_inc(&filled[2]);
    });
    if (r == CLK_SUCCESS)
      ok++;
    else
      full = r == CLK_DEVICE_QUEUE_FULL ? 1 : r;
  }
  filled[0] = full;
  filled[1] = ok > 10;
}
