// sub_group_barrier: each work-item writes local memory, the subgroup
// meets, and each reads what the next work-item of its subgroup (wrapping
// around) wrote; twice, the second time with the new values.
kernel void sg_barrier(global const int *x, global int *out, local int *tmp) {
  size_t g = get_global_id(0);
  uint l = get_local_id(0);
  uint lid = get_sub_group_local_id();
  uint n = get_sub_group_size();
  uint base = l - lid;
  tmp[l] = x[g];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  int a = tmp[base + (lid + 1) % n];
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  tmp[l] = a * 2 + (int)lid;
  sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
  int b = tmp[base + (lid + n - 1) % n];
  out[2 * g] = a;
  out[2 * g + 1] = b;
}
