// convert.cl - OpenCL C explicit conversions (section 6.4.3):
// convert_<dst><n>[_sat][_rte|_rtz|_rtp|_rtn](<src><n>) for every source
// type and width, for ONE destination type per translation unit.
//
// This file is compiled once per destination type with
// -DLS_CONVERT_DST=<type> (build.rs does it for all 11 types). The reason is
// the conversion hooks: `__lockstep_convert_f_rtz(double)` returns float in
// the float unit and half in the half unit, and C cannot declare one
// function with two return types in one translation unit. After llvm-link
// both call sites name the same symbol with their own return type; the
// importer reads the destination type from the call, not from the
// declaration.
//
// What each conversion becomes:
//   int -> int                C cast (modular); _sat: clamp, then cast
//   int/float -> float, RTE   C cast (LLVM sitofp/uitofp/fptrunc/fpext
//                             round to nearest even)
//   any -> float, other mode  C cast when exact (e.g. short -> float),
//                             otherwise __lockstep_convert_f_<mode>(src)
//   float -> int, default     C cast (truncation, like (int)x; the result
//     and _rtz                is undefined out of range, as in OpenCL)
//   float -> int, _rte/_rtp/_rtn  __lockstep_convert_{s,u}_<mode>(src)
//   float -> int, _sat[_mode] __lockstep_convert_{s,u}_<mode>_sat(src)
//                             (default mode rtz; NaN -> 0, clamped)

#include "lockstep_internal.h"

#ifndef LS_CONVERT_DST
#error "compile convert.cl with -DLS_CONVERT_DST=<destination type>"
#endif

#define LS_CAT(a, b) LS_CAT_(a, b)
#define LS_CAT_(a, b) a##b
#define LS_CAT3(a, b, c) LS_CAT(LS_CAT(a, b), c)

// ---------------------------------------------------------------------------
// Source type properties
// ---------------------------------------------------------------------------

#define LS_KIND_char INT
#define LS_KIND_uchar INT
#define LS_KIND_short INT
#define LS_KIND_ushort INT
#define LS_KIND_int INT
#define LS_KIND_uint INT
#define LS_KIND_long INT
#define LS_KIND_ulong INT
#define LS_KIND_float FLT
#define LS_KIND_double FLT
#define LS_KIND_half FLT

#define LS_SIGNED_char 1
#define LS_SIGNED_uchar 0
#define LS_SIGNED_short 1
#define LS_SIGNED_ushort 0
#define LS_SIGNED_int 1
#define LS_SIGNED_uint 0
#define LS_SIGNED_long 1
#define LS_SIGNED_ulong 0

// ---------------------------------------------------------------------------
// Destination type properties: kind (INT/FLT), hook letter (s/u/f), range,
// and for floating destinations which sources convert exactly.
// ---------------------------------------------------------------------------

#define LS_DST_char_KIND INT
#define LS_DST_char_HOOK s
#define LS_DST_char_MIN CHAR_MIN
#define LS_DST_char_MAX CHAR_MAX
#define LS_DST_uchar_KIND INT
#define LS_DST_uchar_HOOK u
#define LS_DST_uchar_MIN 0
#define LS_DST_uchar_MAX UCHAR_MAX
#define LS_DST_short_KIND INT
#define LS_DST_short_HOOK s
#define LS_DST_short_MIN SHRT_MIN
#define LS_DST_short_MAX SHRT_MAX
#define LS_DST_ushort_KIND INT
#define LS_DST_ushort_HOOK u
#define LS_DST_ushort_MIN 0
#define LS_DST_ushort_MAX USHRT_MAX
#define LS_DST_int_KIND INT
#define LS_DST_int_HOOK s
#define LS_DST_int_MIN INT_MIN
#define LS_DST_int_MAX INT_MAX
#define LS_DST_uint_KIND INT
#define LS_DST_uint_HOOK u
#define LS_DST_uint_MIN 0
#define LS_DST_uint_MAX UINT_MAX
#define LS_DST_long_KIND INT
#define LS_DST_long_HOOK s
#define LS_DST_long_MIN LONG_MIN
#define LS_DST_long_MAX LONG_MAX
#define LS_DST_ulong_KIND INT
#define LS_DST_ulong_HOOK u
#define LS_DST_ulong_MIN 0
#define LS_DST_ulong_MAX ULONG_MAX
#define LS_DST_float_KIND FLT
#define LS_DST_double_KIND FLT
#define LS_DST_half_KIND FLT

