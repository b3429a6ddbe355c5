// pipes.cl - OpenCL C 2.0 pipes (section 6.13.16): read_pipe and
// write_pipe with and without reservations, reserve and commit for
// work-items, work-groups and subgroups, is_valid_reserve_id,
// get_pipe_num_packets and get_pipe_max_packets.
//
// clang lowers the pipe builtins to calls of the functions defined here,
// under C names: __read_pipe_2(pipe, ptr, size, align),
// __read_pipe_4(pipe, reserve_id, index, ptr, size, align),
// __reserve_read_pipe(pipe, num_packets, size, align),
// __commit_read_pipe(pipe, reserve_id, size, align), their work_group_ and
// sub_group_ forms, the write_ counterparts, and
// __get_pipe_{num,max}_packets_{ro,wo}(pipe, size, align); `size` and
// `align` are the packet type's. A pipe, as the importer hands it to this
// library, is a __global pointer (__lockstep_pipe_ro/_wo, identities the
// importer resolves) to storage the runtime lays out (lockstep-runtime's
// `pipe` module, which must agree with the LS_PIPE_* constants below):
//
//   ulong header[8]   packet size, capacity (max packets), byte offset of
//                     the packets, byte offset of the reservation lengths,
//                     write position, read position, 0, 0
//   ulong seq[cap]    one sequence word per slot, from byte 64
//   uint  len[cap]    the length of the reservation that starts at a slot
//   packets           cap slots of `packet size` bytes, 128-byte aligned
//
// A position counts the packets reserved at one end since the pipe was
// made. It is kept as (lap << 32) | slot, slot < cap: advancing one wraps
// the slot into the next lap with a compare, not a division, and the
// encoding orders positions as their counts do. The write position is
// where the next write reservation starts, the read position where the
// next read reservation starts. A slot's sequence word says what the slot
// holds (a bounded ring in the manner of Vyukov's MPMC queue, extended to
// reservations of several slots):
//
//   2q       free for the writer of position q (also while that writer
//            holds its reservation)
//   2q + 1   the packet written at position q, committed
//
// Slot s starts at 2s (lap 0). Committing a write at q stores 2q + 1;
// committing a read at q stores 2q', q' the same slot's position in the
// next lap, which frees the slot for it. Sequence words only grow.
//
// Reserving n packets (1 <= n <= cap) for writing at write position q
// needs slots q .. q+n-1 to say 2(q+k) (for reading: 2(q+k) + 1); then a
// compare-exchange moves the position from q to q + n, and the slots are
// the reserver's until it commits them. A slot that says less is still
// full of an unread packet (for reading: not written or not committed
// yet): the pipe has no room (no packets) there and the reservation fails
// at once, as the spec's non-blocking functions do. A slot that says more
// was reserved and committed by someone who moved the position first: the
// reservation starts again from the new position. So reservations take
// contiguous slots, a read reservation succeeds only when its n packets
// are committed, and packets are read in the order of their positions,
// whatever order their writers commit in. Nobody waits for anybody: a
// failed compare-exchange means another work-item succeeded, so the
// retries of a gang's lanes (one locked instruction per lane in the SIMD
// engine) end after at most one round per lane, and work-items that run
// one after another (the interpreter) never retry.
//
// A reservation id is its start position plus 1, so that 0 (a zeroed
// reserve_id_t) and all ones (CLK_NULL_RESERVE_ID, a lap no pipe reaches)
// are never valid; the
// reservation's length is kept in len[] at its first slot, which belongs
// to the reserver until it commits (the committer reads it before
// releasing any slot). A work-group (subgroup) reservation is made by the
// work-item with local linear id 0 (subgroup local id 0) and broadcast to
// the group with work_group_broadcast (sub_group_broadcast); its commit is
// a barrier of the group, so that every work-item's packets are written
// or read, and then that work-item commits.
//
// Packets are copied in units as wide as the packet type's alignment, its
// size and 8 bytes allow; the packet slots are aligned to the largest
// power of two dividing the pipe's packet size (up to 128). A kernel
// whose packet type is not the pipe's packet size copies the bytes both
// have, one at a time.

