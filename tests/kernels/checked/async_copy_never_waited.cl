// Checked mode (interpreter): an async copy to __global memory that no
// work-item waits for; a barrier is not a wait: the copy may still be
// under way when the kernel reads its destination, and when it ends.
__kernel void async_copy_never_waited(__global const int *in, __global int *out)
{
    __local int tile[16];
    size_t l = get_local_id(0);
    tile[l] = in[get_global_id(0)] * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    async_work_group_copy(out + get_group_id(0) * 16, tile, 16, 0);
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0)] += 1;
}