// LS_EXACT_<dst>_<src>: 1 if every src value is exactly representable.
#define LS_EXACT_float_char 1
#define LS_EXACT_float_uchar 1
#define LS_EXACT_float_short 1
#define LS_EXACT_float_ushort 1
#define LS_EXACT_float_int 0
#define LS_EXACT_float_uint 0
#define LS_EXACT_float_long 0
#define LS_EXACT_float_ulong 0
#define LS_EXACT_float_float 1
#define LS_EXACT_float_double 0
#define LS_EXACT_float_half 1
#define LS_EXACT_double_char 1
#define LS_EXACT_double_uchar 1
#define LS_EXACT_double_short 1
#define LS_EXACT_double_ushort 1
#define LS_EXACT_double_int 1
#define LS_EXACT_double_uint 1
#define LS_EXACT_double_long 0
#define LS_EXACT_double_ulong 0
#define LS_EXACT_double_float 1
#define LS_EXACT_double_double 1
#define LS_EXACT_double_half 1
#define LS_EXACT_half_char 1
#define LS_EXACT_half_uchar 1
#define LS_EXACT_half_short 0
#define LS_EXACT_half_ushort 0
#define LS_EXACT_half_int 0
#define LS_EXACT_half_uint 0
#define LS_EXACT_half_long 0
#define LS_EXACT_half_ulong 0
#define LS_EXACT_half_float 0
#define LS_EXACT_half_double 0
#define LS_EXACT_half_half 1

#define LS_D LS_CONVERT_DST
#define LS_DKIND LS_CAT3(LS_DST_, LS_D, _KIND)
#define LS_DHOOK LS_CAT3(LS_DST_, LS_D, _HOOK)
#define LS_DMIN LS_CAT3(LS_DST_, LS_D, _MIN)
#define LS_DMAX LS_CAT3(LS_DST_, LS_D, _MAX)

// __lockstep_convert_<letter>_<mode>[_sat]
#define LS_HOOK(MODE) LS_CAT3(__lockstep_convert_, LS_DHOOK, LS_CAT(_, MODE))
#define LS_HOOK_SAT(MODE) LS_CAT(LS_HOOK(MODE), _sat)

// ---------------------------------------------------------------------------
// Hook declarations (only the ones this destination uses)
// ---------------------------------------------------------------------------

// The hooks are pure: `const` lets LLVM combine, hoist and drop them.
#define LS_DECL_INT_HOOKS(S) \
  LS_D LS_HOOK_ATTRS LS_HOOK(rte)(S); \
  LS_D LS_HOOK_ATTRS LS_HOOK(rtp)(S); \
  LS_D LS_HOOK_ATTRS LS_HOOK(rtn)(S); \
  LS_D LS_HOOK_ATTRS LS_HOOK_SAT(rte)(S); \
  LS_D LS_HOOK_ATTRS LS_HOOK_SAT(rtz)(S); \
  LS_D LS_HOOK_ATTRS LS_HOOK_SAT(rtp)(S); \
  LS_D LS_HOOK_ATTRS LS_HOOK_SAT(rtn)(S);
#define LS_DECL_FLT_HOOKS(S) \
  LS_D LS_HOOK_ATTRS __lockstep_convert_f_rtz(S); \
  LS_D LS_HOOK_ATTRS __lockstep_convert_f_rtp(S); \
  LS_D LS_HOOK_ATTRS __lockstep_convert_f_rtn(S);

// ---------------------------------------------------------------------------
// Scalar conversions
// ---------------------------------------------------------------------------

// Integer destination.
// Clamp an integer source into the destination range, comparing in 64 bits
// (signed sources against the minimum, non-negative values as unsigned
// against the maximum).
#define LS_INT_SAT_BODY(S) \
  if (LS_CAT(LS_SIGNED_, S)) { \
    if ((long)x < (long)LS_DMIN) return (LS_D)LS_DMIN; \
    if ((long)x >= 0L && (ulong)x > (ulong)LS_DMAX) return (LS_D)LS_DMAX; \
  } else if ((ulong)x > (ulong)LS_DMAX) { \
    return (LS_D)LS_DMAX; \
  } \
  return (LS_D)x;

#define LS_TO_INT_FROM_INT(S, SUF) \
  LS_OVLD LS_D LS_CAT(convert_, LS_D)(S x) { return (LS_D)x; } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rte)(S x) { return (LS_D)x; } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rtz)(S x) { return (LS_D)x; } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rtp)(S x) { return (LS_D)x; } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rtn)(S x) { return (LS_D)x; } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat)(S x) { LS_INT_SAT_BODY(S) } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat_rte)(S x) { LS_INT_SAT_BODY(S) } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat_rtz)(S x) { LS_INT_SAT_BODY(S) } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat_rtp)(S x) { LS_INT_SAT_BODY(S) } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat_rtn)(S x) { LS_INT_SAT_BODY(S) }

#define LS_TO_INT_FROM_FLT(S, SUF) \
  LS_DECL_INT_HOOKS(S) \
  LS_OVLD LS_D LS_CAT(convert_, LS_D)(S x) { return (LS_D)x; } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rte)(S x) { return LS_HOOK(rte)(x); } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rtz)(S x) { return (LS_D)x; } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rtp)(S x) { return LS_HOOK(rtp)(x); } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rtn)(S x) { return LS_HOOK(rtn)(x); } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat)(S x) { return LS_HOOK_SAT(rtz)(x); } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat_rte)(S x) { return LS_HOOK_SAT(rte)(x); } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat_rtz)(S x) { return LS_HOOK_SAT(rtz)(x); } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat_rtp)(S x) { return LS_HOOK_SAT(rtp)(x); } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _sat_rtn)(S x) { return LS_HOOK_SAT(rtn)(x); }

