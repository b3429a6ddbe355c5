// lockstep_internal.h - shared definitions for the Lockstep builtin library.
//
// Included by every unit of the library (see lockstep_builtins.cl for the
// contract). Holds the pragmas every unit needs, the type lists, and the
// macros that derive vector overloads from scalar ones.
//
// Vector overloads are componentwise: the width-2 and width-3 overloads call
// the scalar overload once per component; widths 4, 8 and 16 call the
// half-width overload on .lo and .hi. After inlining this is one scalar
// operation per component, which is what Lockstep's scalar IR wants.

#ifndef LOCKSTEP_INTERNAL_H
#define LOCKSTEP_INTERNAL_H

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// The library's algorithms (error-free transformations, exact reductions)
// rely on every a*b+c being rounded twice; `mad` opts back in locally.
#pragma OPENCL FP_CONTRACT OFF

#define LS_OVLD __attribute__((overloadable))
// Conversion hook declarations (see lockstep_builtins.cl): overloaded on the
// source type, and pure.
#define LS_HOOK_ATTRS __attribute__((overloadable, const))
// Internal helpers: internal linkage, so every unit may have its own copy.
#define LS_HELPER static inline

// ---------------------------------------------------------------------------
// Type lists
// ---------------------------------------------------------------------------

#define LS_FOR_INT_TYPES(M) \
  M(char) M(uchar) M(short) M(ushort) M(int) M(uint) M(long) M(ulong)
#define LS_FOR_FLOAT_TYPES(M) M(float) M(double) M(half)
#define LS_FOR_ALL_TYPES(M) LS_FOR_INT_TYPES(M) LS_FOR_FLOAT_TYPES(M)

// Pointer qualifiers a builtin with a pointer argument is overloaded on:
// the named address spaces (OpenCL 1.2, and 2.0/3.0 without the generic
// address space) and the generic one (no qualifier in OpenCL 2.0/3.0).
#define LS_FOR_NAMED_AS(M, ...) M(__global, __VA_ARGS__) M(__local, __VA_ARGS__) M(__private, __VA_ARGS__)
#define LS_FOR_WRITABLE_AS(M, ...) LS_FOR_NAMED_AS(M, __VA_ARGS__) M(, __VA_ARGS__)
#define LS_FOR_READABLE_AS(M, ...) LS_FOR_WRITABLE_AS(M, __VA_ARGS__) M(__constant, __VA_ARGS__)
// Address spaces other than __private, for "store through a private
// temporary" wrappers.
#define LS_FOR_NONPRIVATE_AS(M, ...) M(__global, __VA_ARGS__) M(__local, __VA_ARGS__) M(, __VA_ARGS__)

// ---------------------------------------------------------------------------
// Componentwise vector expansion
//
// Operand kinds: V = vector operand (split into components), S = scalar
// operand (passed unchanged to every component call, e.g. the bounds of
// `clamp(float4, float, float)`).
// ---------------------------------------------------------------------------

#define LS_TY_V(T, N) T##N
#define LS_TY_S(T, N) T
#define LS_CX_V(x, c) (x).c
#define LS_CX_S(x, c) (x)
#define LS_TY(K, T, N) LS_TY_##K(T, N)
#define LS_CX(K, x, c) LS_CX_##K(x, c)

#define LS_GEN1_N(R, F, K1, A1, N, LO, HI) \
  LS_OVLD R##N F(LS_TY(K1, A1, N) x) { return (R##N)(F(LS_CX(K1, x, LO)), F(LS_CX(K1, x, HI))); }
