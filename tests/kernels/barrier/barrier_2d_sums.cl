// 2D work-groups (16x4): row and column sums computed by a divergent subset
// of work-items between two barriers.
__kernel void barrier_2d_sums(__global const int *in, __global int *out)
{
    __local int t[4][16];
    __local int rs[4];
    __local int cs[16];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gi = get_global_id(1) * get_global_size(0) + get_global_id(0);
    t[ly][lx] = in[gi];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lx == 0) {
        int s = 0;
        for (int k = 0; k < 16; k++)
            s += t[ly][k];
        rs[ly] = s;
    }
    if (ly == 0) {
        int s = 0;
        for (int k = 0; k < 4; k++)
            s += t[k][lx];
        cs[lx] = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[gi] = rs[ly] * 100 + cs[lx] - t[ly][lx];
}
