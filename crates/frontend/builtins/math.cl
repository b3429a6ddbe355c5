// math.cl - OpenCL C math builtins (OpenCL C 3.0 section 6.15.2) for
// float, double and half, scalar and vector.
//
// Accuracy strategy (full-profile ULP table):
// * Functions with an LLVM intrinsic or a C libm entry point the importer
//   maps are thin wrappers (exp, log, sin, erf, hypot, ...): the
//   importer's implementation carries the accuracy. Near some range edges
//   the SIMD engine's (SLEEF's) does not; there acosh, asinh, log1p, cosh,
//   sinh, tgamma, pow, fmod and remainder change the operands of the call
//   and correct its result (see "Where the imported functions need help").
// * Exact functions (ilogb, ldexp, frexp, nextafter, fract, modf, remquo,
//   nan, fdim, maxmag, minmag) are written with integer/bit operations or
//   exact floating-point steps, not with libm.
// * Functions whose naive formula loses accuracy are done carefully:
//   sinpi/cospi/tanpi reduce the argument exactly; pown and float rootn
//   evaluate pow in double; double rootn splits off the exponent first;
//   the float *pi inverse functions evaluate in double.
// * half is computed through float (every half value is exactly a float, and
//   float has more than 2*11+2 bits, so correctly rounded float operations
//   rounded to half stay correctly rounded for + - * / sqrt); fma(half) uses
//   round-to-odd to avoid double rounding.

#include "lockstep_internal.h"

// ---------------------------------------------------------------------------
// Vector overloads for all float types
// ---------------------------------------------------------------------------

#define LS_FVEC1(F) LS_VEC1(float, F, float) LS_VEC1(double, F, double) LS_VEC1(half, F, half)
#define LS_FVEC2(F) LS_VEC2(float, F, float, float) LS_VEC2(double, F, double, double) LS_VEC2(half, F, half, half)
#define LS_FVEC3(F) \
  LS_VEC3(float, F, float, float, float) LS_VEC3(double, F, double, double, double) \
  LS_VEC3(half, F, half, half, half)

// half overloads computed through float.
#define LS_HALF_VIA_FLOAT1(F) LS_OVLD half F(half x) { return (half)F((float)x); }
#define LS_HALF_VIA_FLOAT2(F) LS_OVLD half F(half x, half y) { return (half)F((float)x, (float)y); }

