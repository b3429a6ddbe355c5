// relational.cl - OpenCL C relational functions (section 6.15.6).
//
// Scalar comparisons return int 1/0, vector ones -1/0 of the signed integer
// type with the element's size - exactly what OpenCL C's own comparison
// operators produce, so the definitions below are the same expression for
// scalars and vectors, expanded per width by macros. `any`/`all` test the
// most significant bit; vector `select` and `bitselect` blend bits.

#include "lockstep_internal.h"

// Per float type: element type, signed/unsigned integer of the same size,
// abs mask, exponent mask, smallest normal.
#define LS_REL_FLOAT(M) M(float, int, uint, 0x7fffffffu, 0x7f800000u, 0x00800000u)
#define LS_REL_DOUBLE(M) \
  M(double, long, ulong, 0x7fffffffffffffffUL, 0x7ff0000000000000UL, 0x0010000000000000UL)
#define LS_REL_HALF(M) M(half, short, ushort, (ushort)0x7fffu, (ushort)0x7c00u, (ushort)0x0400u)
#define LS_FOR_REL_TYPES(M) LS_REL_FLOAT(M) LS_REL_DOUBLE(M) LS_REL_HALF(M)

// One width N ("" for scalar); R is the result type (int for scalars).
#define LS_REL_WIDTH(T, IT, UT, ABSM, EXPM, MINN, N, R) \
  LS_OVLD R isequal(T##N x, T##N y) { return x == y; } \
  LS_OVLD R isnotequal(T##N x, T##N y) { return x != y; } \
  LS_OVLD R isgreater(T##N x, T##N y) { return x > y; } \
  LS_OVLD R isgreaterequal(T##N x, T##N y) { return x >= y; } \
  LS_OVLD R isless(T##N x, T##N y) { return x < y; } \
  LS_OVLD R islessequal(T##N x, T##N y) { return x <= y; } \
  LS_OVLD R islessgreater(T##N x, T##N y) { return (x < y) || (x > y); } \
  LS_OVLD R isordered(T##N x, T##N y) { return (x == x) && (y == y); } \
  LS_OVLD R isunordered(T##N x, T##N y) { return (x != x) || (y != y); } \
  LS_OVLD R isnan(T##N x) { return x != x; } \
  LS_OVLD R isfinite(T##N x) { return (as_##UT##N(x) & ABSM) < EXPM; } \
  LS_OVLD R isinf(T##N x) { return (as_##UT##N(x) & ABSM) == EXPM; } \
  LS_OVLD R isnormal(T##N x) { \
    return ((as_##UT##N(x) & ABSM) >= MINN) && ((as_##UT##N(x) & ABSM) < EXPM); \
  } \
  LS_OVLD R signbit(T##N x) { return as_##IT##N(x) < (IT)0; }

#define LS_REL_TYPE(T, IT, UT, ABSM, EXPM, MINN) \
  LS_REL_WIDTH(T, IT, UT, ABSM, EXPM, MINN, , int) \
  LS_REL_WIDTH(T, IT, UT, ABSM, EXPM, MINN, 2, IT##2) \
  LS_REL_WIDTH(T, IT, UT, ABSM, EXPM, MINN, 3, IT##3) \
  LS_REL_WIDTH(T, IT, UT, ABSM, EXPM, MINN, 4, IT##4) \
  LS_REL_WIDTH(T, IT, UT, ABSM, EXPM, MINN, 8, IT##8) \
  LS_REL_WIDTH(T, IT, UT, ABSM, EXPM, MINN, 16, IT##16)
LS_FOR_REL_TYPES(LS_REL_TYPE)

// ---------------------------------------------------------------------------
// any / all: the most significant bit of any / every component.
// ---------------------------------------------------------------------------

#define LS_ANY_ALL(T) \
  LS_OVLD int any(T x) { return x < (T)0; } \
  LS_OVLD int all(T x) { return x < (T)0; } \
  LS_OVLD int any(T##2 x) { return (x.s0 | x.s1) < (T)0; } \
  LS_OVLD int all(T##2 x) { return (x.s0 & x.s1) < (T)0; } \
  LS_OVLD int any(T##3 x) { return (x.s0 | x.s1 | x.s2) < (T)0; } \
  LS_OVLD int all(T##3 x) { return (x.s0 & x.s1 & x.s2) < (T)0; } \
  LS_OVLD int any(T##4 x) { return any(x.lo | x.hi); } \
  LS_OVLD int all(T##4 x) { return all(x.lo & x.hi); } \
  LS_OVLD int any(T##8 x) { return any(x.lo | x.hi); } \
  LS_OVLD int all(T##8 x) { return all(x.lo & x.hi); } \
  LS_OVLD int any(T##16 x) { return any(x.lo | x.hi); } \
  LS_OVLD int all(T##16 x) { return all(x.lo & x.hi); }
LS_ANY_ALL(char)
LS_ANY_ALL(short)
LS_ANY_ALL(int)
LS_ANY_ALL(long)

// ---------------------------------------------------------------------------
// bitselect and select
//
// Per element type: T, its signed and unsigned integer counterparts (bits
// for blending), and whether T is itself an integer type (the scalar select
// can then use C's ?: directly either way).
// ---------------------------------------------------------------------------

#define LS_SEL_WIDTH(T, IT, UT, N) \
  LS_OVLD T##N bitselect(T##N a, T##N b, T##N c) { \
    return as_##T##N((as_##UT##N(a) & ~as_##UT##N(c)) | (as_##UT##N(b) & as_##UT##N(c))); \
  } \
  LS_OVLD T##N select(T##N a, T##N b, IT##N c) { \
    UT##N m = as_##UT##N(c < (IT)0); \
    return as_##T##N((as_##UT##N(a) & ~m) | (as_##UT##N(b) & m)); \
  } \
  LS_OVLD T##N select(T##N a, T##N b, UT##N c) { return select(a, b, as_##IT##N(c)); }

#define LS_SEL_TYPE(T, IT, UT) \
  LS_OVLD T bitselect(T a, T b, T c) { \
    return as_##T((UT)((as_##UT(a) & ~as_##UT(c)) | (as_##UT(b) & as_##UT(c)))); \
  } \
  LS_OVLD T select(T a, T b, IT c) { return c ? b : a; } \
  LS_OVLD T select(T a, T b, UT c) { return c ? b : a; } \
  LS_SEL_WIDTH(T, IT, UT, 2) \
  LS_SEL_WIDTH(T, IT, UT, 3) \
  LS_SEL_WIDTH(T, IT, UT, 4) \
  LS_SEL_WIDTH(T, IT, UT, 8) \
  LS_SEL_WIDTH(T, IT, UT, 16)

LS_SEL_TYPE(char, char, uchar)
LS_SEL_TYPE(uchar, char, uchar)
LS_SEL_TYPE(short, short, ushort)
LS_SEL_TYPE(ushort, short, ushort)
LS_SEL_TYPE(int, int, uint)
LS_SEL_TYPE(uint, int, uint)
LS_SEL_TYPE(long, long, ulong)
LS_SEL_TYPE(ulong, long, ulong)
LS_SEL_TYPE(float, int, uint)
LS_SEL_TYPE(double, long, ulong)
LS_SEL_TYPE(half, short, ushort)