#include "lockstep_internal.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define LS_PIPE_PACKET_SIZE 0
#define LS_PIPE_CAPACITY 1
#define LS_PIPE_PACKETS 2
#define LS_PIPE_LENGTHS 3
#define LS_PIPE_WRITE_POS 4
#define LS_PIPE_READ_POS 5
#define LS_PIPE_HEADER_WORDS 8

// What a sequence word adds to 2q for the end that reserves.
#define LS_PIPE_FOR_WRITE 0
#define LS_PIPE_FOR_READ 1

// A failed reservation's position.
#define LS_PIPE_NONE 0xffffffffffffffffUL

#define LS_PIPE_ORDER memory_order_acquire
#define LS_PIPE_SCOPE memory_scope_device

typedef __global ulong *ls_pipe;

__global ulong *__lockstep_pipe_ro(read_only pipe char p);
__global ulong *__lockstep_pipe_wo(write_only pipe char p);
ulong __lockstep_reserve_id_bits(reserve_id_t id);
reserve_id_t __lockstep_reserve_id(ulong bits);

LS_HELPER ulong ls_pipe_cap(ls_pipe p) { return p[LS_PIPE_CAPACITY]; }

LS_HELPER __global atomic_ulong *ls_pipe_atomic(ls_pipe p, uint word) {
  return (__global atomic_ulong *)(p + word);
}

LS_HELPER __global atomic_ulong *ls_pipe_seq(ls_pipe p, uint slot) {
  return (__global atomic_ulong *)(p + LS_PIPE_HEADER_WORDS + slot);
}

LS_HELPER __global uint *ls_pipe_len(ls_pipe p, uint slot) {
  return (__global uint *)((__global uchar *)p + p[LS_PIPE_LENGTHS]) + slot;
}

LS_HELPER __global uchar *ls_pipe_packet(ls_pipe p, uint slot) {
  return (__global uchar *)p + p[LS_PIPE_PACKETS] + (ulong)slot * p[LS_PIPE_PACKET_SIZE];
}

// A position's slot.
LS_HELPER uint ls_slot(ulong q) { return (uint)q; }

// Position q + n, for n <= cap.
LS_HELPER ulong ls_advance(ulong q, ulong n, ulong cap) {
  ulong slot = (q & 0xffffffffUL) + n;
  ulong lap = q >> 32;
  if (slot >= cap) {
    slot -= cap;
    lap += 1;
  }
  return lap << 32 | slot;
}

// The same slot's position in the next lap.
LS_HELPER ulong ls_next_lap(ulong q) { return q + (1UL << 32); }

// Reserves `n` packets at the write or read position (`end`: LS_PIPE_FOR_*);
// the first position, or LS_PIPE_NONE.
LS_HELPER ulong ls_pipe_reserve(ls_pipe p, uint n, uint end) {
  ulong cap = ls_pipe_cap(p);
  if (n == 0 || n > cap) return LS_PIPE_NONE;
  __global atomic_ulong *pos =
      ls_pipe_atomic(p, end == LS_PIPE_FOR_WRITE ? LS_PIPE_WRITE_POS : LS_PIPE_READ_POS);
  ulong q = __opencl_atomic_load(pos, memory_order_relaxed, LS_PIPE_SCOPE);
  for (;;) {
    // How far the first slot that is not ready is ahead of (> 0) or
    // behind (< 0) what the reservation needs; 0 when all are ready.
    long ahead = 0;
    ulong at = q;
    for (uint k = 0; k < n && ahead == 0; k++) {
      ulong seq = __opencl_atomic_load(ls_pipe_seq(p, ls_slot(at)), LS_PIPE_ORDER, LS_PIPE_SCOPE);
      ahead = (long)(seq - (2 * at + end));
      at = ls_advance(at, 1, cap);
    }
    if (ahead < 0) return LS_PIPE_NONE;
    if (ahead > 0) {
      q = __opencl_atomic_load(pos, memory_order_relaxed, LS_PIPE_SCOPE);
    } else if (__opencl_atomic_compare_exchange_strong(pos, &q, ls_advance(q, n, cap),
                                                       memory_order_acq_rel, memory_order_relaxed,
                                                       LS_PIPE_SCOPE)) {
      *ls_pipe_len(p, ls_slot(q)) = n;
      return q;
    }
  }
}

