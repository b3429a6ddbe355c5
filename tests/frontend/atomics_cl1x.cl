// Builtins: OpenCL 1.x atomics on global and local int/uint: add, sub, xchg, inc, dec, min, max, and, or, xor, cmpxchg.
kernel void atomics_cl1x(global int *g, global uint *u, local int *l) {
    size_t i = get_local_id(0);
    if (i == 0) l[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int a = atomic_add(&g[0], 1) + atomic_sub(&g[1], 2) + atomic_xchg(&g[2], (int)i);
    a += atomic_inc(&l[0]) + atomic_dec(&g[3]) + atomic_min(&g[4], a) + atomic_max(&g[5], a);
    uint b = atomic_and(&u[0], 0xf0u) | atomic_or(&u[1], 1u) | atomic_xor(&u[2], 3u) | atomic_min(&u[3], 9u);
    int c = atomic_cmpxchg(&g[6], 0, a);
    g[8 + i] = a + c + (int)b;
}
