// build: -cl-std=CL2.0
// spirv: --spirv-max-version=1.3 --spirv-ext=+SPV_KHR_subgroup_rotate,+SPV_KHR_bit_instructions,+SPV_KHR_integer_dot_product
// SPIR-V 1.3 kernels for crates/llvm/tests/spirv.rs (see kernels.cl): the
// cl_khr_subgroup_* functions, which the translator writes as SPIR-V 1.3's
// GroupNonUniform instructions (and SPV_KHR_subgroup_rotate's), a required
// subgroup size (the SubgroupSize execution mode), extended bit operations
// (SPV_KHR_bit_instructions) and integer dot products
// (SPV_KHR_integer_dot_product), and 64-bit atomics.

__kernel void vote_and_ballot(__global const int *in, __global uint *out) {
  size_t g = get_global_id(0);
  int x = in[g];
  uint r = 0;
  if (x > 0) {
    // Non-uniform: only the lanes with x > 0 take part.
    uint4 b = sub_group_ballot(x > 5);
    r = sub_group_ballot_bit_count(b) + 100 * sub_group_ballot_inclusive_scan(b) +
        10000 * sub_group_ballot_find_lsb(b) + 1000000 * sub_group_elect() +
        10000000 * sub_group_non_uniform_all(x > 2) +
        20000000 * sub_group_non_uniform_any(x > 15) +
        40000000 * sub_group_ballot_bit_extract(b, 3);
  }
  out[g] = r + (uint)sub_group_non_uniform_all_equal(x / 100) * 80000000u +
           (uint)sub_group_inverse_ballot((uint4)(0x5555u, 0, 0, 0)) * 160000000u +
           (uint)sub_group_non_uniform_broadcast(x, 1) * 7u +
           (uint)sub_group_broadcast_first(x) * 13u;
}

__kernel void arithmetic(__global const int *in, __global int *out) {
  size_t g = get_global_id(0);
  int x = in[g];
  int r = sub_group_non_uniform_reduce_add(x) + sub_group_non_uniform_scan_inclusive_max(x) * 3;
  if (x & 1) {
    r += 1000 * sub_group_non_uniform_reduce_min(x) + 50 * sub_group_non_uniform_scan_exclusive_add(x) +
         7 * sub_group_non_uniform_reduce_logical_or(x > 10) +
         11 * sub_group_non_uniform_reduce_xor(x);
  }
  r += 100000 * sub_group_clustered_reduce_add(x, 4) + 13 * sub_group_clustered_reduce_max(x, 2);
  out[g] = r;
}

__kernel void unsigned_and_float(__global const uint *in, __global float *out) {
  size_t g = get_global_id(0);
  uint u = in[g];
  float f = (float)u * 0.5f;
  out[g] = (float)sub_group_non_uniform_reduce_max(u) + sub_group_non_uniform_scan_inclusive_add(f) +
           sub_group_non_uniform_reduce_mul(f * 0.001f + 1.0f) +
           (float)sub_group_non_uniform_reduce_min(u >> 2) * 3.0f;
}

__kernel void shuffles(__global const int *in, __global int *out) {
  size_t g = get_global_id(0);
  int x = in[g];
  uint l = get_sub_group_local_id();
  out[g] = sub_group_shuffle(x, (l * 5 + 1) % get_sub_group_size()) +
           3 * sub_group_shuffle_xor(x, 3) + 5 * sub_group_shuffle_up(x, 1) +
           7 * sub_group_shuffle_down(x, 2) + 11 * sub_group_rotate(x, 3) +
           13 * sub_group_clustered_rotate(x, 1, 4);
}

__attribute__((intel_reqd_sub_group_size(8)))
__kernel void required_size(__global int *out) {
  size_t g = get_global_id(0);
  out[g] = (int)get_sub_group_size() * 100 + sub_group_reduce_add((int)get_sub_group_local_id());
}

__kernel void bits_and_dots(__global const uint *in, __global int *out) {
  size_t g = get_global_id(0);
  uint a = in[g], b = in[(g + 7) % get_global_size(0)];
  uchar4 ua = as_uchar4(a), ub = as_uchar4(b);
  char4 sa = as_char4(a);
  out[4 * g] = (int)bitfield_insert(a, b, 5, 9) ^ bitfield_extract_signed((int)a, 3, 11);
  out[4 * g + 1] = (int)(bitfield_extract_unsigned(a, 7, 13) + bit_reverse(b));
  out[4 * g + 2] = (int)dot(ua, ub) + dot(sa, ub);
  out[4 * g + 3] = dot_acc_sat(sa, as_char4(b), 2147483000) + (int)dot_4x8packed_uu_uint(a, b) +
                   dot_4x8packed_ss_int(a, b);
}

// 64-bit atomics (Int64Atomics): cl_khr_int64_*_atomics and C11 atomics.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atomics64(__global long *c, __global atomic_long *a) {
  long g = (long)get_global_id(0);
  atom_add(&c[0], g << 33);
  atom_max(&c[1], g * -3 + 40);
  atom_xor(&c[2], g << 35);
  atomic_fetch_add_explicit(&a[0], 1L << 40, memory_order_relaxed, memory_scope_device);
  atomic_fetch_min(&a[1], -(g << 34));
}
