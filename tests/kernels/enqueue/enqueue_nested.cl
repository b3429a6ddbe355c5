// Nested enqueue: at each depth every work-item counts itself, and the
// first work-item of each work-group (CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP)
// enqueues the next depth: 3 work-items in groups of 1. The top kernel
// also records the block kernel's queries.
void level(global int *counts, int depth) {
  atomic_inc(&counts[depth]);
  if (depth == 0 || get_local_id(0) != 0)
    return;
  void (^next)(void) = ^{ level(counts, depth - 1); };
  if (enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_WORK_GROUP,
                     ndrange_1D(3, 1), next) != CLK_SUCCESS)
    atomic_inc(&counts[7]);
}

kernel void enqueue_nested(global int *counts) {
  level(counts, 3);
  if (get_global_id(0) == 0) {
    void (^empty)(void) = ^{};
    counts[4] = get_kernel_work_group_size(empty);
    uint m = get_kernel_preferred_work_group_size_multiple(empty);
    counts[5] = m >= 1 && m <= 64 && (m & (m - 1)) == 0;
    ndrange_t nd = ndrange_1D(64, 64);
    uint n = get_kernel_sub_group_count_for_ndrange(nd, empty);
    uint w = get_kernel_max_sub_group_size_for_ndrange(nd, empty);
    counts[6] = n >= 1 && w >= 1 && n * w >= 64 && (n - 1) * w < 64;
  }
}
