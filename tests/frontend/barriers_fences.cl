// Builtins: barrier, work_group_barrier (with scope), mem_fence, read/write_mem_fence, atomic_work_item_fence.
kernel void barriers_fences(global int *g, local int *l) {
    size_t i = get_local_id(0);
    l[i] = g[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    g[i] = l[i ^ 1];
    work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
    mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    read_mem_fence(CLK_LOCAL_MEM_FENCE);
    write_mem_fence(CLK_GLOBAL_MEM_FENCE);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
    work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    g[i] += l[i];
}