// Releases the reservation starting at `q`: its packets become readable
// (`end` LS_PIPE_FOR_WRITE) or their slots writable again.
LS_HELPER void ls_pipe_commit(ls_pipe p, ulong q, uint end) {
  ulong cap = ls_pipe_cap(p);
  uint n = *ls_pipe_len(p, ls_slot(q));
  for (uint k = 0; k < n; k++) {
    ulong seq = end == LS_PIPE_FOR_WRITE ? 2 * q + 1 : 2 * ls_next_lap(q);
    __opencl_atomic_store(ls_pipe_seq(p, ls_slot(q)), seq, memory_order_release, LS_PIPE_SCOPE);
    q = ls_advance(q, 1, cap);
  }
}

// Copies `size` bytes in units of `unit` (1, 2, 4 or 8, dividing both
// addresses and `size`).
LS_HELPER void ls_pipe_copy(uchar *dst, const uchar *src, uint size, uint unit) {
  if (unit == 8) {
    for (uint i = 0; i < size / 8; i++) ((ulong *)dst)[i] = ((const ulong *)src)[i];
  } else if (unit == 4) {
    for (uint i = 0; i < size / 4; i++) ((uint *)dst)[i] = ((const uint *)src)[i];
  } else if (unit == 2) {
    for (uint i = 0; i < size / 2; i++) ((ushort *)dst)[i] = ((const ushort *)src)[i];
  } else {
    for (uint i = 0; i < size; i++) dst[i] = src[i];
  }
}

// Copies a packet of the kernel's type (`size` bytes, aligned to `align`)
// between `ptr` and the slot at position `q`. When the pipe's packets are
// that size (as they should be), the slot is aligned to the largest power
// of two dividing it: the copy's units are known when the kernel is
// compiled, so a scalar or vector packet is one load and one store.
// Otherwise only the bytes both have are copied, one at a time.
LS_HELPER void ls_pipe_transfer(ls_pipe p, ulong q, uchar *ptr, uint size, uint align,
                                bool to_pipe) {
  ulong packet_size = p[LS_PIPE_PACKET_SIZE];
  uchar *slot = ls_pipe_packet(p, ls_slot(q));
  uchar *dst = to_pipe ? slot : ptr;
  const uchar *src = to_pipe ? ptr : slot;
  if (packet_size == size) {
    uint unit = align < 8 ? align : 8;
    uint size_align = size & (~size + 1);
    ls_pipe_copy(dst, src, size, unit < size_align ? unit : size_align);
  } else {
    ls_pipe_copy(dst, src, size < packet_size ? size : (uint)packet_size, 1);
  }
}

LS_HELPER bool ls_reserve_id_valid(ulong id) { return id != 0 && id != ~0UL; }

LS_HELPER reserve_id_t ls_reserve_id(ulong q) {
  return __lockstep_reserve_id(q == LS_PIPE_NONE ? 0 : q + 1);
}

// The packet at `index` of reservation `id`: 0 after copying it, -1 for
// an invalid reservation or an index outside it.
LS_HELPER int ls_pipe_reserved(ls_pipe p, reserve_id_t id, uint index, uchar *ptr, uint size,
                               uint align, bool to_pipe) {
  ulong bits = __lockstep_reserve_id_bits(id);
  if (!ls_reserve_id_valid(bits)) return -1;
  ulong q = bits - 1;
  if (index >= *ls_pipe_len(p, ls_slot(q))) return -1;
  ls_pipe_transfer(p, ls_advance(q, index, ls_pipe_cap(p)), ptr, size, align, to_pipe);
  return 0;
}

