// build: -cl-std=CL2.0
// OpenCL C 2.0 kernels for crates/llvm/tests/spirv.rs (see kernels.cl):
// C11 atomics with orders and scopes, work-group functions, program-scope
// variables (read) and the generic address space.

global int total = 5;

__kernel void atomics20(__global atomic_int *a, __global int *out) {
  atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_device);
  atomic_fetch_max(a + 1, (int)get_global_id(0));
  int expected = 0;
  atomic_compare_exchange_strong(a + 2, &expected, 9);
  atomic_store(a + 3, 4);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = atomic_load(a + 3) + atomic_load(a + 2);
}

__kernel void group_functions(__global const int *in, __global int *out) {
  int x = in[get_global_id(0)];
  out[get_global_id(0)] = work_group_reduce_add(x) + work_group_scan_inclusive_add(x) * 1000 +
                          work_group_broadcast(x, 0) * 100000 + work_group_any(x > 5) +
                          work_group_all(x > 0) * 2 + work_group_reduce_max(x) * 7;
}

void bump(int *p, int by) { *p += by; }

__kernel void generic_pointers(__global int *p, __local int *l) {
  l[get_local_id(0)] = (int)get_local_id(0);
  bump(&p[get_global_id(0)], total);
  bump(&l[get_local_id(0)], 1);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  p[get_global_id(0)] += l[get_local_size(0) - 1 - get_local_id(0)] * 100;
}
