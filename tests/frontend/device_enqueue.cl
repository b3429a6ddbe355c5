// Device-side enqueue: a block literal (size, alignment, invoke function,
// captures) built on the stack and enqueued with a wait list and an event,
// a block with a `local void *` parameter (its size from the call), a
// marker, user events, and a block kernel query. The block's invoke kernel
// is `enqueued_block`; a block literal's invoke field holds an opaque
// function address.
kernel void parent(global int *out, int v) {
  int g = get_global_id(0);
  queue_t q = get_default_queue();
  clk_event_t user = create_user_event(), done, marker;
  out[g] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(4), 1, &user, &done,
                          ^{ out[64 + g * 4 + get_global_id(0)] = v + g; });
  out[g] += enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(8, 4),
                           ^(local void *p) { ((local int *)p)[get_local_id(0)] = v; }, 16u);
  out[g] += enqueue_marker(q, 1, &done, &marker);
  set_user_event_status(user, CL_COMPLETE);
  release_event(user);
  release_event(done);
  release_event(marker);
  out[32 + g] = get_kernel_work_group_size(^{ out[0] = 1; });
}