// One packet with a reservation of its own: 0, or -1 when the pipe is
// empty (full).
LS_HELPER int ls_pipe_one(ls_pipe p, uchar *ptr, uint size, uint align, uint end) {
  ulong q = ls_pipe_reserve(p, 1, end);
  if (q == LS_PIPE_NONE) return -1;
  ls_pipe_transfer(p, q, ptr, size, align, end == LS_PIPE_FOR_WRITE);
  ls_pipe_commit(p, q, end);
  return 0;
}

LS_HELPER void ls_pipe_commit_id(ls_pipe p, reserve_id_t id, uint end) {
  ulong bits = __lockstep_reserve_id_bits(id);
  if (ls_reserve_id_valid(bits)) ls_pipe_commit(p, bits - 1, end);
}

LS_HELPER reserve_id_t ls_work_group_reserve(ls_pipe p, uint n, uint end) {
  ulong q = 0;
  if (get_local_linear_id() == 0) q = ls_pipe_reserve(p, n, end);
  return ls_reserve_id(work_group_broadcast(q, (size_t)0));
}

LS_HELPER void ls_work_group_commit(ls_pipe p, reserve_id_t id, uint end) {
  work_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_linear_id() == 0) ls_pipe_commit_id(p, id, end);
}

LS_HELPER reserve_id_t ls_sub_group_reserve(ls_pipe p, uint n, uint end) {
  ulong q = 0;
  if (get_sub_group_local_id() == 0) q = ls_pipe_reserve(p, n, end);
  return ls_reserve_id(sub_group_broadcast(q, 0u));
}

LS_HELPER void ls_sub_group_commit(ls_pipe p, reserve_id_t id, uint end) {
  sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_sub_group_local_id() == 0) ls_pipe_commit_id(p, id, end);
}

// The packets a position (lap, slot) is from the start.
LS_HELPER ulong ls_count(ulong q, ulong cap) { return (q >> 32) * cap + ls_slot(q); }

LS_HELPER uint ls_pipe_num_packets(ls_pipe p) {
  // The read position first: it never passes the write position, so the
  // difference is never negative; at most the capacity.
  ulong cap = ls_pipe_cap(p);
  ulong r = __opencl_atomic_load(ls_pipe_atomic(p, LS_PIPE_READ_POS), memory_order_acquire,
                                 LS_PIPE_SCOPE);
  ulong w = __opencl_atomic_load(ls_pipe_atomic(p, LS_PIPE_WRITE_POS), memory_order_acquire,
                                 LS_PIPE_SCOPE);
  ulong n = ls_count(w, cap) - ls_count(r, cap);
  return (uint)(n < cap ? n : cap);
}

// ---------------------------------------------------------------------------
// What clang calls
// ---------------------------------------------------------------------------

#define LS_RO(p) __lockstep_pipe_ro(p)
#define LS_WO(p) __lockstep_pipe_wo(p)

int __read_pipe_2(read_only pipe char p, void *ptr, uint size, uint align) {
  return ls_pipe_one(LS_RO(p), (uchar *)ptr, size, align, LS_PIPE_FOR_READ);
}

int __write_pipe_2(write_only pipe char p, const void *ptr, uint size, uint align) {
  return ls_pipe_one(LS_WO(p), (uchar *)ptr, size, align, LS_PIPE_FOR_WRITE);
}

int __read_pipe_4(read_only pipe char p, reserve_id_t id, uint index, void *ptr, uint size,
                  uint align) {
  return ls_pipe_reserved(LS_RO(p), id, index, (uchar *)ptr, size, align, false);
}

int __write_pipe_4(write_only pipe char p, reserve_id_t id, uint index, const void *ptr,
                   uint size, uint align) {
  return ls_pipe_reserved(LS_WO(p), id, index, (uchar *)ptr, size, align, true);
}

reserve_id_t __reserve_read_pipe(read_only pipe char p, uint n, uint size, uint align) {
  return ls_reserve_id(ls_pipe_reserve(LS_RO(p), n, LS_PIPE_FOR_READ));
}

reserve_id_t __reserve_write_pipe(write_only pipe char p, uint n, uint size, uint align) {
  return ls_reserve_id(ls_pipe_reserve(LS_WO(p), n, LS_PIPE_FOR_WRITE));
}

