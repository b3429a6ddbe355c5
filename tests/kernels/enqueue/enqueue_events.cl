// A chain per work-item, ordered only by device events: A waits for a user
// event the work-item completes last, a 2x2 kernel B waits for A, a marker
// for B, and C (after the marker) sums B's results. o[6] is what the
// work-item itself saw of A's result: nothing yet (A waits for the user
// event). status: one bit per call that did not succeed.
kernel void enqueue_events(global int *out, global int *status) {
  int g = get_global_id(0);
  queue_t q = get_default_queue();
  global int *o = out + g * 8;
  clk_event_t user = create_user_event();
  clk_event_t a_done, b_done, marker;
  int s = 0;
  s |= enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &user, &a_done,
                      ^{ o[0] = g + 1; }) != CLK_SUCCESS;
  size_t gs[2] = {2, 2};
  s |= (enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(gs), 1, &a_done, &b_done, ^{
          int k = get_global_linear_id();
          o[1 + k] = o[0] * 2 + k;
        }) != CLK_SUCCESS) << 1;
  s |= (enqueue_marker(q, 1, &b_done, &marker) != CLK_SUCCESS) << 2;
  s |= (enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &marker, 0,
                       ^{ o[5] = o[1] + o[2] + o[3] + o[4]; }) != CLK_SUCCESS) << 3;
  o[6] = o[0];
  s |= !is_valid_event(user) << 4;
  set_user_event_status(user, CL_COMPLETE);
  release_event(user);
  release_event(a_done);
  release_event(b_done);
  release_event(marker);
  status[g] = s;
}
