// integer.cl - OpenCL C integer functions (section 6.15.3) for char, uchar,
// short, ushort, int, uint, long, ulong, scalar and vector; plus the
// cl_khr_extended_bit_ops and cl_khr_integer_dot_product functions.
//
// Everything is plain C on the scalar type; saturation and overflow are
// detected with wrapping unsigned arithmetic (no i128, no overflow
// intrinsics). clz/ctz guard the zero input (OpenCL: the bit width).

#include "lockstep_internal.h"

// Per type: T, unsigned UT, bit width, a type twice as wide (or T itself for
// 64-bit types), and the range.
#define LS_INT_CHAR(M) M(char, uchar, 8, CHAR_MIN, CHAR_MAX, 1, int)
#define LS_INT_UCHAR(M) M(uchar, uchar, 8, 0, UCHAR_MAX, 0, uint)
#define LS_INT_SHORT(M) M(short, ushort, 16, SHRT_MIN, SHRT_MAX, 1, int)
#define LS_INT_USHORT(M) M(ushort, ushort, 16, 0, USHRT_MAX, 0, uint)
#define LS_INT_INT(M) M(int, uint, 32, INT_MIN, INT_MAX, 1, long)
#define LS_INT_UINT(M) M(uint, uint, 32, 0, UINT_MAX, 0, ulong)
#define LS_FOR_NARROW_INTS(M) LS_INT_CHAR(M) LS_INT_UCHAR(M) LS_INT_SHORT(M) LS_INT_USHORT(M) LS_INT_INT(M) LS_INT_UINT(M)
#define LS_FOR_ALL_INTS(M) LS_FOR_NARROW_INTS(M) M(long, ulong, 64, LONG_MIN, LONG_MAX, 1, long) M(ulong, ulong, 64, 0, ULONG_MAX, 0, ulong)

// ---------------------------------------------------------------------------
// Functions whose definition does not depend on the width
// ---------------------------------------------------------------------------

#define LS_INT_COMMON(T, UT, BITS, MINV, MAXV, SIGNED, WT) \
  LS_OVLD UT abs(T x) { return (SIGNED && x < (T)0) ? (UT)((UT)0 - (UT)x) : (UT)x; } \
  LS_OVLD UT abs_diff(T x, T y) { return x > y ? (UT)((UT)x - (UT)y) : (UT)((UT)y - (UT)x); } \
  LS_OVLD T add_sat(T x, T y) { \
    T r = (T)((UT)x + (UT)y); \
    if (SIGNED) { \
      /* overflow iff x and y have the same sign and r's differs */ \
      if (((x ^ r) & (y ^ r)) < (T)0) return x < (T)0 ? (T)MINV : (T)MAXV; \
      return r; \
    } \
    return r < x ? (T)MAXV : r; \
  } \
  LS_OVLD T sub_sat(T x, T y) { \
    T r = (T)((UT)x - (UT)y); \
    if (SIGNED) { \
      /* overflow iff x and y have different signs and r's differs from x's */ \
      if (((x ^ y) & (x ^ r)) < (T)0) return x < (T)0 ? (T)MINV : (T)MAXV; \
      return r; \
    } \
    return x < y ? (T)0 : r; \
  } \
  LS_OVLD T hadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + (x & y & (T)1)); } \
  LS_OVLD T rhadd(T x, T y) { return (T)((x >> 1) + (y >> 1) + ((x | y) & (T)1)); } \
  LS_OVLD T max(T x, T y) { return x > y ? x : y; } \
  LS_OVLD T min(T x, T y) { return x < y ? x : y; } \
  LS_OVLD T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); } \
  LS_OVLD T rotate(T v, T i) { \
    UT u = (UT)v; \
    uint s = (uint)((UT)i & (UT)(BITS - 1)); \
    return (T)(s == 0u ? u : (UT)((u << s) | (u >> ((uint)BITS - s)))); \
  } \
  LS_OVLD T popcount(T x) { return (T)__builtin_popcountl((ulong)(UT)x); } \
  LS_OVLD T clz(T x) { \
    ulong u = (ulong)(UT)x; \
    return u == 0UL ? (T)BITS : (T)((int)__builtin_clzl(u) - (64 - BITS)); \
  } \
  LS_OVLD T ctz(T x) { \
    ulong u = (ulong)(UT)x; \
    return u == 0UL ? (T)BITS : (T)__builtin_ctzl(u); \
  } \
  LS_OVLD T mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }

