// subgroups.cl - the subgroup functions that are not core: written with
// the core ones the importer maps to Lockstep IR (get_sub_group_local_id
// and the other queries, sub_group_shuffle, sub_group_broadcast,
// sub_group_non_uniform_broadcast, sub_group_ballot, sub_group_all/any
// and their non_uniform forms), so that they too become gang operations.
//
// A subgroup is one gang of at most 32 lanes: a ballot's bits are all in
// its first component.
//
//   cl_khr_subgroup_shuffle:          sub_group_shuffle_xor
//   cl_khr_subgroup_shuffle_relative: sub_group_shuffle_up, _down
//   cl_khr_subgroup_rotate:           sub_group_rotate,
//     sub_group_clustered_rotate
//   cl_khr_subgroup_ballot:           sub_group_inverse_ballot,
//     sub_group_ballot_bit_extract, _bit_count, _inclusive_scan,
//     _exclusive_scan, _find_lsb, _find_msb, get_sub_group_*_mask,
//     sub_group_broadcast_first
//   cl_khr_subgroup_non_uniform_vote: sub_group_elect,
//     sub_group_non_uniform_all_equal
//   cl_intel_subgroups: intel_sub_group_shuffle, _xor, _down, _up (scalars
//     and vectors), intel_sub_group_block_read/write{,2,4,8} of uints

#include "lockstep_internal.h"

// The scalar types of the khr functions (half too, for kernels that enable
// cl_khr_fp16 where a device offers it).
#define LS_SG_FOR_TYPES(M) \
  M(char) M(uchar) M(short) M(ushort) M(int) M(uint) M(long) M(ulong) M(float) M(double) M(half)

LS_HELPER uint ls_sg_lid(void) { return get_sub_group_local_id(); }

