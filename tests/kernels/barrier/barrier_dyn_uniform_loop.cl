// Odd-even transposition sort until nothing changes: the loop condition is
// read from local memory, so it is uniform only at run time (not provably),
// and the loop holds three barriers. Swaps are counted with a local atomic.
__kernel void barrier_dyn_uniform_loop(__global const int *in, __global int *out,
                                       __global int *rounds)
{
    __local int a[16];
    __local int changed;
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    a[l] = in[g];
    int done = 0;
    int again;
    do {
        if (l == 0)
            changed = 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int p = 0; p < 2; p++) {
            if ((l & 1) == p && l + 1 < n) {
                int x = a[l], y = a[l + 1];
                if (x > y) {
                    a[l] = y;
                    a[l + 1] = x;
                    atomic_inc(&changed);
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        again = changed;
        done++;
        barrier(CLK_LOCAL_MEM_FENCE);
    } while (again);
    out[g] = a[l];
    if (l == 0)
        rounds[get_group_id(0)] = done;
}
