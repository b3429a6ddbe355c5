// Two barriers in a loop (trip count from an argument), then a divergent
// early return after the loop.
__kernel void barrier_loop_return(__global const int *in, __global int *out, int iters)
{
    __local int a[32];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int v = in[g];
    for (int it = 0; it < iters; it++) {
        a[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        int t = a[(l + it + 1) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
        v = max(v, t) - (it & 1);
    }
    if (v > 90)
        return;
    out[g] = v + l;
}
