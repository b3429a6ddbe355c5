// Non-uniform 2D work-groups: global 10x7 with local 4x4 gives 3x2 groups,
// the last column/row of groups are partial.  Each group sums its inputs
// through a __local buffer (passed as a kernel argument) and a barrier.
__kernel void nonuniform_2d(__global const int* in, __local int* scratch,
                            __global int* sums, __global int* sizes)
{
    int gx = (int)get_global_id(0), gy = (int)get_global_id(1);
    int lx = (int)get_local_id(0), ly = (int)get_local_id(1);
    int w = (int)get_global_size(0);
    int lw = (int)get_local_size(0), lh = (int)get_local_size(1);
    int lid = ly * lw + lx;
    scratch[lid] = in[gy * w + gx];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        int s = 0;
        for (int k = 0; k < lw * lh; k++)
            s += scratch[k];
        sums[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = s;
    }
    sizes[gy * w + gx] = lw * 10 + lh;
}
