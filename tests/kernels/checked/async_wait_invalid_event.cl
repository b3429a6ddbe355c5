// Checked mode (interpreter): wait_group_events is given an event that no
// async copy returned (an uninitialized one), and the copy's own event is
// never waited for.
__kernel void async_wait_invalid_event(__global const int *in, __global int *out)
{
    __local int tile[16];
    size_t l = get_local_id(0);
    event_t e, other;
    e = async_work_group_copy(tile, in + get_group_id(0) * 16, 16, 0);
    wait_group_events(1, &other);
    out[get_global_id(0)] = tile[15 - l];
}
