// Local atomic_dec / atomic_sub on counters under two divergent conditions,
// with a private loop deciding how many decrements each work-item does;
// local size 24.
__kernel void atomic_dec_local(__global const int *in, __global int *left)
{
    __local int budget;
    __local int drained;
    int l = get_local_id(0);
    if (l == 0) {
        budget = 500;
        drained = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[get_global_id(0)];
    for (int k = 0; k < (v & 3); k++)
        atomic_dec(&budget);
    if (v > 50)
        atomic_sub(&drained, v - 50);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        left[2 * get_group_id(0)] = budget;
        left[2 * get_group_id(0) + 1] = drained;
    }
}