#define LS_GEN1(R, F, K1, A1) \
  LS_GEN1_N(R, F, K1, A1, 2, s0, s1) \
  LS_OVLD R##3 F(LS_TY(K1, A1, 3) x) { \
    return (R##3)(F(LS_CX(K1, x, s0)), F(LS_CX(K1, x, s1)), F(LS_CX(K1, x, s2))); } \
  LS_GEN1_N(R, F, K1, A1, 4, lo, hi) \
  LS_GEN1_N(R, F, K1, A1, 8, lo, hi) \
  LS_GEN1_N(R, F, K1, A1, 16, lo, hi)

#define LS_GEN2_N(R, F, K1, A1, K2, A2, N, LO, HI) \
  LS_OVLD R##N F(LS_TY(K1, A1, N) x, LS_TY(K2, A2, N) y) { \
    return (R##N)(F(LS_CX(K1, x, LO), LS_CX(K2, y, LO)), F(LS_CX(K1, x, HI), LS_CX(K2, y, HI))); }
#define LS_GEN2(R, F, K1, A1, K2, A2) \
  LS_GEN2_N(R, F, K1, A1, K2, A2, 2, s0, s1) \
  LS_OVLD R##3 F(LS_TY(K1, A1, 3) x, LS_TY(K2, A2, 3) y) { \
    return (R##3)(F(LS_CX(K1, x, s0), LS_CX(K2, y, s0)), F(LS_CX(K1, x, s1), LS_CX(K2, y, s1)), \
                  F(LS_CX(K1, x, s2), LS_CX(K2, y, s2))); } \
  LS_GEN2_N(R, F, K1, A1, K2, A2, 4, lo, hi) \
  LS_GEN2_N(R, F, K1, A1, K2, A2, 8, lo, hi) \
  LS_GEN2_N(R, F, K1, A1, K2, A2, 16, lo, hi)

#define LS_GEN3_N(R, F, K1, A1, K2, A2, K3, A3, N, LO, HI) \
  LS_OVLD R##N F(LS_TY(K1, A1, N) x, LS_TY(K2, A2, N) y, LS_TY(K3, A3, N) z) { \
    return (R##N)(F(LS_CX(K1, x, LO), LS_CX(K2, y, LO), LS_CX(K3, z, LO)), \
                  F(LS_CX(K1, x, HI), LS_CX(K2, y, HI), LS_CX(K3, z, HI))); }
#define LS_GEN3(R, F, K1, A1, K2, A2, K3, A3) \
  LS_GEN3_N(R, F, K1, A1, K2, A2, K3, A3, 2, s0, s1) \
  LS_OVLD R##3 F(LS_TY(K1, A1, 3) x, LS_TY(K2, A2, 3) y, LS_TY(K3, A3, 3) z) { \
    return (R##3)(F(LS_CX(K1, x, s0), LS_CX(K2, y, s0), LS_CX(K3, z, s0)), \
                  F(LS_CX(K1, x, s1), LS_CX(K2, y, s1), LS_CX(K3, z, s1)), \
                  F(LS_CX(K1, x, s2), LS_CX(K2, y, s2), LS_CX(K3, z, s2))); } \
  LS_GEN3_N(R, F, K1, A1, K2, A2, K3, A3, 4, lo, hi) \
  LS_GEN3_N(R, F, K1, A1, K2, A2, K3, A3, 8, lo, hi) \
  LS_GEN3_N(R, F, K1, A1, K2, A2, K3, A3, 16, lo, hi)

// Shorthands for the common all-vector shapes.
#define LS_VEC1(R, F, A) LS_GEN1(R, F, V, A)
#define LS_VEC2(R, F, A, B) LS_GEN2(R, F, V, A, V, B)
#define LS_VEC3(R, F, A, B, C) LS_GEN3(R, F, V, A, V, B, V, C)

// One result plus one value written through a pointer, e.g.
// `float4 fract(float4 x, __private float4 *iptr)`: the __private vector
// overloads are componentwise over the __private scalar overload; the
// other address spaces go through a __private temporary.
#define LS_PTR1_N(R, F, A, P, N, LO, HI, H) \
  LS_OVLD R##N F(A##N x, __private P##N *p) { \
    P##H plo, phi; \
    R##N r = (R##N)(F(x.LO, &plo), F(x.HI, &phi)); \
    *p = (P##N)(plo, phi); \
    return r; }
#define LS_PTR1_VEC(R, F, A, P) \
  LS_OVLD R##2 F(A##2 x, __private P##2 *p) { \
    P p0, p1; \
    R##2 r = (R##2)(F(x.s0, &p0), F(x.s1, &p1)); \
    *p = (P##2)(p0, p1); \
    return r; } \
  LS_OVLD R##3 F(A##3 x, __private P##3 *p) { \
    P p0, p1, p2; \
    R##3 r = (R##3)(F(x.s0, &p0), F(x.s1, &p1), F(x.s2, &p2)); \
    *p = (P##3)(p0, p1, p2); \
    return r; } \
  LS_PTR1_N(R, F, A, P, 4, lo, hi, 2) \
  LS_PTR1_N(R, F, A, P, 8, lo, hi, 4) \
  LS_PTR1_N(R, F, A, P, 16, lo, hi, 8)
