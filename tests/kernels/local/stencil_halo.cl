// 1D 5-point stencil with a 2-element halo on each side loaded by the first
// work-items of the group (divergent), clamped at the array ends; local size 24.
#define R 2
__kernel void stencil_halo(__global const int *in, __global int *out, int n)
{
    __local int tile[24 + 2 * R];
    int l = get_local_id(0), L = get_local_size(0), g = get_global_id(0);
    tile[l + R] = in[g];
    if (l < R) {
        int gl = g - R;
        tile[l] = in[gl < 0 ? 0 : gl];
        int gr = g + L;
        tile[l + L + R] = in[gr >= n ? n - 1 : gr];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = tile[l] - 2 * tile[l + 1] + 5 * tile[l + 2] - 2 * tile[l + 3] + tile[l + 4];
}
