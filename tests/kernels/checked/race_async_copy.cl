// Checked mode (interpreter): an async_work_group_copy into __local memory
// whose destination is read before wait_group_events.
__kernel void race_async_copy(__global const int *in, __global int *out)
{
    __local int tile[16];
    size_t l = get_local_id(0);
    event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
    out[get_global_id(0)] = tile[(l + 1) % 16];
    wait_group_events(1, &e);
}
