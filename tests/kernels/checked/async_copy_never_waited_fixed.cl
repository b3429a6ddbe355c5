// The fixed twin of async_copy_never_waited: the copy is waited for.
__kernel void async_copy_never_waited_fixed(__global const int *in, __global int *out)
{
    __local int tile[16];
    size_t l = get_local_id(0);
    tile[l] = in[get_global_id(0)] * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_copy(out + get_group_id(0) * 16, tile, 16, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] += 1;
}