// Floating destination: round to nearest even is a cast; the directed
// modes are casts when exact, hooks otherwise.
#define LS_FLT_DIRECTED_1(S, MODE) return (LS_D)x;
#define LS_FLT_DIRECTED_0(S, MODE) return __lockstep_convert_f_##MODE(x);
#define LS_FLT_DIRECTED(S, MODE) LS_CAT(LS_FLT_DIRECTED_, LS_CAT3(LS_EXACT_, LS_D, LS_CAT(_, S)))(S, MODE)

#define LS_TO_FLT(S, SUF) \
  LS_DECL_FLT_HOOKS(S) \
  LS_OVLD LS_D LS_CAT(convert_, LS_D)(S x) { return (LS_D)x; } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rte)(S x) { return (LS_D)x; } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rtz)(S x) { LS_FLT_DIRECTED(S, rtz) } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rtp)(S x) { LS_FLT_DIRECTED(S, rtp) } \
  LS_OVLD LS_D LS_CAT3(convert_, LS_D, _rtn)(S x) { LS_FLT_DIRECTED(S, rtn) }

// Dispatch on (destination kind, source kind).
#define LS_SCALAR_INT_INT(S) LS_TO_INT_FROM_INT(S, )
#define LS_SCALAR_INT_FLT(S) LS_TO_INT_FROM_FLT(S, )
#define LS_SCALAR_FLT_INT(S) LS_TO_FLT(S, )
#define LS_SCALAR_FLT_FLT(S) LS_TO_FLT(S, )
#define LS_SCALAR(S) LS_CAT(LS_CAT3(LS_SCALAR_, LS_DKIND, _), LS_CAT(LS_KIND_, S))(S)

LS_FOR_ALL_TYPES(LS_SCALAR)

// ---------------------------------------------------------------------------
// Vector conversions: componentwise over the scalar (width 2, 3) or the
// half-width (4, 8, 16) conversion with the same suffix.
// ---------------------------------------------------------------------------

#define LS_CONV_NAME(N, SUF) LS_CAT(LS_CAT3(convert_, LS_D, N), SUF)
#define LS_DN(N) LS_CAT(LS_D, N)

#define LS_CONV_VEC_SUF(S, SUF) \
  LS_OVLD LS_DN(2) LS_CONV_NAME(2, SUF)(S##2 x) { \
    return (LS_DN(2))(LS_CONV_NAME(, SUF)(x.s0), LS_CONV_NAME(, SUF)(x.s1)); } \
  LS_OVLD LS_DN(3) LS_CONV_NAME(3, SUF)(S##3 x) { \
    return (LS_DN(3))(LS_CONV_NAME(, SUF)(x.s0), LS_CONV_NAME(, SUF)(x.s1), LS_CONV_NAME(, SUF)(x.s2)); } \
  LS_OVLD LS_DN(4) LS_CONV_NAME(4, SUF)(S##4 x) { \
    return (LS_DN(4))(LS_CONV_NAME(2, SUF)(x.lo), LS_CONV_NAME(2, SUF)(x.hi)); } \
  LS_OVLD LS_DN(8) LS_CONV_NAME(8, SUF)(S##8 x) { \
    return (LS_DN(8))(LS_CONV_NAME(4, SUF)(x.lo), LS_CONV_NAME(4, SUF)(x.hi)); } \
  LS_OVLD LS_DN(16) LS_CONV_NAME(16, SUF)(S##16 x) { \
    return (LS_DN(16))(LS_CONV_NAME(8, SUF)(x.lo), LS_CONV_NAME(8, SUF)(x.hi)); }

#define LS_CONV_VEC_ROUNDINGS(S, SAT) \
  LS_CONV_VEC_SUF(S, SAT) \
  LS_CONV_VEC_SUF(S, LS_CAT(SAT, _rte)) \
  LS_CONV_VEC_SUF(S, LS_CAT(SAT, _rtz)) \
  LS_CONV_VEC_SUF(S, LS_CAT(SAT, _rtp)) \
  LS_CONV_VEC_SUF(S, LS_CAT(SAT, _rtn))

#define LS_VECTOR_INT(S) LS_CONV_VEC_ROUNDINGS(S, ) LS_CONV_VEC_ROUNDINGS(S, _sat)
#define LS_VECTOR_FLT(S) LS_CONV_VEC_ROUNDINGS(S, )
#define LS_VECTOR(S) LS_CAT(LS_VECTOR_, LS_DKIND)(S)

LS_FOR_ALL_TYPES(LS_VECTOR)
