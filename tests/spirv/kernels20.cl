// build: -cl-std=CL2.0
// OpenCL C 2.0 kernels for crates/llvm/tests/spirv.rs (see kernels.cl):
// C11 atomics with orders and scopes, work-group functions, program-scope
// variables (read), the generic address space, pipes and device-side
// enqueue.

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

// Pipes: every work-item writes a packet and, after a barrier, reads one,
// trying again while other groups write (each arrives exactly once,
// whatever the order); one group's work-group reservation, the packet
// counts, and reservations of one packet read back.
__kernel void pipe_roundtrip(write_only pipe int out, read_only pipe int in, __global int *seen) {
  int mine = (int)get_global_id(0) * 3 + 1;
  write_pipe(out, &mine);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  int v;
  while (read_pipe(in, &v) != 0) {
  }
  atomic_inc(&seen[(v - 1) / 3]);
}

__kernel void pipe_reservations(write_only pipe int out, read_only pipe int in,
                                __global int *seen, __global int *log) {
  uint lid = get_local_id(0);
  reserve_id_t w = work_group_reserve_write_pipe(out, get_local_size(0));
  if (is_valid_reserve_id(w)) {
    int mine = (int)lid * 2;
    write_pipe(out, w, lid, &mine);
    work_group_commit_write_pipe(out, w);
  }
  if (lid == 0) {
    log[0] = get_pipe_num_packets(in);
    log[1] = get_pipe_max_packets(out);
  }
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  reserve_id_t r = reserve_read_pipe(in, 1);
  int v;
  if (is_valid_reserve_id(r) && read_pipe(in, r, 0, &v) == 0) {
    commit_read_pipe(in, r);
    atomic_inc(&seen[v / 2]);
  } else {
    atomic_inc(&log[2]);
  }
}

// Device-side enqueue: per work-item, a child writing captured values,
// then (ordered by its device event) a 2-D child with a __local buffer
// and a barrier reading them.
__kernel void device_enqueue(__global int *out) {
  int g = get_global_id(0);
  queue_t q = get_default_queue();
  clk_event_t first;
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(2), 0, NULL, &first,
                 ^{ out[g * 8 + get_global_id(0)] = g * 10 + (int)get_global_id(0) + 1; });
  size_t gs[2] = {2, 2};
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_2D(gs, gs), 1, &first, NULL,
                 ^(local void *scratch) {
                   local int *t = (local int *)scratch;
                   int l = get_local_linear_id();
                   t[l] = out[g * 8] + out[g * 8 + 1] + l;
                   barrier(CLK_LOCAL_MEM_FENCE);
                   out[g * 8 + 2 + l] = t[3 - l];
                 }, 4 * sizeof(int));
  release_event(first);
}
