// atomics.cl - OpenCL C atomic functions: the OpenCL 1.x atomic_* and
// atom_* functions (cl_khr_{global,local}_int32_{base,extended}_atomics,
// cl_khr_int64_{base,extended}_atomics) and the OpenCL 2.0/3.0 C11-style
// atomics (section 6.15.12), including cl_ext_float_atomics.
//
// Everything is written with clang's __opencl_atomic_* builtins, which
// lower to LLVM atomicrmw / cmpxchg / atomic load and store instructions,
// so the importer only ever sees LLVM atomic instructions. A memory order
// or scope that is not a constant becomes a switch over the orders; after
// inlining into a kernel that passes constants it folds away.
//
// OpenCL 1.x atomics have no memory-order parameter. They are implemented
// as seq_cst (as pocl does), which is at least as strong as the relaxed
// order OpenCL 2.0 specifies for them, with device scope for __global and
// work-group scope for __local.

#include "lockstep_internal.h"

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define LS_SEQ memory_order_seq_cst
#define LS_DEV memory_scope_device

// ---------------------------------------------------------------------------
// OpenCL 1.x: atomic_<op> (32-bit) and atom_<op> (32- and 64-bit)
// ---------------------------------------------------------------------------

#define LS_SCOPE___global memory_scope_device
#define LS_SCOPE___local memory_scope_work_group

#define LS_LEGACY_ONE(NAME, AS, T, BODY) \
  LS_OVLD T NAME(volatile AS T *p, T v) { \
    volatile AS atomic_##T *a = (volatile AS atomic_##T *)p; \
    BODY; \
  }