// The bits of the lanes of this subgroup.
LS_HELPER uint ls_sg_lanes(void) {
  uint n = get_sub_group_size();
  return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

// ---------------------------------------------------------------------------
// Shuffles
// ---------------------------------------------------------------------------

#define LS_SG_SHUFFLES(T) \
  LS_OVLD T sub_group_shuffle_xor(T x, uint mask) { return sub_group_shuffle(x, ls_sg_lid() ^ mask); } \
  LS_OVLD T sub_group_shuffle_up(T x, uint delta) { return sub_group_shuffle(x, ls_sg_lid() - delta); } \
  LS_OVLD T sub_group_shuffle_down(T x, uint delta) { return sub_group_shuffle(x, ls_sg_lid() + delta); }
LS_SG_FOR_TYPES(LS_SG_SHUFFLES)

// Rotations: the value of the work-item `delta` places further, around the
// subgroup (of the largest size) or around each cluster of `clustersize`
// work-items (a power of two); `delta` may be negative.
LS_HELPER uint ls_sg_rotated(uint lid, int delta, uint n) {
  int d = delta % (int)n; // in (-n, n)
  return (lid + (uint)(d + (int)n)) % n;
}

#define LS_SG_ROTATES(T) \
  LS_OVLD T sub_group_rotate(T x, int delta) { \
    return sub_group_shuffle(x, ls_sg_rotated(ls_sg_lid(), delta, get_max_sub_group_size())); \
  } \
  LS_OVLD T sub_group_clustered_rotate(T x, int delta, uint clustersize) { \
    uint lid = ls_sg_lid(); \
    return sub_group_shuffle(x, (lid & ~(clustersize - 1u)) + ls_sg_rotated(lid, delta, clustersize)); \
  }
LS_SG_FOR_TYPES(LS_SG_ROTATES)

// ---------------------------------------------------------------------------
// Ballot
// ---------------------------------------------------------------------------

LS_OVLD int sub_group_inverse_ballot(uint4 value) { return (value.x >> ls_sg_lid()) & 1u; }

LS_OVLD int sub_group_ballot_bit_extract(uint4 value, uint index) {
  return index < 32u ? (value.x >> index) & 1u : 0;
}

LS_OVLD uint sub_group_ballot_bit_count(uint4 value) { return popcount(value.x & ls_sg_lanes()); }

LS_OVLD uint sub_group_ballot_inclusive_scan(uint4 value) {
  uint lid = ls_sg_lid();
  uint le = lid >= 31u ? 0xffffffffu : (2u << lid) - 1u;
  return popcount(value.x & le);
}

LS_OVLD uint sub_group_ballot_exclusive_scan(uint4 value) {
  return popcount(value.x & ((1u << ls_sg_lid()) - 1u));
}

// The bits of a subgroup of the largest size: find_lsb/find_msb consider
// bits 0 to get_max_sub_group_size() - 1, also in a partial last subgroup
// (as the Khronos CTS checks them).
LS_HELPER uint ls_sg_max_lanes(void) {
  uint n = get_max_sub_group_size();
  return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

LS_OVLD uint sub_group_ballot_find_lsb(uint4 value) { return ctz(value.x & ls_sg_max_lanes()); }

LS_OVLD uint sub_group_ballot_find_msb(uint4 value) { return 31u - clz(value.x & ls_sg_max_lanes()); }

LS_OVLD uint4 get_sub_group_eq_mask(void) { return (uint4)(1u << ls_sg_lid(), 0, 0, 0); }
LS_OVLD uint4 get_sub_group_lt_mask(void) { return (uint4)((1u << ls_sg_lid()) - 1u, 0, 0, 0); }
LS_OVLD uint4 get_sub_group_le_mask(void) {
  return (uint4)(((1u << ls_sg_lid()) - 1u) | (1u << ls_sg_lid()), 0, 0, 0);
}
LS_OVLD uint4 get_sub_group_ge_mask(void) {
  return (uint4)(~((1u << ls_sg_lid()) - 1u) & ls_sg_lanes(), 0, 0, 0);
}
LS_OVLD uint4 get_sub_group_gt_mask(void) {
  return (uint4)(~(((1u << ls_sg_lid()) - 1u) | (1u << ls_sg_lid())) & ls_sg_lanes(), 0, 0, 0);
}

// The lowest work-item that takes part.
LS_HELPER uint ls_sg_first(void) { return ctz(sub_group_ballot(1).x); }

#define LS_SG_FIRST(T) \
  LS_OVLD T sub_group_broadcast_first(T x) { return sub_group_non_uniform_broadcast(x, ls_sg_first()); }
LS_SG_FOR_TYPES(LS_SG_FIRST)

// ---------------------------------------------------------------------------
// Vote
// ---------------------------------------------------------------------------

LS_OVLD int sub_group_elect(void) { return ls_sg_lid() == ls_sg_first(); }

#define LS_SG_ALL_EQUAL(T) \
  LS_OVLD int sub_group_non_uniform_all_equal(T x) { \
    return sub_group_non_uniform_all(x == sub_group_broadcast_first(x)); \
  }
LS_SG_FOR_TYPES(LS_SG_ALL_EQUAL)

// ---------------------------------------------------------------------------
// cl_intel_subgroups: a subgroup's size here is get_max_sub_group_size()
// ---------------------------------------------------------------------------

#define LS_ISG_SCALAR(T) \
  LS_OVLD T intel_sub_group_shuffle(T x, uint c) { return sub_group_shuffle(x, c); } \
  LS_OVLD T intel_sub_group_shuffle_xor(T x, uint c) { return sub_group_shuffle(x, ls_sg_lid() ^ c); } \
  LS_OVLD T intel_sub_group_shuffle_down(T cur, T next, uint delta) { \
    uint w = get_max_sub_group_size(); \
    uint j = ls_sg_lid() + delta; \
    T a = sub_group_shuffle(cur, j); \
    T b = sub_group_shuffle(next, j - w); \
    return j < w ? a : b; \
  } \
  LS_OVLD T intel_sub_group_shuffle_up(T prev, T cur, uint delta) { \
    uint w = get_max_sub_group_size(); \
    uint lid = ls_sg_lid(); \
    T a = sub_group_shuffle(cur, lid - delta); \
    T b = sub_group_shuffle(prev, lid + w - delta); \
    return lid >= delta ? a : b; \
  }
#define LS_ISG_VECTOR(T) \
  LS_ISG_SCALAR(T) \
  LS_GEN2(T, intel_sub_group_shuffle, V, T, S, uint) \
  LS_GEN2(T, intel_sub_group_shuffle_xor, V, T, S, uint) \
  LS_GEN3(T, intel_sub_group_shuffle_down, V, T, V, T, S, uint) \
  LS_GEN3(T, intel_sub_group_shuffle_up, V, T, V, T, S, uint)

LS_ISG_VECTOR(float)
LS_ISG_VECTOR(int)
LS_ISG_VECTOR(uint)
LS_ISG_SCALAR(long)
LS_ISG_SCALAR(ulong)
LS_ISG_SCALAR(double)

LS_OVLD uint intel_sub_group_block_read(const __global uint *p) { return p[ls_sg_lid()]; }
LS_OVLD uint2 intel_sub_group_block_read2(const __global uint *p) {
  uint w = get_max_sub_group_size(), l = ls_sg_lid();
  return (uint2)(p[l], p[l + w]);
}
LS_OVLD uint4 intel_sub_group_block_read4(const __global uint *p) {
  uint w = get_max_sub_group_size(), l = ls_sg_lid();
  return (uint4)(p[l], p[l + w], p[l + 2 * w], p[l + 3 * w]);
}
LS_OVLD uint8 intel_sub_group_block_read8(const __global uint *p) {
  return (uint8)(intel_sub_group_block_read4(p), intel_sub_group_block_read4(p + 4 * get_max_sub_group_size()));
}
LS_OVLD void intel_sub_group_block_write(__global uint *p, uint x) { p[ls_sg_lid()] = x; }
LS_OVLD void intel_sub_group_block_write2(__global uint *p, uint2 x) {
  uint w = get_max_sub_group_size(), l = ls_sg_lid();
  p[l] = x.s0;
  p[l + w] = x.s1;
}
LS_OVLD void intel_sub_group_block_write4(__global uint *p, uint4 x) {
  uint w = get_max_sub_group_size();
  intel_sub_group_block_write2(p, x.lo);
  intel_sub_group_block_write2(p + 2 * w, x.hi);
}
LS_OVLD void intel_sub_group_block_write8(__global uint *p, uint8 x) {
  uint w = get_max_sub_group_size();
  intel_sub_group_block_write4(p, x.lo);
  intel_sub_group_block_write4(p + 4 * w, x.hi);
}
