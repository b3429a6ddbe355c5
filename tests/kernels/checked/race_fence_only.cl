// Checked mode (interpreter): a fence orders one work-item's own accesses
// only; reading what a neighbour wrote needs a barrier.
__kernel void race_fence_only(__global const int *in, __global int *out)
{
    __local int tile[16];
    size_t l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    mem_fence(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[(l + 1) % 16];
}
