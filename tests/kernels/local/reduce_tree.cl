// Tree reduction (sum and max) in __local arrays declared in the kernel.
__kernel void reduce_tree(__global const int *in, __global int *sums, __global int *maxs)
{
    __local int s[64];
    __local int m[64];
    int l = get_local_id(0), g = get_global_id(0);
    s[l] = in[g];
    m[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {
        if (l < stride) {
            s[l] += s[l + stride];
            m[l] = max(m[l], m[l + stride]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        sums[get_group_id(0)] = s[0];
        maxs[get_group_id(0)] = m[0];
    }
}
