// async_work_group_copy into local memory and back, with wait_group_events,
// around a neighbour exchange through the local tile.
kernel void async_copy(global const int *in, global int *out, local int *tile)
{
    size_t grp = get_group_id(0), lid = get_local_id(0), n = get_local_size(0);
    event_t e = async_work_group_copy(tile, in + grp * n, n, 0);
    wait_group_events(1, &e);
    int v = tile[(lid + 1) % n] * 2 + (int)lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t back = async_work_group_copy(out + grp * n, tile, n, 0);
    wait_group_events(1, &back);
}
