// Image histogram on 8x8 work-groups: 8 local bins (most pixels land in one
// bin) plus a local counter of pixels brighter than their left neighbour,
// merged into global memory.
__kernel void histogram_2d(__global const uchar *img, __global int *hist, int width)
{
    __local int bins[8];
    __local int brighter;
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = get_global_id(0), y = get_global_id(1);
    int li = ly * get_local_size(0) + lx;
    if (li < 8)
        bins[li] = 0;
    if (li == 8)
        brighter = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = img[y * width + x];
    atomic_add(&bins[v >> 5], 1);
    if (x > 0 && v > img[y * width + x - 1])
        atomic_inc(&brighter);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (li < 8)
        atomic_add(&hist[li], bins[li]);
    if (li == 8)
        atomic_add(&hist[8], brighter);
}
