// Inclusive prefix sum of n uints in three launches:
//   scan_blocks: each work-group scans a block of 2*local_size elements in
//                local memory (Hillis-Steele over pairs) and writes the
//                block's total;
//   scan_sums:   one work-group scans the block totals (exclusive), in
//                chunks with a running carry;
//   add_offsets: every element of block b gets the sum of blocks before it.
kernel void scan_blocks(global const uint *restrict in, global uint *restrict out,
                        global uint *restrict block_sums, local uint *tmp)
{
    uint lid = get_local_id(0);
    uint lsize = get_local_size(0);
    size_t base = get_group_id(0) * 2 * lsize;
    uint a = in[base + 2 * lid];
    uint b = in[base + 2 * lid + 1];
    tmp[lid] = a + b;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < lsize; off <<= 1) {
        uint v = lid >= off ? tmp[lid - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[lid] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    uint before = lid > 0 ? tmp[lid - 1] : 0;
    out[base + 2 * lid] = before + a;
    out[base + 2 * lid + 1] = before + a + b;
    if (lid == lsize - 1)
        block_sums[get_group_id(0)] = tmp[lid];
}

kernel void scan_sums(global uint *sums, uint count, local uint *tmp)
{
    uint lid = get_local_id(0);
    uint lsize = get_local_size(0);
    uint carry = 0;
    for (uint chunk = 0; chunk < count; chunk += lsize) {
        uint v = chunk + lid < count ? sums[chunk + lid] : 0;
        tmp[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint off = 1; off < lsize; off <<= 1) {
            uint u = lid >= off ? tmp[lid - off] : 0;
            barrier(CLK_LOCAL_MEM_FENCE);
            tmp[lid] += u;
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (chunk + lid < count)
            sums[chunk + lid] = carry + tmp[lid] - v;
        carry += tmp[lsize - 1];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

kernel void add_offsets(global uint *data, global const uint *restrict sums, uint block)
{
    size_t i = get_global_id(0);
    data[i] += sums[i / block];
}
