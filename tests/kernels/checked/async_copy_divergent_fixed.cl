// The fixed twin of async_copy_divergent: every work-item makes the same copy.
__kernel void async_copy_divergent_fixed(__global const int *in, __global int *out)
{
    __local int tile[16];
    size_t l = get_local_id(0);
    event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] = tile[15 - l];
}