#define LS_PTR1_AS_ONE(AS, R, F, A, P) \
  LS_OVLD R F(A x, AS P *p) { P t; R r = F(x, &t); *p = t; return r; }
#define LS_PTR1_AS(R, F, A, P) \
  LS_FOR_NONPRIVATE_AS(LS_PTR1_AS_ONE, R, F, A, P) \
  LS_FOR_NONPRIVATE_AS(LS_PTR1_AS_ONE, R##2, F, A##2, P##2) \
  LS_FOR_NONPRIVATE_AS(LS_PTR1_AS_ONE, R##3, F, A##3, P##3) \
  LS_FOR_NONPRIVATE_AS(LS_PTR1_AS_ONE, R##4, F, A##4, P##4) \
  LS_FOR_NONPRIVATE_AS(LS_PTR1_AS_ONE, R##8, F, A##8, P##8) \
  LS_FOR_NONPRIVATE_AS(LS_PTR1_AS_ONE, R##16, F, A##16, P##16)
// Everything for one pointer-output builtin and one element type, given
// the __private scalar overload.
#define LS_PTR1_ALL(R, F, A, P) LS_PTR1_VEC(R, F, A, P) LS_PTR1_AS(R, F, A, P)

// Same for two inputs (remquo).
#define LS_PTR2_N(R, F, A, P, N, LO, HI, H) \
  LS_OVLD R##N F(A##N x, A##N y, __private P##N *p) { \
    P##H plo, phi; \
    R##N r = (R##N)(F(x.LO, y.LO, &plo), F(x.HI, y.HI, &phi)); \
    *p = (P##N)(plo, phi); \
    return r; }
#define LS_PTR2_VEC(R, F, A, P) \
  LS_OVLD R##2 F(A##2 x, A##2 y, __private P##2 *p) { \
    P p0, p1; \
    R##2 r = (R##2)(F(x.s0, y.s0, &p0), F(x.s1, y.s1, &p1)); \
    *p = (P##2)(p0, p1); \
    return r; } \
  LS_OVLD R##3 F(A##3 x, A##3 y, __private P##3 *p) { \
    P p0, p1, p2; \
    R##3 r = (R##3)(F(x.s0, y.s0, &p0), F(x.s1, y.s1, &p1), F(x.s2, y.s2, &p2)); \
    *p = (P##3)(p0, p1, p2); \
    return r; } \
  LS_PTR2_N(R, F, A, P, 4, lo, hi, 2) \
  LS_PTR2_N(R, F, A, P, 8, lo, hi, 4) \
  LS_PTR2_N(R, F, A, P, 16, lo, hi, 8)
#define LS_PTR2_AS_ONE(AS, R, F, A, P) \
  LS_OVLD R F(A x, A y, AS P *p) { P t; R r = F(x, y, &t); *p = t; return r; }
#define LS_PTR2_AS(R, F, A, P) \
  LS_FOR_NONPRIVATE_AS(LS_PTR2_AS_ONE, R, F, A, P) \
  LS_FOR_NONPRIVATE_AS(LS_PTR2_AS_ONE, R##2, F, A##2, P##2) \
  LS_FOR_NONPRIVATE_AS(LS_PTR2_AS_ONE, R##3, F, A##3, P##3) \
  LS_FOR_NONPRIVATE_AS(LS_PTR2_AS_ONE, R##4, F, A##4, P##4) \
  LS_FOR_NONPRIVATE_AS(LS_PTR2_AS_ONE, R##8, F, A##8, P##8) \
  LS_FOR_NONPRIVATE_AS(LS_PTR2_AS_ONE, R##16, F, A##16, P##16)
#define LS_PTR2_ALL(R, F, A, P) LS_PTR2_VEC(R, F, A, P) LS_PTR2_AS(R, F, A, P)

#endif // LOCKSTEP_INTERNAL_H
