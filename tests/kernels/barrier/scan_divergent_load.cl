// Hillis-Steele inclusive scan per work-group: a loop with two barriers and,
// before them, a load only some work-items make (lid >= off). The load's
// index lid - off wraps (as uint) in the work-items that skip it, so the
// SIMD engine must address the consecutive access from an active lane.
kernel void scan_divergent_load(global const uint *restrict in, global uint *restrict out,
                                local uint *tmp)
{
    uint lid = get_local_id(0);
    uint lsize = get_local_size(0);
    tmp[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < lsize; off <<= 1) {
        uint v = lid >= off ? tmp[lid - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = tmp[lid];
}
