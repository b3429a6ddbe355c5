// Signed atomic max and min implemented with atomic_cmpxchg retry loops
// (global and local), next to the built-in atomic_max for comparison.
int atomic_max_cas_global(volatile __global int *p, int v)
{
    int old = atomic_or(p, 0);      /* atomic load */
    while (old < v) {
        int prev = atomic_cmpxchg(p, old, v);
        if (prev == old)
            break;
        old = prev;
    }
    return old;
}

int atomic_min_cas_global(volatile __global int *p, int v)
{
    int old = atomic_or(p, 0);      /* atomic load */
    while (old > v) {
        int prev = atomic_cmpxchg(p, old, v);
        if (prev == old)
            break;
        old = prev;
    }
    return old;
}

int atomic_max_cas_local(volatile __local int *p, int v)
{
    int old = atomic_or(p, 0);      /* atomic load */
    while (old < v) {
        int prev = atomic_cmpxchg(p, old, v);
        if (prev == old)
            break;
        old = prev;
    }
    return old;
}

__kernel void atomic_max_cmpxchg(__global const int *in, __global int *gres,
                                 __global int *group_max)
{
    __local int lmax;
    int l = get_local_id(0);
    if (l == 0)
        lmax = -2147483647 - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[get_global_id(0)];
    atomic_max_cas_global(&gres[0], v);
    atomic_min_cas_global(&gres[1], v);
    atomic_max(&gres[2], v);
    atomic_max_cas_local(&lmax, v % 1000);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        group_max[get_group_id(0)] = lmax;
}
