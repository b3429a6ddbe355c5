// The fixed twin of race_fence_only: a barrier between the write and the read.
__kernel void race_fence_only_fixed(__global const int *in, __global int *out)
{
    __local int tile[16];
    size_t l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[(l + 1) % 16];
}
