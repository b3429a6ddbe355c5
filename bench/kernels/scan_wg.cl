// Inclusive prefix sum of n uints with the OpenCL 2.0 work-group
// functions, in three launches (as scan.cl):
//   scan_blocks: each work-group scans a block of 2*local_size elements
//                with work_group_scan_inclusive_add over pairs, and writes
//                the block's total;
//   scan_sums:   one work-group scans the block totals (exclusive), in
//                chunks with a running carry (work_group_reduce_add);
//   add_offsets: every element of block b gets the sum of blocks before it.
// Needs __opencl_c_work_group_collective_functions (OpenCL C 2.0 or 3.0).
kernel void scan_blocks(global const uint *restrict in, global uint *restrict out,
                        global uint *restrict block_sums)
{
    uint lid = get_local_id(0);
    uint lsize = get_local_size(0);
    size_t base = get_group_id(0) * 2 * lsize;
    uint a = in[base + 2 * lid];
    uint b = in[base + 2 * lid + 1];
    uint upto = work_group_scan_inclusive_add(a + b);
    out[base + 2 * lid] = upto - b;
    out[base + 2 * lid + 1] = upto;
    if (lid == lsize - 1)
        block_sums[get_group_id(0)] = upto;
}

kernel void scan_sums(global uint *sums, uint count)
{
    uint lid = get_local_id(0);
    uint lsize = get_local_size(0);
    uint carry = 0;
    for (uint chunk = 0; chunk < count; chunk += lsize) {
        uint v = chunk + lid < count ? sums[chunk + lid] : 0;
        uint before = work_group_scan_exclusive_add(v);
        uint total = work_group_reduce_add(v);
        if (chunk + lid < count)
            sums[chunk + lid] = carry + before;
        carry += total;
    }
}

kernel void add_offsets(global uint *data, global const uint *restrict sums, uint block)
{
    size_t i = get_global_id(0);
    data[i] += sums[i / block];
}
