// A 3D work-group (4x2x2) exchanging values along all three axes through a
// local tile, with three barriers.
__kernel void barrier_3d(__global const int *in, __global int *out)
{
    __local int tile[2][2][4];
    int lx = get_local_id(0), ly = get_local_id(1), lz = get_local_id(2);
    int gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
    int gi = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
    tile[lz][ly][lx] = in[gi];
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = tile[lz][ly][(lx + 1) % 4] + tile[lz][(ly + 1) % 2][lx] * 10
          + tile[(lz + 1) % 2][ly][lx] * 100;
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[lz][ly][lx] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gi] = tile[1 - lz][1 - ly][3 - lx] - s + get_group_id(2) * 1000
            + get_group_id(1) * 100 + get_group_id(0) * 10;
}
