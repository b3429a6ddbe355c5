// Sum of n floats: each work-item adds a strided slice (coalesced across the
// NDRange), then the work-group combines its items through a tree in local
// memory; one partial sum per work-group.
kernel void reduce_sum(global const float *restrict in, global float *restrict partial,
                       uint n, local float *scratch)
{
    size_t gid = get_global_id(0);
    size_t stride = get_global_size(0);
    uint lid = get_local_id(0);
    float sum = 0.0f;
    for (size_t i = gid; i < n; i += stride)
        sum += in[i];
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
