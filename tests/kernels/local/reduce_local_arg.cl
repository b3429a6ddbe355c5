// Reduction through __local pointer kernel arguments (int and long) with a
// local size that is not a power of two (40): halving with odd sizes.
__kernel void reduce_local_arg(__global const int *in, __local int *scratch,
                               __global int *sums, __local long *sq, __global long *sqsums)
{
    int l = get_local_id(0), g = get_global_id(0);
    scratch[l] = in[g];
    sq[l] = (long)in[g] * in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = get_local_size(0); s > 1; ) {
        int h = (s + 1) / 2;
        if (l < s - h) {
            scratch[l] += scratch[l + h];
            sq[l] += sq[l + h];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        s = h;
    }
    if (l == 0) {
        sums[get_group_id(0)] = scratch[0];
        sqsums[get_group_id(0)] = sq[0];
    }
}