// mul_hi and mad_sat for types with a wider type.
#define LS_INT_NARROW(T, UT, BITS, MINV, MAXV, SIGNED, WT) \
  LS_OVLD T mul_hi(T x, T y) { return (T)(((WT)x * (WT)y) >> BITS); } \
  LS_OVLD T mad_sat(T a, T b, T c) { \
    /* |a*b| < 2^(2*BITS-1) and the sum fits in WT */ \
    WT r = (WT)a * (WT)b + (WT)c; \
    return r < (WT)MINV ? (T)MINV : (r > (WT)MAXV ? (T)MAXV : (T)r); \
  }

LS_FOR_NARROW_INTS(LS_INT_NARROW)

// 64x64 -> 128-bit products from 32-bit halves.
LS_HELPER ulong ls_umul_hi64(ulong a, ulong b, __private ulong *lo) {
  ulong a0 = a & 0xffffffffUL, a1 = a >> 32;
  ulong b0 = b & 0xffffffffUL, b1 = b >> 32;
  ulong p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  ulong mid = (p00 >> 32) + (p01 & 0xffffffffUL) + (p10 & 0xffffffffUL);
  *lo = (mid << 32) | (p00 & 0xffffffffUL);
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
// Signed high half: the unsigned one minus the corrections for negative
// operands (two's complement: a = ua - 2^64 when a < 0).
LS_HELPER long ls_smul_hi64(long a, long b, __private ulong *lo) {
  ulong hi = ls_umul_hi64((ulong)a, (ulong)b, lo);
  if (a < 0L) hi -= (ulong)b;
  if (b < 0L) hi -= (ulong)a;
  return (long)hi;
}

LS_OVLD ulong mul_hi(ulong x, ulong y) {
  ulong lo;
  return ls_umul_hi64(x, y, &lo);
}
LS_OVLD long mul_hi(long x, long y) {
  ulong lo;
  return ls_smul_hi64(x, y, &lo);
}
LS_OVLD ulong mad_sat(ulong a, ulong b, ulong c) {
  ulong lo;
  ulong hi = ls_umul_hi64(a, b, &lo);
  ulong r = lo + c;
  if (r < lo) hi += 1UL;
  return hi != 0UL ? ULONG_MAX : r;
}
LS_OVLD long mad_sat(long a, long b, long c) {
  ulong lo;
  long hi = ls_smul_hi64(a, b, &lo);
  // 128-bit (hi:lo) + sign-extended c
  ulong r = lo + (ulong)c;
  ulong carry = r < lo ? 1UL : 0UL;
  long h = (long)((ulong)hi + carry + (c < 0L ? ~0UL : 0UL));
  // fits in 64 bits iff the high word is the sign extension of r
  if (h == ((long)r >> 63)) return (long)r;
  return h < 0L ? LONG_MIN : LONG_MAX;
}

LS_FOR_ALL_INTS(LS_INT_COMMON)

// upsample: (hi << bits(lo)) | lo
#define LS_UPSAMPLE(R, H, L, BITS) \
  LS_OVLD R upsample(H hi, L lo) { return (R)(((R)hi << BITS) | (R)lo); } \
  LS_VEC2(R, upsample, H, L)
LS_UPSAMPLE(short, char, uchar, 8)
LS_UPSAMPLE(ushort, uchar, uchar, 8)
LS_UPSAMPLE(int, short, ushort, 16)
LS_UPSAMPLE(uint, ushort, ushort, 16)
LS_UPSAMPLE(long, int, uint, 32)
LS_UPSAMPLE(ulong, uint, uint, 32)

// mad24/mul24: the operands are 24-bit values; the full 32-bit product is a
// valid result for them.
LS_OVLD int mul24(int x, int y) { return (int)((uint)x * (uint)y); }
LS_OVLD uint mul24(uint x, uint y) { return x * y; }
LS_OVLD int mad24(int x, int y, int z) { return (int)((uint)x * (uint)y + (uint)z); }
LS_OVLD uint mad24(uint x, uint y, uint z) { return x * y + z; }
LS_VEC2(int, mul24, int, int) LS_VEC2(uint, mul24, uint, uint)
LS_VEC3(int, mad24, int, int, int) LS_VEC3(uint, mad24, uint, uint, uint)

#define LS_INT_VEC(T, UT, BITS, MINV, MAXV, SIGNED, WT) \
  LS_VEC1(UT, abs, T) \
  LS_VEC2(UT, abs_diff, T, T) \
  LS_VEC2(T, add_sat, T, T) \
  LS_VEC2(T, sub_sat, T, T) \
  LS_VEC2(T, hadd, T, T) \
  LS_VEC2(T, rhadd, T, T) \
  LS_VEC2(T, max, T, T) LS_GEN2(T, max, V, T, S, T) \
  LS_VEC2(T, min, T, T) LS_GEN2(T, min, V, T, S, T) \
  LS_VEC3(T, clamp, T, T, T) LS_GEN3(T, clamp, V, T, S, T, S, T) \
  LS_VEC2(T, rotate, T, T) \
  LS_VEC1(T, popcount, T) \
  LS_VEC1(T, clz, T) \
  LS_VEC1(T, ctz, T) \
  LS_VEC2(T, mul_hi, T, T) \
  LS_VEC3(T, mad_hi, T, T, T) \
  LS_VEC3(T, mad_sat, T, T, T)
LS_FOR_ALL_INTS(LS_INT_VEC)

// ---------------------------------------------------------------------------
// cl_khr_extended_bit_ops
// ---------------------------------------------------------------------------

// Mask of `count` low bits (count may be the full width).
#define LS_LOWMASK(UT, BITS, count) ((count) >= (uint)BITS ? (UT)~(UT)0 : (UT)(((UT)1 << (count)) - (UT)1))

// The spec leaves offset + count > width undefined; offsets and counts are
// clamped so that the result is defined anyway.
#define LS_BITOPS(T, UT, ST, BITS) \
  LS_OVLD T bitfield_insert(T base, T insert, uint offset, uint count) { \
    uint off = offset < (uint)BITS ? offset : (uint)BITS; \
    uint cnt = count < (uint)BITS - off ? count : (uint)BITS - off; \
    if (cnt == 0u) return base; \
    UT mask = (UT)(LS_LOWMASK(UT, BITS, cnt) << off); \
    return (T)(((UT)base & (UT)~mask) | (((UT)insert << off) & mask)); \
  } \
  LS_OVLD ST bitfield_extract_signed(T base, uint offset, uint count) { \
    uint off = offset < (uint)BITS ? offset : (uint)BITS; \
    uint cnt = count < (uint)BITS - off ? count : (uint)BITS - off; \
    if (cnt == 0u) return (ST)0; \
    /* move the field to the top, then arithmetic shift down */ \
    UT u = (UT)((UT)base << ((uint)BITS - off - cnt)); \
    return (ST)((ST)u >> ((uint)BITS - cnt)); \
  } \
  LS_OVLD UT bitfield_extract_unsigned(T base, uint offset, uint count) { \
    uint off = offset < (uint)BITS ? offset : (uint)BITS; \
    uint cnt = count < (uint)BITS - off ? count : (uint)BITS - off; \
    if (cnt == 0u) return (UT)0; \
    return (UT)(((UT)base >> off) & LS_LOWMASK(UT, BITS, cnt)); \
  } \
  LS_OVLD T bit_reverse(T base) { \
    return (T)(UT)(__builtin_bitreverse64((ulong)(UT)base) >> (64 - BITS)); \
  }
LS_BITOPS(char, uchar, char, 8)
LS_BITOPS(uchar, uchar, char, 8)
LS_BITOPS(short, ushort, short, 16)
LS_BITOPS(ushort, ushort, short, 16)
LS_BITOPS(int, uint, int, 32)
LS_BITOPS(uint, uint, int, 32)
LS_BITOPS(long, ulong, long, 64)
LS_BITOPS(ulong, ulong, long, 64)

#define LS_BITFIELD_INSERT_N(T, N, LO, HI) \
  LS_OVLD T##N bitfield_insert(T##N b, T##N i, uint o, uint c) { \
    return (T##N)(bitfield_insert(b.LO, i.LO, o, c), bitfield_insert(b.HI, i.HI, o, c)); }
#define LS_BITOPS_VEC(T, UT, ST) \
  LS_BITFIELD_INSERT_N(T, 2, s0, s1) \
  LS_OVLD T##3 bitfield_insert(T##3 b, T##3 i, uint o, uint c) { \
    return (T##3)(bitfield_insert(b.s0, i.s0, o, c), bitfield_insert(b.s1, i.s1, o, c), \
                  bitfield_insert(b.s2, i.s2, o, c)); } \
  LS_BITFIELD_INSERT_N(T, 4, lo, hi) \
  LS_BITFIELD_INSERT_N(T, 8, lo, hi) \
  LS_BITFIELD_INSERT_N(T, 16, lo, hi) \
  LS_GEN3(ST, bitfield_extract_signed, V, T, S, uint, S, uint) \
  LS_GEN3(UT, bitfield_extract_unsigned, V, T, S, uint, S, uint) \
  LS_VEC1(T, bit_reverse, T)
LS_BITOPS_VEC(char, uchar, char)
LS_BITOPS_VEC(uchar, uchar, char)
LS_BITOPS_VEC(short, ushort, short)
LS_BITOPS_VEC(ushort, ushort, short)
LS_BITOPS_VEC(int, uint, int)
LS_BITOPS_VEC(uint, uint, int)
LS_BITOPS_VEC(long, ulong, long)
LS_BITOPS_VEC(ulong, ulong, long)

// ---------------------------------------------------------------------------
// cl_khr_integer_dot_product
// ---------------------------------------------------------------------------

#define LS_DOT4(R, A, B) \
  LS_OVLD R dot(A##4 a, B##4 b) { \
    return (R)((int)a.s0 * (int)b.s0 + (int)a.s1 * (int)b.s1 + (int)a.s2 * (int)b.s2 + (int)a.s3 * (int)b.s3); \
  } \
  LS_OVLD R dot_acc_sat(A##4 a, B##4 b, R acc) { return add_sat(dot(a, b), acc); }
LS_DOT4(uint, uchar, uchar)
LS_DOT4(int, char, char)
LS_DOT4(int, uchar, char)
LS_DOT4(int, char, uchar)

// Packed forms: byte i of each operand is component i.
#define LS_DOT_PACKED(SUF, R, A, B) \
  LS_OVLD R dot_4x8packed_##SUF(uint a, uint b) { return dot(as_##A##4(a), as_##B##4(b)); } \
  LS_OVLD R dot_acc_sat_4x8packed_##SUF(uint a, uint b, R acc) { return dot_acc_sat(as_##A##4(a), as_##B##4(b), acc); }
LS_DOT_PACKED(uu_uint, uint, uchar, uchar)
LS_DOT_PACKED(ss_int, int, char, char)
LS_DOT_PACKED(us_int, int, uchar, char)
LS_DOT_PACKED(su_int, int, char, uchar)

// SPV_KHR_integer_dot_product's instructions as the SPIR-V translator
// hands them back: `__spirv_<Op>KHR_R<result>`, the operands 4x8-bit
// vectors (char4: SPIR-V integers have no sign, the instruction says how to
// read them) or each packed in an int followed by its PackedVectorFormat
// (only 0, 4x8Bit, exists), the accumulator of the result's width mangled
// as signed. A result narrower than the exact dot product keeps its low
// bits; the saturating forms clamp the exact sum to the result type.
#define LS_SPIRV_DOT_FORMS(OP, A, B, R, ACC, SUM) \
  LS_OVLD R __spirv_##OP##DotKHR_R##R(char4 a, char4 b) { return (R)dot(as_##A##4(a), as_##B##4(b)); } \
  LS_OVLD R __spirv_##OP##DotKHR_R##R(int a, int b, int format) { \
    return __spirv_##OP##DotKHR_R##R(as_char4(a), as_char4(b)); \
  } \
  LS_OVLD R __spirv_##OP##DotAccSatKHR_R##R(char4 a, char4 b, ACC acc) { \
    return SUM(R, dot(as_##A##4(a), as_##B##4(b)), (R)acc); \
  } \
  LS_OVLD R __spirv_##OP##DotAccSatKHR_R##R(int a, int b, ACC acc, int format) { \
    return __spirv_##OP##DotAccSatKHR_R##R(as_char4(a), as_char4(b), acc); \
  }
// The exact sum fits a long below 64 bits; at 64 the dot product fits R.
#define LS_SAT_SUM_NARROW(R, d, acc) convert_##R##_sat((long)(d) + (long)(acc))
#define LS_SAT_SUM_WIDE(R, d, acc) add_sat((R)(d), acc)
#define LS_SPIRV_DOTS(R_U, R_S, ACC, SUM) \
  LS_SPIRV_DOT_FORMS(U, uchar, uchar, R_U, ACC, SUM) \
  LS_SPIRV_DOT_FORMS(S, char, char, R_S, ACC, SUM) \
  LS_SPIRV_DOT_FORMS(SU, char, uchar, R_S, ACC, SUM)
LS_SPIRV_DOTS(uchar, char, char, LS_SAT_SUM_NARROW)
LS_SPIRV_DOTS(ushort, short, short, LS_SAT_SUM_NARROW)
LS_SPIRV_DOTS(uint, int, int, LS_SAT_SUM_NARROW)
LS_SPIRV_DOTS(ulong, long, long, LS_SAT_SUM_WIDE)
