// A sum in two steps per work-group: each work-item adds up a strided slice
// of the input, then the group combines its items' sums by a tree in
// __local memory, halving the active items at each barrier. One partial sum
// per work-group; the host adds the partial sums.

kernel void reduce(global const float *input, uint n, local float *scratch,
                   global float *partial) {
    uint lid = get_local_id(0);
    uint size = get_local_size(0);
    float sum = 0.0f;
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        sum += input[i];
    scratch[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint active = size / 2; active > 0; active /= 2) {
        if (lid < active)
            scratch[lid] += scratch[lid + active];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
