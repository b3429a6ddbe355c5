// A block that enqueues itself forever: each level counts itself, and the
// first enqueue the device refuses (nested too deep: CLK_OUT_OF_RESOURCES)
// ends the chain instead of taking memory forever.
void again(global int *depth) {
  atomic_inc(depth);
  int r = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                         ^{ again(depth); });
  if (r != CLK_SUCCESS)
    depth[1] = r;
}

kernel void enqueue_nesting_limit(global int *depth) {
  again(depth);
}
