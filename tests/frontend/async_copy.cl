// Builtins: async_work_group_copy both directions, async_work_group_strided_copy, wait_group_events.
kernel void async_copy(global float *out, global const float *in, local float *tile) {
    size_t n = get_local_size(0), base = get_group_id(0) * n;
    event_t e = async_work_group_copy(tile, in + base, n, 0);
    wait_group_events(1, &e);
    tile[get_local_id(0)] *= 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t ev[2];
    ev[0] = async_work_group_copy(out + base, tile, n, 0);
    ev[1] = async_work_group_strided_copy(out + 4096 + base, tile, n / 2, 2, 0);
    wait_group_events(2, ev);
}
