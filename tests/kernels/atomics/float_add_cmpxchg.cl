// Float atomic add built from an atomic_cmpxchg retry loop on the value's
// bits (the first read is an atomic load too), on global
// and local memory. Inputs are multiples of 0.25, so every partial sum is
// exact and the totals do not depend on the order of the additions.
void atomic_add_f_global(volatile __global float *p, float v)
{
    volatile __global uint *u = (volatile __global uint *)p;
    uint old = atomic_or(u, 0u);            /* atomic load */
    while (1) {
        uint prev = atomic_cmpxchg(u, old, as_uint(as_float(old) + v));
        if (prev == old)
            break;
        old = prev;
    }
}

void atomic_add_f_local(volatile __local float *p, float v)
{
    volatile __local uint *u = (volatile __local uint *)p;
    uint old = atomic_or(u, 0u);            /* atomic load */
    while (1) {
        uint prev = atomic_cmpxchg(u, old, as_uint(as_float(old) + v));
        if (prev == old)
            break;
        old = prev;
    }
}

__kernel void float_add_cmpxchg(__global const float *in, __global float *gsum,
                                __global float *lsum)
{
    __local float acc;
    int l = get_local_id(0);
    if (l == 0)
        acc = 0.5f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = in[get_global_id(0)];
    atomic_add_f_local(&acc, v);
    atomic_add_f_global(&gsum[get_global_id(0) % 4], v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        lsum[get_group_id(0)] = acc;
}
