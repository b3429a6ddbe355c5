// Checked mode (interpreter): work-items of a group make an async copy
// with different arguments (half of them copy fewer elements); OpenCL
// requires the same copy from every work-item of the work-group.
__kernel void async_copy_divergent(__global const int *in, __global int *out)
{
    __local int tile[16];
    size_t l = get_local_id(0);
    event_t e = async_work_group_copy(tile, in + get_group_id(0) * 16, l < 8 ? 16 : 8, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] = tile[15 - l];
}
