// OpenCL 2.0+ C11-style atomics on atomic_int / atomic_uint in global and
// local memory: atomic_fetch_*_explicit with orders and scopes, the implicit
// seq_cst forms, atomic_init / atomic_load and a compare-exchange loop.
__kernel void c11_atomics(__global const int *in, __global atomic_int *gi,
                          __global atomic_uint *gu, __global int *per_group)
{
    __local atomic_int lsum;
    __local atomic_int lmax;
    int l = get_local_id(0);
    if (l == 0) {
        atomic_init(&lsum, 0);
        atomic_init(&lmax, -2147483647 - 1);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[get_global_id(0)];
    atomic_fetch_add_explicit(&gi[0], v, memory_order_relaxed, memory_scope_device);
    atomic_fetch_sub_explicit(&gi[1], v, memory_order_relaxed);
    atomic_fetch_min_explicit(&gi[2], v, memory_order_relaxed, memory_scope_device);
    atomic_fetch_max(&gi[3], v);
    int expected = atomic_load_explicit(&gi[4], memory_order_relaxed, memory_scope_device);
    while (!atomic_compare_exchange_weak_explicit(&gi[4], &expected, expected + (v & 7),
                                                  memory_order_relaxed, memory_order_relaxed,
                                                  memory_scope_device))
        ;
    atomic_fetch_or_explicit(&gu[0], 1u << (v & 31), memory_order_relaxed, memory_scope_device);
    atomic_fetch_and_explicit(&gu[1], ~(1u << ((v >> 3) & 31)), memory_order_relaxed,
                              memory_scope_device);
    atomic_fetch_xor(&gu[2], (uint)v * 40503u);
    atomic_fetch_add_explicit(&lsum, v, memory_order_relaxed, memory_scope_work_group);
    atomic_fetch_max_explicit(&lmax, v, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        per_group[2 * get_group_id(0)] =
            atomic_load_explicit(&lsum, memory_order_relaxed, memory_scope_work_group);
        per_group[2 * get_group_id(0) + 1] = atomic_load(&lmax);
    }
}