void __commit_read_pipe(read_only pipe char p, reserve_id_t id, uint size, uint align) {
  ls_pipe_commit_id(LS_RO(p), id, LS_PIPE_FOR_READ);
}

void __commit_write_pipe(write_only pipe char p, reserve_id_t id, uint size, uint align) {
  ls_pipe_commit_id(LS_WO(p), id, LS_PIPE_FOR_WRITE);
}

reserve_id_t __work_group_reserve_read_pipe(read_only pipe char p, uint n, uint size,
                                            uint align) {
  return ls_work_group_reserve(LS_RO(p), n, LS_PIPE_FOR_READ);
}

reserve_id_t __work_group_reserve_write_pipe(write_only pipe char p, uint n, uint size,
                                             uint align) {
  return ls_work_group_reserve(LS_WO(p), n, LS_PIPE_FOR_WRITE);
}

void __work_group_commit_read_pipe(read_only pipe char p, reserve_id_t id, uint size,
                                   uint align) {
  ls_work_group_commit(LS_RO(p), id, LS_PIPE_FOR_READ);
}

void __work_group_commit_write_pipe(write_only pipe char p, reserve_id_t id, uint size,
                                    uint align) {
  ls_work_group_commit(LS_WO(p), id, LS_PIPE_FOR_WRITE);
}

reserve_id_t __sub_group_reserve_read_pipe(read_only pipe char p, uint n, uint size,
                                           uint align) {
  return ls_sub_group_reserve(LS_RO(p), n, LS_PIPE_FOR_READ);
}

reserve_id_t __sub_group_reserve_write_pipe(write_only pipe char p, uint n, uint size,
                                            uint align) {
  return ls_sub_group_reserve(LS_WO(p), n, LS_PIPE_FOR_WRITE);
}

void __sub_group_commit_read_pipe(read_only pipe char p, reserve_id_t id, uint size,
                                  uint align) {
  ls_sub_group_commit(LS_RO(p), id, LS_PIPE_FOR_READ);
}

void __sub_group_commit_write_pipe(write_only pipe char p, reserve_id_t id, uint size,
                                   uint align) {
  ls_sub_group_commit(LS_WO(p), id, LS_PIPE_FOR_WRITE);
}

uint __get_pipe_num_packets_ro(read_only pipe char p, uint size, uint align) {
  return ls_pipe_num_packets(LS_RO(p));
}

uint __get_pipe_num_packets_wo(write_only pipe char p, uint size, uint align) {
  return ls_pipe_num_packets(LS_WO(p));
}

uint __get_pipe_max_packets_ro(read_only pipe char p, uint size, uint align) {
  return (uint)ls_pipe_cap(LS_RO(p));
}

uint __get_pipe_max_packets_wo(write_only pipe char p, uint size, uint align) {
  return (uint)ls_pipe_cap(LS_WO(p));
}

LS_OVLD bool is_valid_reserve_id(reserve_id_t id) {
  return ls_reserve_id_valid(__lockstep_reserve_id_bits(id));
}

// ---------------------------------------------------------------------------
// What programs from SPIR-V call
//
// The SPIR-V translator (LLVM 15) writes the same functions with a pipe as
// a `__global` pointer and a reservation id as a `__private` pointer; the
// front end renames its declarations to these (translated.rs). A pipe
// pointer is the pipe itself; a reservation id pointer carries the id's
// 64 bits.
// ---------------------------------------------------------------------------

typedef __private uchar *ls_spirv_id;

LS_HELPER reserve_id_t ls_from_spirv(ls_spirv_id id) { return __lockstep_reserve_id((ulong)id); }

LS_HELPER ls_spirv_id ls_to_spirv(reserve_id_t id) {
  return (ls_spirv_id)__lockstep_reserve_id_bits(id);
}

int __lockstep_spirv__read_pipe_2(ls_pipe p, void *ptr, uint size, uint align) {
  return ls_pipe_one(p, (uchar *)ptr, size, align, LS_PIPE_FOR_READ);
}

