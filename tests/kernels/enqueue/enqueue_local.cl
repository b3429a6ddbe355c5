// The first work-item of each group enqueues a 2-D child with a global
// offset and an explicit local size, and two __local buffers (the block's
// `local void *` parameters): each child work-group sums its 8 inputs in
// local memory between barriers.
kernel void enqueue_local(global const int *in, global int *sums, global int *status) {
  int g = get_group_id(0);
  if (get_local_id(0) != 0)
    return;
  size_t off[2] = {g * 8, 0};
  size_t gs[2] = {8, 2};
  size_t ls[2] = {4, 2};
  status[g] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
                             ndrange_2D(off, gs, ls), ^(local void *a, local void *b) {
    local int *t = (local int *)a;
    local int *u = (local int *)b;
    int lid = get_local_linear_id();
    t[lid] = in[get_global_id(0) * 2 + get_global_id(1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
      int s = 0;
      for (int i = 0; i < 8; i++)
        s += t[i];
      u[0] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 1)
      sums[g * 2 + get_group_id(0)] = u[0] * 10 + (int)get_num_groups(0);
  }, 8 * sizeof(int), sizeof(int));
}