#define LS_LEGACY_RMW(PREFIX, AS, T) \
  LS_LEGACY_ONE(PREFIX##add, AS, T, return __opencl_atomic_fetch_add(a, v, LS_SEQ, LS_SCOPE_##AS)) \
  LS_LEGACY_ONE(PREFIX##sub, AS, T, return __opencl_atomic_fetch_sub(a, v, LS_SEQ, LS_SCOPE_##AS)) \
  LS_LEGACY_ONE(PREFIX##xchg, AS, T, return __opencl_atomic_exchange(a, v, LS_SEQ, LS_SCOPE_##AS)) \
  LS_LEGACY_ONE(PREFIX##min, AS, T, return __opencl_atomic_fetch_min(a, v, LS_SEQ, LS_SCOPE_##AS)) \
  LS_LEGACY_ONE(PREFIX##max, AS, T, return __opencl_atomic_fetch_max(a, v, LS_SEQ, LS_SCOPE_##AS)) \
  LS_LEGACY_ONE(PREFIX##and, AS, T, return __opencl_atomic_fetch_and(a, v, LS_SEQ, LS_SCOPE_##AS)) \
  LS_LEGACY_ONE(PREFIX##or, AS, T, return __opencl_atomic_fetch_or(a, v, LS_SEQ, LS_SCOPE_##AS)) \
  LS_LEGACY_ONE(PREFIX##xor, AS, T, return __opencl_atomic_fetch_xor(a, v, LS_SEQ, LS_SCOPE_##AS)) \
  LS_OVLD T PREFIX##inc(volatile AS T *p) { \
    return __opencl_atomic_fetch_add((volatile AS atomic_##T *)p, (T)1, LS_SEQ, LS_SCOPE_##AS); \
  } \
  LS_OVLD T PREFIX##dec(volatile AS T *p) { \
    return __opencl_atomic_fetch_sub((volatile AS atomic_##T *)p, (T)1, LS_SEQ, LS_SCOPE_##AS); \
  } \
  LS_OVLD T PREFIX##cmpxchg(volatile AS T *p, T cmp, T v) { \
    T expected = cmp; \
    __opencl_atomic_compare_exchange_strong((volatile AS atomic_##T *)p, &expected, v, LS_SEQ, LS_SEQ, \
                                            LS_SCOPE_##AS); \
    return expected; \
  }

#define LS_LEGACY_AS(AS) \
  LS_LEGACY_RMW(atomic_, AS, int) \
  LS_LEGACY_RMW(atomic_, AS, uint) \
  LS_LEGACY_RMW(atom_, AS, int) \
  LS_LEGACY_RMW(atom_, AS, uint) \
  LS_LEGACY_RMW(atom_, AS, long) \
  LS_LEGACY_RMW(atom_, AS, ulong) \
  LS_OVLD float atomic_xchg(volatile AS float *p, float v) { \
    return __opencl_atomic_exchange((volatile AS atomic_float *)p, v, LS_SEQ, LS_SCOPE_##AS); \
  }
LS_LEGACY_AS(__global)
LS_LEGACY_AS(__local)

// ---------------------------------------------------------------------------
// OpenCL 2.0 C11-style atomics. AS is the object's address space: __global,
// __local, or empty (generic).
// ---------------------------------------------------------------------------

// Read-modify-write: A is the atomic type, C its value type, M the
// operand's declared type (differs for the intptr_t/uintptr_t overloads).
#define LS_C11_FETCH(AS, OP, A, C, M) \
  LS_OVLD C atomic_fetch_##OP(volatile AS A *obj, M operand) { \
    return __opencl_atomic_fetch_##OP(obj, (C)operand, LS_SEQ, LS_DEV); \
  } \
  LS_OVLD C atomic_fetch_##OP##_explicit(volatile AS A *obj, M operand, memory_order order) { \
    return __opencl_atomic_fetch_##OP(obj, (C)operand, order, LS_DEV); \
  } \
  LS_OVLD C atomic_fetch_##OP##_explicit(volatile AS A *obj, M operand, memory_order order, memory_scope scope) { \
    return __opencl_atomic_fetch_##OP(obj, (C)operand, order, scope); \
  }

// init, store, load, exchange.
#define LS_C11_BASIC(AS, A, C) \
  LS_OVLD void atomic_init(volatile AS A *obj, C value) { __opencl_atomic_init(obj, value); } \
  LS_OVLD void atomic_store(volatile AS A *obj, C desired) { __opencl_atomic_store(obj, desired, LS_SEQ, LS_DEV); } \
  LS_OVLD void atomic_store_explicit(volatile AS A *obj, C desired, memory_order order) { \
    __opencl_atomic_store(obj, desired, order, LS_DEV); \
  } \
  LS_OVLD void atomic_store_explicit(volatile AS A *obj, C desired, memory_order order, memory_scope scope) { \
    __opencl_atomic_store(obj, desired, order, scope); \
  } \
  LS_OVLD C atomic_load(volatile AS A *obj) { return __opencl_atomic_load(obj, LS_SEQ, LS_DEV); } \
  LS_OVLD C atomic_load_explicit(volatile AS A *obj, memory_order order) { \
    return __opencl_atomic_load(obj, order, LS_DEV); \
  } \
  LS_OVLD C atomic_load_explicit(volatile AS A *obj, memory_order order, memory_scope scope) { \
    return __opencl_atomic_load(obj, order, scope); \
  } \
  LS_OVLD C atomic_exchange(volatile AS A *obj, C desired) { \
    return __opencl_atomic_exchange(obj, desired, LS_SEQ, LS_DEV); \
  } \
  LS_OVLD C atomic_exchange_explicit(volatile AS A *obj, C desired, memory_order order) { \
    return __opencl_atomic_exchange(obj, desired, order, LS_DEV); \
  } \
  LS_OVLD C atomic_exchange_explicit(volatile AS A *obj, C desired, memory_order order, memory_scope scope) { \
    return __opencl_atomic_exchange(obj, desired, order, scope); \
  }

// compare_exchange_{strong,weak}: EAS is the address space of `expected`.
#define LS_C11_CMPXCHG_KIND(AS, EAS, A, C, KIND) \
  LS_OVLD bool atomic_compare_exchange_##KIND(volatile AS A *obj, EAS C *expected, C desired) { \
    return __opencl_atomic_compare_exchange_##KIND(obj, expected, desired, LS_SEQ, LS_SEQ, LS_DEV); \
  } \
  LS_OVLD bool atomic_compare_exchange_##KIND##_explicit(volatile AS A *obj, EAS C *expected, C desired, \
                                                         memory_order success, memory_order failure) { \
    return __opencl_atomic_compare_exchange_##KIND(obj, expected, desired, success, failure, LS_DEV); \
  } \
  LS_OVLD bool atomic_compare_exchange_##KIND##_explicit(volatile AS A *obj, EAS C *expected, C desired, \
                                                         memory_order success, memory_order failure, \
                                                         memory_scope scope) { \
    return __opencl_atomic_compare_exchange_##KIND(obj, expected, desired, success, failure, scope); \
  }
#define LS_C11_CMPXCHG(AS, EAS, A, C) \
  LS_C11_CMPXCHG_KIND(AS, EAS, A, C, strong) LS_C11_CMPXCHG_KIND(AS, EAS, A, C, weak)

// Integer atomic types: everything.
#define LS_C11_INT(AS, A, C) \
  LS_C11_BASIC(AS, A, C) \
  LS_C11_FETCH(AS, add, A, C, C) \
  LS_C11_FETCH(AS, sub, A, C, C) \
  LS_C11_FETCH(AS, or, A, C, C) \
  LS_C11_FETCH(AS, xor, A, C, C) \
  LS_C11_FETCH(AS, and, A, C, C) \
  LS_C11_FETCH(AS, min, A, C, C) \
  LS_C11_FETCH(AS, max, A, C, C)

// Floating atomic types: basic ops plus cl_ext_float_atomics add/sub/min/max.
#define LS_C11_FLOAT(AS, A, C) \
  LS_C11_BASIC(AS, A, C) \
  LS_C11_FETCH(AS, add, A, C, C) \
  LS_C11_FETCH(AS, sub, A, C, C) \
  LS_C11_FETCH(AS, min, A, C, C) \
  LS_C11_FETCH(AS, max, A, C, C)

// The uintptr_t/intptr_t overloads with an operand of the other signedness
// (atomic_uintptr_t is atomic_ulong, ptrdiff_t and intptr_t are long).
#define LS_C11_PTR_MIXED(AS) \
  LS_C11_FETCH(AS, add, atomic_ulong, ulong, long) \
  LS_C11_FETCH(AS, sub, atomic_ulong, ulong, long) \
  LS_C11_FETCH(AS, or, atomic_ulong, ulong, long) \
  LS_C11_FETCH(AS, xor, atomic_ulong, ulong, long) \
  LS_C11_FETCH(AS, and, atomic_ulong, ulong, long) \
  LS_C11_FETCH(AS, min, atomic_ulong, ulong, long) \
  LS_C11_FETCH(AS, max, atomic_ulong, ulong, long) \
  LS_C11_FETCH(AS, or, atomic_long, long, ulong) \
  LS_C11_FETCH(AS, xor, atomic_long, long, ulong) \
  LS_C11_FETCH(AS, and, atomic_long, long, ulong) \
  LS_C11_FETCH(AS, min, atomic_long, long, ulong) \
  LS_C11_FETCH(AS, max, atomic_long, long, ulong)

#define LS_C11_FLAG(AS) \
  LS_OVLD bool atomic_flag_test_and_set(volatile AS atomic_flag *obj) { \
    return __opencl_atomic_exchange(obj, 1, LS_SEQ, LS_DEV) != 0; \
  } \
  LS_OVLD bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *obj, memory_order order) { \
    return __opencl_atomic_exchange(obj, 1, order, LS_DEV) != 0; \
  } \
  LS_OVLD bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *obj, memory_order order, \
                                                 memory_scope scope) { \
    return __opencl_atomic_exchange(obj, 1, order, scope) != 0; \
  } \
  LS_OVLD void atomic_flag_clear(volatile AS atomic_flag *obj) { __opencl_atomic_store(obj, 0, LS_SEQ, LS_DEV); } \
  LS_OVLD void atomic_flag_clear_explicit(volatile AS atomic_flag *obj, memory_order order) { \
    __opencl_atomic_store(obj, 0, order, LS_DEV); \
  } \
  LS_OVLD void atomic_flag_clear_explicit(volatile AS atomic_flag *obj, memory_order order, memory_scope scope) { \
    __opencl_atomic_store(obj, 0, order, scope); \
  }

// All value types for one object address space; CMPX(A, C) emits the
// compare-exchange overloads for the `expected` address spaces that go with
// this object address space.
#define LS_C11_AS(AS, CMPX) \
  LS_C11_INT(AS, atomic_int, int) \
  LS_C11_INT(AS, atomic_uint, uint) \
  LS_C11_INT(AS, atomic_long, long) \
  LS_C11_INT(AS, atomic_ulong, ulong) \
  LS_C11_FLOAT(AS, atomic_float, float) \
  LS_C11_FLOAT(AS, atomic_double, double) \
  LS_C11_FLOAT(AS, atomic_half, half) \
  LS_C11_PTR_MIXED(AS) \
  LS_C11_FLAG(AS) \
  CMPX(AS, atomic_int, int) \
  CMPX(AS, atomic_uint, uint) \
  CMPX(AS, atomic_long, long) \
  CMPX(AS, atomic_ulong, ulong) \
  CMPX(AS, atomic_float, float) \
  CMPX(AS, atomic_double, double)

// Generic objects take a generic `expected`; named ones any named one.
#define LS_CMPX_GENERIC(AS, A, C) LS_C11_CMPXCHG(AS, , A, C)
#define LS_CMPX_NAMED(AS, A, C) \
  LS_C11_CMPXCHG(AS, __global, A, C) LS_C11_CMPXCHG(AS, __local, A, C) LS_C11_CMPXCHG(AS, __private, A, C)

LS_C11_AS(, LS_CMPX_GENERIC)
LS_C11_AS(__global, LS_CMPX_NAMED)
LS_C11_AS(__local, LS_CMPX_NAMED)

// clang 19's default (TableGen) builtin declarations give the half
// atomic_store[_explicit] a second parameter of type atomic_half instead of
// half, so kernels call `_Z12atomic_storePU3AS1VU7_AtomicDhS_` rather than
// opencl-c.h's `..._AtomicDhDh`. Define those names too; the by-value
// atomic parameter is read with a (folded-away) atomic load.
#define LS_HALF_LOAD_PARAM(v) __opencl_atomic_load(&v, memory_order_relaxed, memory_scope_work_group)
#define LS_HALF_STORE_QUIRK(AS) \
  LS_OVLD void atomic_store(volatile AS atomic_half *obj, atomic_half desired) { \
    __opencl_atomic_store(obj, LS_HALF_LOAD_PARAM(desired), LS_SEQ, LS_DEV); \
  } \
  LS_OVLD void atomic_store_explicit(volatile AS atomic_half *obj, atomic_half desired, memory_order order) { \
    __opencl_atomic_store(obj, LS_HALF_LOAD_PARAM(desired), order, LS_DEV); \
  } \
  LS_OVLD void atomic_store_explicit(volatile AS atomic_half *obj, atomic_half desired, memory_order order, \
                                     memory_scope scope) { \
    __opencl_atomic_store(obj, LS_HALF_LOAD_PARAM(desired), order, scope); \
  }
LS_HALF_STORE_QUIRK()
LS_HALF_STORE_QUIRK(__global)
LS_HALF_STORE_QUIRK(__local)