int __lockstep_spirv__write_pipe_2(ls_pipe p, const void *ptr, uint size, uint align) {
  return ls_pipe_one(p, (uchar *)ptr, size, align, LS_PIPE_FOR_WRITE);
}

int __lockstep_spirv__read_pipe_4(ls_pipe p, ls_spirv_id id, uint index, void *ptr, uint size,
                                  uint align) {
  return ls_pipe_reserved(p, ls_from_spirv(id), index, (uchar *)ptr, size, align, false);
}

int __lockstep_spirv__write_pipe_4(ls_pipe p, ls_spirv_id id, uint index, const void *ptr,
                                   uint size, uint align) {
  return ls_pipe_reserved(p, ls_from_spirv(id), index, (uchar *)ptr, size, align, true);
}

#define LS_SPIRV_RESERVE(NAME, RESERVE) \
  ls_spirv_id __lockstep_spirv__##NAME(ls_pipe p, uint n, uint size, uint align) { \
    return ls_to_spirv(RESERVE); \
  }
#define LS_SPIRV_COMMIT(NAME, COMMIT) \
  void __lockstep_spirv__##NAME(ls_pipe p, ls_spirv_id id, uint size, uint align) { COMMIT; }

LS_SPIRV_RESERVE(reserve_read_pipe, ls_reserve_id(ls_pipe_reserve(p, n, LS_PIPE_FOR_READ)))
LS_SPIRV_RESERVE(reserve_write_pipe, ls_reserve_id(ls_pipe_reserve(p, n, LS_PIPE_FOR_WRITE)))
LS_SPIRV_RESERVE(work_group_reserve_read_pipe, ls_work_group_reserve(p, n, LS_PIPE_FOR_READ))
LS_SPIRV_RESERVE(work_group_reserve_write_pipe, ls_work_group_reserve(p, n, LS_PIPE_FOR_WRITE))
LS_SPIRV_RESERVE(sub_group_reserve_read_pipe, ls_sub_group_reserve(p, n, LS_PIPE_FOR_READ))
LS_SPIRV_RESERVE(sub_group_reserve_write_pipe, ls_sub_group_reserve(p, n, LS_PIPE_FOR_WRITE))
LS_SPIRV_COMMIT(commit_read_pipe, ls_pipe_commit_id(p, ls_from_spirv(id), LS_PIPE_FOR_READ))
LS_SPIRV_COMMIT(commit_write_pipe, ls_pipe_commit_id(p, ls_from_spirv(id), LS_PIPE_FOR_WRITE))
LS_SPIRV_COMMIT(work_group_commit_read_pipe,
                ls_work_group_commit(p, ls_from_spirv(id), LS_PIPE_FOR_READ))
LS_SPIRV_COMMIT(work_group_commit_write_pipe,
                ls_work_group_commit(p, ls_from_spirv(id), LS_PIPE_FOR_WRITE))
LS_SPIRV_COMMIT(sub_group_commit_read_pipe,
                ls_sub_group_commit(p, ls_from_spirv(id), LS_PIPE_FOR_READ))
LS_SPIRV_COMMIT(sub_group_commit_write_pipe,
                ls_sub_group_commit(p, ls_from_spirv(id), LS_PIPE_FOR_WRITE))

uint __lockstep_spirv__get_pipe_num_packets_ro(ls_pipe p, uint size, uint align) {
  return ls_pipe_num_packets(p);
}

uint __lockstep_spirv__get_pipe_num_packets_wo(ls_pipe p, uint size, uint align) {
  return ls_pipe_num_packets(p);
}

uint __lockstep_spirv__get_pipe_max_packets_ro(ls_pipe p, uint size, uint align) {
  return (uint)ls_pipe_cap(p);
}

uint __lockstep_spirv__get_pipe_max_packets_wo(ls_pipe p, uint size, uint align) {
  return (uint)ls_pipe_cap(p);
}

bool __lockstep_spirv_is_valid_reserve_id(ls_spirv_id id) {
  return ls_reserve_id_valid((ulong)id);
}
