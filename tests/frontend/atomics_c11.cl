// Builtins: C11 atomics with explicit orders and scopes, load/store, compare_exchange_strong, atomic_flag.
kernel void atomics_c11(global atomic_int *a, global atomic_uint *u, local atomic_int *la, global atomic_flag *f) {
    if (get_local_id(0) == 0)
        atomic_init(&la[0], 0);
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
    int x = atomic_fetch_add_explicit(&a[0], 1, memory_order_relaxed, memory_scope_device);
    x += atomic_fetch_sub_explicit(&la[0], 2, memory_order_acq_rel, memory_scope_work_group);
    uint y = atomic_fetch_or_explicit(&u[0], 4u, memory_order_seq_cst, memory_scope_all_svm_devices);
    x += atomic_fetch_max(&a[1], x);
    int expected = 0;
    atomic_compare_exchange_strong_explicit(&a[2], &expected, x, memory_order_acquire,
                                            memory_order_relaxed, memory_scope_device);
    atomic_store_explicit(&a[3], expected + (int)y, memory_order_release);
    if (!atomic_flag_test_and_set(&f[0]))
        atomic_flag_clear(&f[0]);
    x += atomic_load_explicit(&la[0], memory_order_acquire, memory_scope_work_group);
    atomic_exchange(&a[4], x);
}
