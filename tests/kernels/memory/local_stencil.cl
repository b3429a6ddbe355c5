// A 1D 3-point stencil through a __local tile (kernel argument, given by
// size in the .sim) with halo cells loaded by the first and last work-items
// of each group; boundary values are clamped.
__kernel void local_stencil(__global const float* in, __local float* tile,
                            __global float* out, const int n)
{
    int g = (int)get_global_id(0);
    int l = (int)get_local_id(0);
    int ls = (int)get_local_size(0);
    tile[l + 1] = in[g];
    if (l == 0)
        tile[0] = in[max(g - 1, 0)];
    if (l == ls - 1)
        tile[ls + 1] = in[min(g + 1, n - 1)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = 0.25f * tile[l] + 0.5f * tile[l + 1] + 0.25f * tile[l + 2];
}
