// Matrix transpose (32 wide x 8 high) through padded 8x8 local tiles.
#define T 8
__kernel void transpose_tile(__global const int *in, __global int *out, int width, int height)
{
    __local int tile[T][T + 1];
    int x = get_global_id(0), y = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * T + lx;
    int oy = get_group_id(0) * T + ly;
    out[oy * height + ox] = tile[lx][ly];
}