// A builtin that is one clang builtin / libm call for float and double.
#define LS_UNARY_BUILTIN(F, B) \
  LS_OVLD float F(float x) { return __builtin_##B##f(x); } \
  LS_OVLD double F(double x) { return __builtin_##B(x); } \
  LS_HALF_VIA_FLOAT1(F) \
  LS_FVEC1(F)
#define LS_BINARY_BUILTIN(F, B) \
  LS_OVLD float F(float x, float y) { return __builtin_##B##f(x, y); } \
  LS_OVLD double F(double x, double y) { return __builtin_##B(x, y); } \
  LS_HALF_VIA_FLOAT2(F) \
  LS_FVEC2(F)

LS_UNARY_BUILTIN(acos, acos)
LS_UNARY_BUILTIN(asin, asin)
LS_UNARY_BUILTIN(atan, atan)
LS_UNARY_BUILTIN(atanh, atanh)
LS_UNARY_BUILTIN(cbrt, cbrt)
LS_UNARY_BUILTIN(ceil, ceil)
LS_UNARY_BUILTIN(cos, cos)
LS_UNARY_BUILTIN(erfc, erfc)
LS_UNARY_BUILTIN(erf, erf)
LS_UNARY_BUILTIN(exp, exp)
LS_UNARY_BUILTIN(exp2, exp2)
LS_UNARY_BUILTIN(exp10, exp10)
LS_UNARY_BUILTIN(expm1, expm1)
LS_UNARY_BUILTIN(fabs, fabs)
LS_UNARY_BUILTIN(floor, floor)
LS_UNARY_BUILTIN(lgamma, lgamma)
LS_UNARY_BUILTIN(log, log)
LS_UNARY_BUILTIN(log2, log2)
LS_UNARY_BUILTIN(log10, log10)
LS_UNARY_BUILTIN(rint, rint)
LS_UNARY_BUILTIN(round, round)
LS_UNARY_BUILTIN(sin, sin)
LS_UNARY_BUILTIN(sqrt, sqrt)
LS_UNARY_BUILTIN(tan, tan)
LS_UNARY_BUILTIN(tanh, tanh)
LS_UNARY_BUILTIN(trunc, trunc)

LS_BINARY_BUILTIN(atan2, atan2)
LS_BINARY_BUILTIN(copysign, copysign)
LS_BINARY_BUILTIN(hypot, hypot)

// fmax/fmin: IEEE maxNum/minNum (a NaN operand loses), also with a scalar
// second operand for vectors.
#define LS_FMINMAX(F, B) \
  LS_BINARY_BUILTIN(F, B) \
  LS_GEN2(float, F, V, float, S, float) \
  LS_GEN2(double, F, V, double, S, double) \
  LS_GEN2(half, F, V, half, S, half)
LS_FMINMAX(fmax, fmax)
LS_FMINMAX(fmin, fmin)

// rsqrt: two correctly rounded steps, <= 1.5 ulp (limit: 2 ulp).
LS_OVLD float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
LS_OVLD double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
LS_HALF_VIA_FLOAT1(rsqrt)
LS_FVEC1(rsqrt)

// ---------------------------------------------------------------------------
// Where the imported functions need help
//
// The SIMD engine implements the imported operations with SLEEF's vector
// functions, which give up near some range edges: they overflow in an
// intermediate (x*x, 1+x, e^|x|) below the point where the result does,
// lose bits in a subnormal intermediate, or stop reducing after a fixed
// number of steps. The functions below move such arguments to where the
// operation is accurate and correct the result exactly or within an ulp.
// Every lane computes one call of the operation; the rare arguments only
// change its operands and the selects around it (ls_sel). A per-lane
// branch would make the kernel's control flow divergent, and the SIMD
// engine would run all of it under masks. fmod and remainder are the
// exception: their rare path needs two more calls, which cost more than
// the masks. The scalar libm and the interpreter, which need none of
// this, get the same results within the ulp bounds.
// ---------------------------------------------------------------------------

// c ? a : b as a select. clang emits a ?: as a branch, and when LLVM sinks
// what only one arm uses into it before folding the branch, the branch
// stays; a helper is folded to a select before it is inlined.
LS_HELPER LS_OVLD float ls_sel(bool c, float a, float b) { return c ? a : b; }
LS_HELPER LS_OVLD double ls_sel(bool c, double a, double b) { return c ? a : b; }

// ln 2 = LS_LN2_HI + LS_LN2_LO (to 2^-109 / 2^-48 relative).
#define LS_LN2_HI 0x1.62e42fefa39efp-1
#define LS_LN2_LO 0x1.abc9e3b39803fp-56
#define LS_LN2_HI_F 0x1.62e430p-1f
#define LS_LN2_LO_F -0x1.05c610p-29f

// acosh and asinh of |x| >= 2^E0 (E0 = 40 for float, 400 for double)
// equal +-log(2|x|) to far below an ulp, and so F(x 2^-k) +- k ln2. SLEEF
// forms x*x and returns inf above sqrt(MAX). For the exponent e > E0 of x,
// k = e - E0 brings the operand into [2^E0, 2^(E0+1)); the scale 2^-k is
// built from x's exponent bits M (= 2^e) by an integer subtraction, and
// k ln2 goes back on through two fmas. Error: the call's, scaled down by
// the larger result, plus about one rounding (limit 4).
#define LS_ACOSH_ASINH(T, S, UT, IT, MBITS, EBITS, BIAS, E0, HI, LO) \
  LS_OVLD T acosh(T x) { \
    UT m = as_##UT(x) & EBITS; \
    bool big = m > ((UT)(BIAS + E0) << MBITS); \
    T scale = as_##T(((UT)(2 * BIAS + E0) << MBITS) - m); \
    T r = __builtin_acosh##S(ls_sel(big, x * scale, x)); \
    T k = (T)((IT)(m >> MBITS) - (BIAS + E0)); \
    return ls_sel(big, __builtin_fma##S(k, HI, __builtin_fma##S(k, LO, r)), r); \
  } \
  LS_OVLD T asinh(T x) { \
    UT m = as_##UT(x) & EBITS; \
    bool big = m > ((UT)(BIAS + E0) << MBITS); \
    T scale = as_##T(((UT)(2 * BIAS + E0) << MBITS) - m); \
    T r = __builtin_asinh##S(ls_sel(big, x * scale, x)); \
    T k = __builtin_copysign##S((T)((IT)(m >> MBITS) - (BIAS + E0)), x); \
    return ls_sel(big, __builtin_fma##S(k, HI, __builtin_fma##S(k, LO, r)), r); \
  }
LS_ACOSH_ASINH(float, f, uint, int, 23, 0x7f800000u, 127, 40, LS_LN2_HI_F, LS_LN2_LO_F)
LS_ACOSH_ASINH(double, , ulong, long, 52, 0x7ff0000000000000UL, 1023, 400, LS_LN2_HI, LS_LN2_LO)

// log1p of x > 2^T (T = 104 for float, 600 for double) is log(x) to far
// below an ulp, and so log1p(x 2^-S) + S ln2 (S = 64, 512: the operand
// stays above 2^40 / 2^88). SLEEF forms 1+x and returns inf above 1e38 /
// 1e307. S ln2 = C_HI + C_LO; error: the call's, scaled down by the larger
// result, plus 0.75 ulp (limit 2).
#define LS_LOG1P(T, S, BIG, SCALE, CHI, CLO) \
  LS_OVLD T log1p(T x) { \
    bool big = x > BIG; \
    T r = __builtin_log1p##S(ls_sel(big, x * SCALE, x)); \
    return ls_sel(big, (r + CLO) + CHI, r); \
  }
LS_LOG1P(float, f, 0x1p104f, 0x1p-64f, 0x1.62e430p+5f, -0x1.05c610p-23f)
LS_LOG1P(double, , 0x1p600, 0x1p-512, 0x1.62e42fefa39efp+8, 0x1.abc9e3b39803fp-47)
LS_HALF_VIA_FLOAT1(acosh)
LS_HALF_VIA_FLOAT1(asinh)
LS_HALF_VIA_FLOAT1(log1p)
LS_FVEC1(acosh)
LS_FVEC1(asinh)
LS_FVEC1(log1p)

// cosh and sinh of |x| > T (88 for float, 709 for double) are +-e^|x|/2 to
// far below an ulp, and so e F(|x| - 1) (the difference is exact; the
// neglected terms are below e^-2T). SLEEF's e^|x| overflows above
// ln(MAX) = 88.72 / 709.78 while the results stay finite up to 89.42 /
// 710.48; F(|x| - 1) does not. e = E_HI + E_LO, applied with one rounding
// (error: the call's plus 0.5 ulp; limit 4).
#define LS_COSH_SINH(T, S, BIG, EHI, ELO) \
  LS_OVLD T cosh(T x) { \
    T ax = __builtin_fabs##S(x); \
    bool big = ax > BIG; \
    T c = __builtin_cosh##S(ls_sel(big, ax - (T)1, x)); \
    T scaled = __builtin_fma##S(c, EHI, c * ELO); \
    return ls_sel(big, scaled, c); \
  } \
  LS_OVLD T sinh(T x) { \
    T ax = __builtin_fabs##S(x); \
    bool big = ax > BIG; \
    T s = __builtin_sinh##S(ls_sel(big, ax - (T)1, x)); \
    T scaled = __builtin_copysign##S(__builtin_fma##S(s, EHI, s * ELO), x); \
    return ls_sel(big, scaled, s); \
  }
LS_COSH_SINH(float, f, 88.0f, 0x1.5bf0a8p+1f, 0x1.628aeep-24f)
LS_COSH_SINH(double, , 709.0, 0x1.5bf0a8b145769p+1, 0x1.4d57ee2b1013ap-53)
LS_HALF_VIA_FLOAT1(cosh)
LS_HALF_VIA_FLOAT1(sinh)
LS_FVEC1(cosh)
LS_FVEC1(sinh)

// tgamma of x in (-43, -33) (float) or (-186, -170) (double): SLEEF
// computes the reflection pi / (sin(pi x) Gamma(1 - x)) through
// e^(ln pi - ln Gamma(1 - x)), which is subnormal there (Gamma(1 - x) is
// beyond MAX), and loses up to 10 bits. Gamma(x) = Gamma(x + N) / P with
// P = x (x+1) ... (x+N-1), N = 10 / 16, moves the call to where that
// intermediate is normal; the factors are exact (x + j keeps x's ulp) and
// P is carried as an unevaluated sum ph + pl of error-free products, so
// the division adds about one rounding. Below the range every result is
// +-0 and SLEEF's is too; integers give NaN either way.
#define LS_TGAMMA(T, S, LO, HI, N) \
  LS_OVLD T tgamma(T x) { \
    bool shift = (x > LO) & (x < HI); \
    T g = __builtin_tgamma##S(ls_sel(shift, x + (T)N, x)); \
    T ph = x, pl = (T)0; \
    for (int j = 1; j < N; j++) { \
      T f = x + (T)j; \
      T p = ph * f; \
      pl = __builtin_fma##S(ph, f, -p) + pl * f; \
      ph = p; \
    } \
    T q = g / ph; \
    T r = __builtin_fma##S(-q, pl / ph, q); \
    return ls_sel(shift, r, g); \
  }
LS_TGAMMA(float, f, -43.0f, -33.0f, 10)
LS_TGAMMA(double, , -186.0, -170.0, 16)
LS_HALF_VIA_FLOAT1(tgamma)
LS_FVEC1(tgamma)

// pow(x, y) for double near the top of the range: SLEEF's pow returns inf
// once y ln|x| exceeds 709.7827111, about 2e-6 below ln(DBL_MAX), so the
// last 2e-6 of the range overflows. Lanes where y log2|x| may reach 960
// take another form. y e + max(y, 0) bounds y log2|x| from above, with e
// the exponent field of x less 1023 (an exact double by the 2^52 trick;
// a subnormal x has log2|x| down to -1074, not -1023, which the margin
// from 1024 down to 960 covers). There, for |x| >= 2 and |y| < 2^53 (so
// y - 1 is exact): pow(x, y - 1) * x (the sign of a negative x follows,
// and pow(+-MAX, 1) is exact); otherwise pow(|x|, y/2)^2 with the sign of
// x for odd y, or pow(x, y/2)^2 for y not an integer (NaN for x < 0).
// Both keep the call's result a factor 2 or more inside the range. Error:
// the call's plus 0.5 ulp, or twice the call's plus 0.5 ulp (limit 16).
LS_HELPER double ls_pow(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  double e = as_double(((as_ulong(x) >> 52) & 0x7ff) | 0x4330000000000000UL) - (0x1p52 + 1023.0);
  double bound = __builtin_fma(y, e, ls_sel(y > 0.0, y, 0.0));
  double hy = 0.5 * y;
  bool yint = __builtin_trunc(y) == y;
  bool yodd = yint & (__builtin_trunc(hy) != hy);
  // Bitwise &: no short circuit becomes a branch.
  bool edge = (bound >= 960.0) & (ax < (double)INFINITY);
  bool step = edge & (ax >= 2.0) & (ay < 0x1p53);
  bool square = edge & !step;
  double h = __builtin_pow(ls_sel(square, ls_sel(yint, ax, x), x), ls_sel(square, hy, ls_sel(step, y - 1.0, y)));
  double sq = __builtin_copysign(h * h, ls_sel(yodd, x, 1.0));
  return ls_sel(step, h * x, ls_sel(square, sq, h));
}
LS_OVLD float pow(float x, float y) { return __builtin_powf(x, y); }
LS_OVLD double pow(double x, double y) { return ls_pow(x, y); }
LS_HALF_VIA_FLOAT2(pow)
LS_FVEC2(pow)

// fmod, remainder and remquo are exact for any operands, but SLEEF's vector
// fmod and remainder give NaN once |x| / |y| passes MAX (their quotient
// digits overflow) or their fixed number of steps runs out: beyond an
// exponent difference of about 1020 for double and 125 for float (it
// reaches 2097 and 276). |y| 2^k is a multiple of |y|, so
// x mod (|y| 2^k) = x mod |y|: with k the exponent difference less D (1000,
// 120), reducing by |y| 2^k leaves a difference of at most k, and two such
// steps leave at most D for the call. The estimated difference is never
// below the true one (a subnormal x counts as 2^-1022, a subnormal y as
// 2^-1074), and 2^k is applied as two exact factors; a step with nothing
// left to do gives the call operands it finishes at once (0 mod 1).
// Lanes with |x| > |y| 2^D (the product is exact or inf) are rare, so the
// steps run behind a branch: a select would cost every lane two more calls.
#define LS_MOD_PREREDUCE(T, S, UT, MBITS, BIAS, EMIN, D, TWO_D) \
  LS_HELPER T ls_mod_step_##T(T ax, T ay) { \
    int ebx = (int)(as_##UT(ax) >> MBITS), eby = (int)(as_##UT(ay) >> MBITS); \
    int diff = ((ebx > 0 ? ebx : 1) - BIAS) - (eby == 0 ? EMIN : eby - BIAS); \
    int k = diff - D; \
    int k1 = k >> 1; \
    T y1 = ay * as_##T((UT)(BIAS + k1) << MBITS) * as_##T((UT)(BIAS + k - k1) << MBITS); \
    T r = __builtin_fmod##S(k > 0 ? ax : (T)0, k > 0 ? y1 : (T)1); \
    return k > 0 ? r : ax; \
  } \
  LS_HELPER T ls_mod_prereduce_##T(T x, T y) { \
    T ay = __builtin_fabs##S(y); \
    if (__builtin_fabs##S(x) > ay * TWO_D) { \
      T ax = ls_mod_step_##T(ls_mod_step_##T(__builtin_fabs##S(x), ay), ay); \
      x = __builtin_copysign##S(ax, x); \
    } \
    return x; \
  }
LS_MOD_PREREDUCE(float, f, uint, 23, 127, -149, 120, 0x1p120f)
LS_MOD_PREREDUCE(double, , ulong, 52, 1023, -1074, 1000, 0x1p1000)

LS_OVLD float fmod(float x, float y) { return __builtin_fmodf(ls_mod_prereduce_float(x, y), y); }
LS_OVLD double fmod(double x, double y) { return __builtin_fmod(ls_mod_prereduce_double(x, y), y); }
LS_OVLD float remainder(float x, float y) { return __builtin_remainderf(ls_mod_prereduce_float(x, y), y); }
LS_OVLD double remainder(double x, double y) { return __builtin_remainder(ls_mod_prereduce_double(x, y), y); }
LS_HALF_VIA_FLOAT2(fmod)
LS_HALF_VIA_FLOAT2(remainder)
LS_FVEC2(fmod)
LS_FVEC2(remainder)

// ---------------------------------------------------------------------------
// fma and mad
// ---------------------------------------------------------------------------

LS_OVLD float fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
LS_OVLD double fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
// a*b is exact in float (11+11 <= 24 bits). The sum s = RN(p + c) with its
// exact error e (TwoSum) is turned into round-to-odd, which float's 13 extra
// bits then round correctly to half.
LS_OVLD half fma(half a, half b, half c) {
  float p = (float)a * (float)b;
  float fc = (float)c;
  float s = p + fc;
  float bb = s - p;
  float e = (p - (s - bb)) + (fc - bb);
  if (e != 0.0f && (as_uint(s) & 1u) == 0u && __builtin_isfinite(s)) {
    // Step to the odd neighbour on the side of the exact result.
    uint u = as_uint(s);
    bool away = (e > 0.0f) == (s > 0.0f);
    s = as_float(away ? u + 1u : u - 1u);
  }
  return (half)s;
}
LS_FVEC3(fma)

LS_OVLD float mad(float a, float b, float c) {
#pragma clang fp contract(on)
  return a * b + c;
}
LS_OVLD double mad(double a, double b, double c) {
#pragma clang fp contract(on)
  return a * b + c;
}
LS_OVLD half mad(half a, half b, half c) {
#pragma clang fp contract(on)
  return a * b + c;
}
LS_FVEC3(mad)

// ---------------------------------------------------------------------------
// Exact bit-level functions
// ---------------------------------------------------------------------------

// ilogb
LS_OVLD int ilogb(float x) {
  uint u = as_uint(x) & 0x7fffffffu;
  if (u >= 0x7f800000u) return u == 0x7f800000u ? INT_MAX : FP_ILOGBNAN;
  if (u == 0u) return FP_ILOGB0;
  if (u < 0x00800000u) return (31 - (int)__builtin_clz(u)) - 149;
  return (int)(u >> 23) - 127;
}
LS_OVLD int ilogb(double x) {
  ulong u = as_ulong(x) & 0x7fffffffffffffffUL;
  if (u >= 0x7ff0000000000000UL) return u == 0x7ff0000000000000UL ? INT_MAX : FP_ILOGBNAN;
  if (u == 0UL) return FP_ILOGB0;
  if (u < 0x0010000000000000UL) return (63 - (int)__builtin_clzl(u)) - 1074;
  return (int)(u >> 52) - 1023;
}
LS_OVLD int ilogb(half x) { return ilogb((float)x); }
LS_VEC1(int, ilogb, float) LS_VEC1(int, ilogb, double) LS_VEC1(int, ilogb, half)

// logb: the exponent as a floating-point value.
LS_OVLD float logb(float x) {
  float ax = __builtin_fabsf(x);
  if (ax == 0.0f) return -INFINITY;
  if (!__builtin_isfinite(ax)) return ax * ax; // +inf, or NaN
  return (float)ilogb(x);
}
LS_OVLD double logb(double x) {
  double ax = __builtin_fabs(x);
  if (ax == 0.0) return -(double)INFINITY;
  if (!__builtin_isfinite(ax)) return ax * ax;
  return (double)ilogb(x);
}
LS_HALF_VIA_FLOAT1(logb)
LS_FVEC1(logb)

// ldexp: musl's scalbn - at most three exact multiplications, the last one
// the only rounding step, so subnormal results are rounded once.
LS_OVLD float ldexp(float x, int n) {
  float y = x;
  if (n > 127) {
    y *= 0x1p127f;
    n -= 127;
    if (n > 127) {
      y *= 0x1p127f;
      n -= 127;
      if (n > 127) n = 127;
    }
  } else if (n < -126) {
    y *= 0x1p-126f * 0x1p24f;
    n += 126 - 24;
    if (n < -126) {
      y *= 0x1p-126f * 0x1p24f;
      n += 126 - 24;
      if (n < -126) n = -126;
    }
  }
  return y * as_float((uint)(0x7f + n) << 23);
}
LS_OVLD double ldexp(double x, int n) {
  double y = x;
  if (n > 1023) {
    y *= 0x1p1023;
    n -= 1023;
    if (n > 1023) {
      y *= 0x1p1023;
      n -= 1023;
      if (n > 1023) n = 1023;
    }
  } else if (n < -1022) {
    y *= 0x1p-1022 * 0x1p53;
    n += 1022 - 53;
    if (n < -1022) {
      y *= 0x1p-1022 * 0x1p53;
      n += 1022 - 53;
      if (n < -1022) n = -1022;
    }
  }
  return y * as_double((ulong)(0x3ff + n) << 52);
}
// The float result is exact unless it is below FLT_MIN, where the half
// result is +-0 either way.
LS_OVLD half ldexp(half x, int n) { return (half)ldexp((float)x, n); }
LS_GEN2(float, ldexp, V, float, V, int) LS_GEN2(float, ldexp, V, float, S, int)
LS_GEN2(double, ldexp, V, double, V, int) LS_GEN2(double, ldexp, V, double, S, int)
LS_GEN2(half, ldexp, V, half, V, int) LS_GEN2(half, ldexp, V, half, S, int)

// nan
LS_OVLD float nan(uint code) { return as_float(0x7fc00000u | (code & 0x003fffffu)); }
LS_OVLD double nan(ulong code) { return as_double(0x7ff8000000000000UL | (code & 0x0007ffffffffffffUL)); }
LS_OVLD half nan(ushort code) { return as_half((ushort)(0x7e00u | (code & 0x01ffu))); }
LS_VEC1(float, nan, uint) LS_VEC1(double, nan, ulong) LS_VEC1(half, nan, ushort)

// nextafter
LS_OVLD float nextafter(float x, float y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  if (x == y) return y;
  int ix = as_int(x);
  if ((ix & 0x7fffffff) == 0) return as_float((as_uint(y) & 0x80000000u) | 1u);
  ix += ((x < y) == (ix >= 0)) ? 1 : -1;
  return as_float(ix);
}
LS_OVLD double nextafter(double x, double y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  if (x == y) return y;
  long ix = as_long(x);
  if ((ix & 0x7fffffffffffffffL) == 0) return as_double((as_ulong(y) & 0x8000000000000000UL) | 1UL);
  ix += ((x < y) == (ix >= 0)) ? 1 : -1;
  return as_double(ix);
}
LS_OVLD half nextafter(half x, half y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  short ix = as_short(x);
  if ((ix & 0x7fff) == 0) return as_half((ushort)((as_ushort(y) & 0x8000u) | 1u));
  ix += ((x < y) == (ix >= 0)) ? 1 : -1;
  return as_half(ix);
}
LS_FVEC2(nextafter)

// fdim: x - y if x > y, +0 otherwise, NaN if either is NaN.
LS_OVLD float fdim(float x, float y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  return x > y ? x - y : 0.0f;
}
LS_OVLD double fdim(double x, double y) {
  if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y;
  return x > y ? x - y : 0.0;
}
LS_HALF_VIA_FLOAT2(fdim)
LS_FVEC2(fdim)

// maxmag/minmag
LS_OVLD float maxmag(float x, float y) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  return ax > ay ? x : (ay > ax ? y : __builtin_fmaxf(x, y));
}
LS_OVLD double maxmag(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  return ax > ay ? x : (ay > ax ? y : __builtin_fmax(x, y));
}
LS_OVLD float minmag(float x, float y) {
  float ax = __builtin_fabsf(x), ay = __builtin_fabsf(y);
  return ax < ay ? x : (ay < ax ? y : __builtin_fminf(x, y));
}
LS_OVLD double minmag(double x, double y) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  return ax < ay ? x : (ay < ax ? y : __builtin_fmin(x, y));
}
LS_HALF_VIA_FLOAT2(maxmag)
LS_HALF_VIA_FLOAT2(minmag)
LS_FVEC2(maxmag)
LS_FVEC2(minmag)

// ---------------------------------------------------------------------------
// Functions with a pointer result: fract, modf, frexp, sincos, lgamma_r,
// remquo. The __private scalar overload does the work.
// ---------------------------------------------------------------------------

// fract: fmin(x - floor(x), largest value below 1); fract(+-inf) = +-0.
LS_OVLD float fract(float x, __private float *iptr) {
  float fl = __builtin_floorf(x);
  *iptr = fl;
  if (__builtin_isnan(x)) return x;
  if (__builtin_isinf(x)) return __builtin_copysignf(0.0f, x);
  return __builtin_fminf(x - fl, 0x1.fffffep-1f);
}
LS_OVLD double fract(double x, __private double *iptr) {
  double fl = __builtin_floor(x);
  *iptr = fl;
  if (__builtin_isnan(x)) return x;
  if (__builtin_isinf(x)) return __builtin_copysign(0.0, x);
  return __builtin_fmin(x - fl, 0x1.fffffffffffffp-1);
}
// x - floor(x) is exact in float; rounding it to half can reach 1.0.
LS_OVLD half fract(half x, __private half *iptr) {
  float fi;
  half r = (half)fract((float)x, &fi);
  *iptr = (half)fi;
  return r == r ? (r < (half)0x1.ffcp-1 ? r : (half)0x1.ffcp-1) : r;
}
LS_PTR1_ALL(float, fract, float, float)
LS_PTR1_ALL(double, fract, double, double)
LS_PTR1_ALL(half, fract, half, half)

// modf: integral part through iptr, fractional part (sign of x) returned.
LS_OVLD float modf(float x, __private float *iptr) {
  float i = __builtin_truncf(x);
  *iptr = i;
  return __builtin_copysignf(__builtin_isinf(x) ? 0.0f : x - i, x);
}
LS_OVLD double modf(double x, __private double *iptr) {
  double i = __builtin_trunc(x);
  *iptr = i;
  return __builtin_copysign(__builtin_isinf(x) ? 0.0 : x - i, x);
}
LS_OVLD half modf(half x, __private half *iptr) {
  float fi;
  half r = (half)modf((float)x, &fi);
  *iptr = (half)fi;
  return r;
}
LS_PTR1_ALL(float, modf, float, float)
LS_PTR1_ALL(double, modf, double, double)
LS_PTR1_ALL(half, modf, half, half)

// frexp: mantissa in [0.5, 1) and exponent; 0, inf and NaN give exponent 0.
LS_OVLD float frexp(float x, __private int *e) {
  uint u = as_uint(x);
  uint a = u & 0x7fffffffu;
  if (a == 0u || a >= 0x7f800000u) {
    *e = 0;
    return x;
  }
  int adj = 0;
  if (a < 0x00800000u) {
    x *= 0x1p24f;
    u = as_uint(x);
    a = u & 0x7fffffffu;
    adj = -24;
  }
  *e = (int)(a >> 23) - 126 + adj;
  return as_float((u & 0x807fffffu) | 0x3f000000u);
}
LS_OVLD double frexp(double x, __private int *e) {
  ulong u = as_ulong(x);
  ulong a = u & 0x7fffffffffffffffUL;
  if (a == 0UL || a >= 0x7ff0000000000000UL) {
    *e = 0;
    return x;
  }
  int adj = 0;
  if (a < 0x0010000000000000UL) {
    x *= 0x1p54;
    u = as_ulong(x);
    a = u & 0x7fffffffffffffffUL;
    adj = -54;
  }
  *e = (int)(a >> 52) - 1022 + adj;
  return as_double((u & 0x800fffffffffffffUL) | 0x3fe0000000000000UL);
}
LS_OVLD half frexp(half x, __private int *e) { return (half)frexp((float)x, e); }
LS_PTR1_ALL(float, frexp, float, int)
LS_PTR1_ALL(double, frexp, double, int)
LS_PTR1_ALL(half, frexp, half, int)

// sincos
LS_OVLD float sincos(float x, __private float *c) {
  *c = __builtin_cosf(x);
  return __builtin_sinf(x);
}
LS_OVLD double sincos(double x, __private double *c) {
  *c = __builtin_cos(x);
  return __builtin_sin(x);
}
LS_OVLD half sincos(half x, __private half *c) {
  *c = (half)__builtin_cosf((float)x);
  return (half)__builtin_sinf((float)x);
}
LS_PTR1_ALL(float, sincos, float, float)
LS_PTR1_ALL(double, sincos, double, double)
LS_PTR1_ALL(half, sincos, half, half)

// lgamma_r: lgamma plus the sign of gamma(x). Gamma is positive for x > 0;
// on (-k-1, -k) its sign is (-1)^(k+1), i.e. negative when floor(x) is odd.
// At the poles (0 and negative integers) lgamma is +inf and the sign is
// reported as +1 (-1 for -0, matching 1/gamma(-0) = -inf).
#define LS_LGAMMA_R(T, S) \
  LS_OVLD T lgamma_r(T x, __private int *signp) { \
    T fl = __builtin_floor##S(x); \
    int sign = 1; \
    if (x == (T)0) { \
      sign = __builtin_signbit(x) ? -1 : 1; \
    } else if (x < (T)0 && fl != x) { \
      /* parity of floor(x): fmod(fl, 2) is exact */ \
      sign = __builtin_fmod##S(fl, (T)2) != (T)0 ? -1 : 1; \
    } \
    *signp = sign; \
    return __builtin_lgamma##S(x); \
  }
LS_LGAMMA_R(float, f)
LS_LGAMMA_R(double, )
LS_OVLD half lgamma_r(half x, __private int *signp) { return (half)lgamma_r((float)x, signp); }
LS_PTR1_ALL(float, lgamma_r, float, int)
LS_PTR1_ALL(double, lgamma_r, double, int)
LS_PTR1_ALL(half, lgamma_r, half, int)

// remquo: the exact IEEE remainder r = x - k*y (k nearest x/y, ties even)
// and the low 7 bits of |k| with the sign of x/y.
// fmod(|x|, 128|y|) keeps k mod 128 in r1 (for double operands pre-reduced
// like fmod's, for any exponent difference); fmod(r1, |y|) is the truncated
// remainder and (r1 - r) / |y| the small quotient 0..127, which is an
// integer computed with a relative error far below 0.5, so rint recovers it.
// Every step is exact in double for float and half operands, whose exponent
// differences need no pre-reduction.
LS_HELPER double ls_remquo(double x, double y, __private int *quo, bool wide) {
  double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
  double y128 = ay * 128.0;
  double r1 = ay <= 0x1.fffffffffffffp1016
                  ? __builtin_fmod(wide ? ls_mod_prereduce_double(ax, y128) : ax, y128)
                  : ax;
  double r = __builtin_fmod(r1, ay);
  if (__builtin_isnan(r)) {
    *quo = 0;
    return r;
  }
  int q = (int)__builtin_rint((r1 - r) / ay) & 127;
  if (__builtin_isinf(ay)) q = 0;
  bool above_half = ay < 0x1p-1021 ? 2.0 * r > ay : r > 0.5 * ay;
  bool at_half = ay < 0x1p-1021 ? 2.0 * r == ay : r == 0.5 * ay;
  if (above_half || (at_half && (q & 1))) {
    r -= ay;
    q = (q + 1) & 127;
  }
  bool neg_q = __builtin_signbit(x) != __builtin_signbit(y);
  *quo = neg_q ? -q : q;
  return __builtin_signbit(x) ? -r : r;
}
LS_OVLD double remquo(double x, double y, __private int *quo) { return ls_remquo(x, y, quo, true); }
LS_OVLD float remquo(float x, float y, __private int *quo) {
  return (float)ls_remquo((double)x, (double)y, quo, false);
}
LS_OVLD half remquo(half x, half y, __private int *quo) { return (half)ls_remquo((double)x, (double)y, quo, false); }
LS_PTR2_ALL(float, remquo, float, int)
LS_PTR2_ALL(double, remquo, double, int)
LS_PTR2_ALL(half, remquo, half, int)

// ---------------------------------------------------------------------------
// pown, powr, rootn
// ---------------------------------------------------------------------------

// pown: pow with an integer exponent (exact in double); pow's special cases
// for integral y are pown's. In double for float/half: <= 0.5 ulp + tiny.
LS_OVLD double pown(double x, int n) { return ls_pow(x, (double)n); }
LS_OVLD float pown(float x, int n) { return (float)__builtin_pow((double)x, (double)n); }
LS_OVLD half pown(half x, int n) { return (half)__builtin_pow((double)x, (double)n); }
LS_VEC2(float, pown, float, int) LS_VEC2(double, pown, double, int) LS_VEC2(half, pown, half, int)

// powr: x^y for x >= 0, as exp2(y * log2(x)) is defined: NaN for x < 0,
// 0^0, inf^0 and 1^inf, and NaN in, NaN out.
#define LS_POWR(T, S, POW) \
  LS_OVLD T powr(T x, T y) { \
    if (__builtin_isnan(x) || __builtin_isnan(y)) return x + y; \
    T ax = __builtin_fabs##S(x); \
    if (x < (T)0 || (ax == (T)0 && y == (T)0) || (__builtin_isinf(ax) && y == (T)0) || \
        (x == (T)1 && __builtin_isinf(y))) \
      return (T)NAN; \
    return POW(ax, y); \
  }
LS_POWR(float, f, __builtin_powf)
LS_POWR(double, , ls_pow)
LS_HALF_VIA_FLOAT2(powr)
LS_FVEC2(powr)

// rootn: x^(1/n). Sign and special cases first; then for float, pow in
// double (the error of 1/n in double moves the result by at most
// |ln x| * 2^-53 relative, far below a float ulp). For double, split
// x = m * 2^e with m in [1,2) and e = q*|n| + rem (0 <= rem < |n|):
// x^(1/n) = 2^(q*sign(n)) * m^(1/n) * 2^(rem/n), where both remaining powers
// have |log| < 1, so the rounding of 1/n and rem/n costs < 1 ulp.
LS_OVLD double rootn(double x, int n) {
  if (n == 0 || __builtin_isnan(x)) return (double)NAN + x;
  bool odd = (n & 1) != 0;
  if (x < 0.0 && !odd) return (double)NAN;
  double ax = __builtin_fabs(x);
  double r;
  if (n == 1) {
    r = ax;
  } else if (n == -1) {
    r = 1.0 / ax;
  } else if (n == 2) {
    r = __builtin_sqrt(ax);
  } else if (n == 3) {
    r = __builtin_cbrt(ax);
  } else if (ax == 0.0 || __builtin_isinf(ax)) {
    r = __builtin_pow(ax, 1.0 / (double)n); // 0 or inf, by the sign of n
  } else {
    int e = ilogb(ax);
    double m = ldexp(ax, -e);
    long an = n < 0 ? -(long)n : (long)n;
    long q = e >= 0 ? e / an : -((-(long)e + an - 1) / an);
    long rem = (long)e - q * an;
    r = __builtin_pow(m, 1.0 / (double)n) * __builtin_exp2((double)rem / (double)n);
    r = ldexp(r, (int)(n < 0 ? -q : q));
  }
  return (odd && __builtin_signbit(x)) ? -r : r;
}
LS_OVLD float rootn(float x, int n) {
  if (n == 0 || __builtin_isnan(x)) return NAN + x;
  bool odd = (n & 1) != 0;
  if (x < 0.0f && !odd) return NAN;
  double ax = (double)__builtin_fabsf(x);
  float r = (float)__builtin_pow(ax, 1.0 / (double)n);
  return (odd && __builtin_signbit(x)) ? -r : r;
}
LS_OVLD half rootn(half x, int n) { return (half)rootn((float)x, n); }
LS_VEC2(float, rootn, float, int) LS_VEC2(double, rootn, double, int) LS_VEC2(half, rootn, half, int)

// ---------------------------------------------------------------------------
// sinpi, cospi, tanpi
//
// x = k/2 + r with k = rint(2x) and |r| <= 1/4; r is exact (x and k/2 are
// both multiples of ulp(x) or of 1/2, and |r| is small). pi*r rounded once
// costs at most 0.5 ulp relative in the argument; with the reduced range the
// result error stays within 1.5-2.5 ulp (limits: 4, 4, 6).
// Beyond 2^(p-1) every value is an integer: sinpi = 0, tanpi = 0,
// cospi = +-1 by parity (even above 2^p).
// ---------------------------------------------------------------------------

// Returns r and the quadrant k mod 4 for |x| below 2^(p-1).
#define LS_PI_REDUCE(T, S, IT) \
  LS_HELPER T ls_pi_reduce_##T(T ax, __private int *quadrant) { \
    T k = __builtin_rint##S(ax * (T)2); \
    *quadrant = (int)((IT)k & (IT)3); \
    return ax - k * (T)0.5; \
  }
LS_PI_REDUCE(float, f, int)
LS_PI_REDUCE(double, , long)

#define LS_SINPI(T, S, PI, BIG, IT) \
  LS_OVLD T sinpi(T x) { \
    T ax = __builtin_fabs##S(x); \
    T res; \
    if (!__builtin_isfinite(ax)) { \
      res = (T)NAN; \
    } else if (ax >= BIG) { \
      res = (T)0; \
    } else { \
      int qd; \
      T r = ls_pi_reduce_##T(ax, &qd); \
      T p = r * PI; \
      T v = (qd & 1) ? __builtin_cos##S(p) : __builtin_sin##S(p); \
      res = (qd & 2) ? -v : v; \
      if (res == (T)0) res = (T)0; /* sinpi(n) = +0 for n > 0 */ \
    } \
    return __builtin_signbit(x) ? -res : res; \
  } \
  LS_OVLD T cospi(T x) { \
    T ax = __builtin_fabs##S(x); \
    if (!__builtin_isfinite(ax)) return (T)NAN; \
    if (ax >= BIG) return (ax < BIG * (T)2 && ((IT)ax & (IT)1)) ? (T)-1 : (T)1; \
    int qd; \
    T r = ls_pi_reduce_##T(ax, &qd); \
    T p = r * PI; \
    /* cos(pi (k/2 + r)): quadrants 0..3 give cos, -sin, -cos, sin */ \
    T v = (qd & 1) ? __builtin_sin##S(p) : __builtin_cos##S(p); \
    T res = (qd == 1 || qd == 2) ? -v : v; \
    return res == (T)0 ? (T)0 : res; /* cospi(n + 0.5) = +0 */ \
  } \
  LS_OVLD T tanpi(T x) { \
    T ax = __builtin_fabs##S(x); \
    T res; \
    if (!__builtin_isfinite(ax)) { \
      res = (T)NAN; \
    } else if (ax >= BIG) { \
      /* integer n: +0 for even n, -0 for odd n (before the sign of x) */ \
      res = (ax < BIG * (T)2 && ((IT)ax & (IT)1)) ? (T)-0.0 : (T)0; \
    } else { \
      int qd; \
      T r = ls_pi_reduce_##T(ax, &qd); \
      if (qd & 1) { \
        /* tan(pi (k/2 + r)) = -cot(pi r) for odd k */ \
        if (r == (T)0) res = qd == 1 ? (T)INFINITY : -(T)INFINITY; \
        else res = -(T)1 / __builtin_tan##S(r * PI); \
      } else if (r == (T)0) { \
        res = (qd & 2) ? (T)-0.0 : (T)0; \
      } else { \
        res = __builtin_tan##S(r * PI); \
      } \
    } \
    return __builtin_signbit(x) ? -res : res; \
  }
LS_SINPI(float, f, M_PI_F, 0x1p23f, int)
LS_SINPI(double, , M_PI, 0x1p52, long)
LS_HALF_VIA_FLOAT1(sinpi)
LS_HALF_VIA_FLOAT1(cospi)
LS_HALF_VIA_FLOAT1(tanpi)
LS_FVEC1(sinpi)
LS_FVEC1(cospi)
LS_FVEC1(tanpi)

// asinpi, acospi, atanpi, atan2pi: in double for float (0.5 ulp + tiny);
// for double, one extra rounding on top of the libm function (<= 2.5 ulp,
// limits 5, 5, 5, 6).
LS_OVLD float asinpi(float x) { return (float)(__builtin_asin((double)x) / M_PI); }
LS_OVLD float acospi(float x) { return (float)(__builtin_acos((double)x) / M_PI); }
LS_OVLD float atanpi(float x) { return (float)(__builtin_atan((double)x) / M_PI); }
LS_OVLD float atan2pi(float y, float x) { return (float)(__builtin_atan2((double)y, (double)x) / M_PI); }
LS_OVLD double asinpi(double x) { return __builtin_asin(x) * M_1_PI; }
LS_OVLD double acospi(double x) { return __builtin_acos(x) * M_1_PI; }
LS_OVLD double atanpi(double x) { return __builtin_atan(x) * M_1_PI; }
LS_OVLD double atan2pi(double y, double x) { return __builtin_atan2(y, x) * M_1_PI; }
LS_HALF_VIA_FLOAT1(asinpi)
LS_HALF_VIA_FLOAT1(acospi)
LS_HALF_VIA_FLOAT1(atanpi)
LS_HALF_VIA_FLOAT2(atan2pi)
LS_FVEC1(asinpi)
LS_FVEC1(acospi)
LS_FVEC1(atanpi)
LS_FVEC2(atan2pi)

// ---------------------------------------------------------------------------
// half_* and native_* (float only). half_* must be within 8192 ulp and
// native_* are implementation-defined; both use the full-precision versions
// except where a plain operation is already exact enough.
// ---------------------------------------------------------------------------

#define LS_ALIAS1(P, F) LS_OVLD float P##F(float x) { return F(x); } LS_VEC1(float, P##F, float)
#define LS_ALIAS2(P, F) LS_OVLD float P##F(float x, float y) { return F(x, y); } LS_VEC2(float, P##F, float, float)

LS_ALIAS1(half_, cos)
LS_ALIAS1(half_, exp)
LS_ALIAS1(half_, exp2)
LS_ALIAS1(half_, exp10)
LS_ALIAS1(half_, log)
LS_ALIAS1(half_, log2)
LS_ALIAS1(half_, log10)
LS_ALIAS1(half_, rsqrt)
LS_ALIAS1(half_, sin)
LS_ALIAS1(half_, sqrt)
LS_ALIAS1(half_, tan)
LS_ALIAS2(half_, powr)
LS_OVLD float half_recip(float x) { return 1.0f / x; }
LS_VEC1(float, half_recip, float)
LS_OVLD float half_divide(float x, float y) { return x / y; }
LS_VEC2(float, half_divide, float, float)

LS_ALIAS1(native_, cos)
LS_ALIAS1(native_, exp)
LS_ALIAS1(native_, exp2)
LS_ALIAS1(native_, exp10)
LS_ALIAS1(native_, log)
LS_ALIAS1(native_, log2)
LS_ALIAS1(native_, log10)
LS_ALIAS1(native_, rsqrt)
LS_ALIAS1(native_, sin)
LS_ALIAS1(native_, sqrt)
LS_ALIAS1(native_, tan)
LS_ALIAS2(native_, powr)
LS_OVLD float native_recip(float x) { return 1.0f / x; }
LS_VEC1(float, native_recip, float)
LS_OVLD float native_divide(float x, float y) { return x / y; }
LS_VEC2(float, native_divide, float, float)
