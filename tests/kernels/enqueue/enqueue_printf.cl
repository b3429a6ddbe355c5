// One work-item enqueues three kernels of two work-items, each waiting for
// the one before (events passed along a loop); the children print after
// the parent, in that order.
kernel void enqueue_printf(int n) {
  queue_t q = get_default_queue();
  clk_event_t prev, next;
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2, 2), 0, 0, &prev, ^{
    printf("first: item %d of %d\n", (int)get_global_id(0), n);
  });
  for (int i = 1; i < 3; i++) {
    enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2, 2), 1, &prev, &next, ^{
      printf("step %d: item %d\n", i, (int)get_local_id(0));
    });
    release_event(prev);
    prev = next;
  }
  release_event(prev);
  printf("parent done\n");
}
