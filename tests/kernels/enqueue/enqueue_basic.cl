// Each work-item enqueues a child kernel of 1 to 4 work-items whose block
// captures the work-item's id, a multiplier and the output buffer; the
// children fill the work-item's slice of `out`.
kernel void enqueue_basic(global int *out, global int *status, int mul) {
  int gid = get_global_id(0);
  int n = 1 + gid % 4;
  status[gid] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(n), ^{
    int i = get_global_id(0);
    out[gid * 4 + i] = mul * gid + i * 1000 + (int)get_global_size(0) * 100000;
  });
}
