// geometric.cl - OpenCL C geometric functions (section 6.15.5): dot,
// cross, distance, length, normalize and the fast_* variants, for float,
// double and half of width 1, 2, 3 and 4.
//
// length/distance/normalize must not overflow or underflow in intermediate
// sums. float and half evaluate in a wider type (double, float) where the
// sum of squares cannot overflow or lose precision; double scales by a power
// of two chosen from the largest component first.

#include "lockstep_internal.h"

// ---------------------------------------------------------------------------
// dot and cross
// ---------------------------------------------------------------------------

#define LS_DOT(T) \
  LS_OVLD T dot(T a, T b) { return a * b; } \
  LS_OVLD T dot(T##2 a, T##2 b) { return a.x * b.x + a.y * b.y; } \
  LS_OVLD T dot(T##3 a, T##3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; } \
  LS_OVLD T dot(T##4 a, T##4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; } \
  LS_OVLD T##3 cross(T##3 a, T##3 b) { \
    return (T##3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x); \
  } \
  LS_OVLD T##4 cross(T##4 a, T##4 b) { \
    return (T##4)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x, (T)0); \
  }
LS_FOR_FLOAT_TYPES(LS_DOT)

// ---------------------------------------------------------------------------
// float and half: evaluate in the wider type WT
// ---------------------------------------------------------------------------

#define LS_GEOM_WIDE_N(T, WT, N) \
  LS_OVLD T length(T##N v) { \
    WT s = (WT)0; \
    for (int i = 0; i < N; ++i) s += (WT)v[i] * (WT)v[i]; \
    return (T)__builtin_sqrt((double)s); \
  } \
  LS_OVLD T distance(T##N p0, T##N p1) { \
    WT s = (WT)0; \
    for (int i = 0; i < N; ++i) { \
      WT d = (WT)p0[i] - (WT)p1[i]; \
      s += d * d; \
    } \
    return (T)__builtin_sqrt((double)s); \
  } \
  LS_OVLD T##N normalize(T##N v) { \
    bool has_inf = false, has_nan = false; \
    for (int i = 0; i < N; ++i) { \
      has_inf |= __builtin_isinf(v[i]); \
      has_nan |= v[i] != v[i]; \
    } \
    if (has_nan) return (T##N)((T)NAN); \
    WT w[N]; \
    for (int i = 0; i < N; ++i) \
      w[i] = has_inf ? (__builtin_isinf(v[i]) ? __builtin_copysign(1.0, (double)v[i]) : (WT)0 * (WT)v[i]) : (WT)v[i]; \
    WT s = (WT)0; \
    for (int i = 0; i < N; ++i) s += w[i] * w[i]; \
    if (s == (WT)0) return v; \
    WT l = (WT)__builtin_sqrt((double)s); \
    T##N r; \
    for (int i = 0; i < N; ++i) r[i] = (T)(w[i] / l); \
    return r; \
  }

#define LS_GEOM_WIDE(T, WT) \
  LS_OVLD T length(T x) { return (T)__builtin_fabs((double)x); } \
  LS_OVLD T distance(T p0, T p1) { return (T)__builtin_fabs((double)((WT)p0 - (WT)p1)); } \
  LS_OVLD T normalize(T x) { \
    if (x != x) return x; \
    if (x == (T)0) return x; \
    return x > (T)0 ? (T)1 : (T)-1; \
  } \
  LS_GEOM_WIDE_N(T, WT, 2) \
  LS_GEOM_WIDE_N(T, WT, 3) \
  LS_GEOM_WIDE_N(T, WT, 4)

LS_GEOM_WIDE(float, double)
LS_GEOM_WIDE(half, float)

// ---------------------------------------------------------------------------
// double: scale by 2^-e where 2^e ~ the largest magnitude
// ---------------------------------------------------------------------------

// 2^e for e in [-1022, 1023].
LS_HELPER double ls_pow2(int e) { return as_double((ulong)(e + 1023) << 52); }

// Exponent for scaling the components: ilogb of the largest magnitude,
// clamped so that both 2^e and 2^-e are normal numbers.
LS_HELPER int ls_scale_exp(double m) {
  int e = (int)((as_ulong(m) >> 52) & 0x7ffUL) - 1023;
  return e < -1022 ? -1022 : (e > 1022 ? 1022 : e);
}

#define LS_GEOM_DOUBLE_N(N) \
  LS_HELPER double ls_length_d##N(double##N v) { \
    double m = 0.0; \
    bool has_nan = false; \
    for (int i = 0; i < N; ++i) { \
      m = __builtin_fmax(m, __builtin_fabs(v[i])); \
      has_nan |= v[i] != v[i]; \
    } \
    if (__builtin_isinf(m)) return m; \
    if (has_nan) return (double)NAN; \
    if (m == 0.0) return 0.0; \
    int e = ls_scale_exp(m); \
    double down = ls_pow2(-e); \
    double s = 0.0; \
    for (int i = 0; i < N; ++i) { \
      double t = v[i] * down; \
      s += t * t; \
    } \
    return __builtin_sqrt(s) * ls_pow2(e); \
  } \
  LS_OVLD double length(double##N v) { return ls_length_d##N(v); } \
  LS_OVLD double distance(double##N p0, double##N p1) { return ls_length_d##N(p0 - p1); } \
  LS_OVLD double##N normalize(double##N v) { \
    double m = 0.0; \
    bool has_nan = false; \
    for (int i = 0; i < N; ++i) { \
      m = __builtin_fmax(m, __builtin_fabs(v[i])); \
      has_nan |= v[i] != v[i]; \
    } \
    if (has_nan) return (double##N)((double)NAN); \
    if (m == 0.0) return v; \
    double##N w = v; \
    if (__builtin_isinf(m)) { \
      for (int i = 0; i < N; ++i) \
        w[i] = __builtin_isinf(v[i]) ? __builtin_copysign(1.0, v[i]) : 0.0 * v[i]; \
    } else { \
      double down = ls_pow2(-ls_scale_exp(m)); \
      for (int i = 0; i < N; ++i) w[i] = v[i] * down; \
    } \
    double s = 0.0; \
    for (int i = 0; i < N; ++i) s += w[i] * w[i]; \
    double l = __builtin_sqrt(s); \
    for (int i = 0; i < N; ++i) w[i] = w[i] / l; \
    return w; \
  }

LS_OVLD double length(double x) { return __builtin_fabs(x); }
LS_OVLD double distance(double p0, double p1) { return __builtin_fabs(p0 - p1); }
LS_OVLD double normalize(double x) {
  if (x != x) return x;
  if (x == 0.0) return x;
  return x > 0.0 ? 1.0 : -1.0;
}
LS_GEOM_DOUBLE_N(2)
LS_GEOM_DOUBLE_N(3)
LS_GEOM_DOUBLE_N(4)

// ---------------------------------------------------------------------------
// fast_* (float only, 8192 ulp): straightforward float arithmetic.
// ---------------------------------------------------------------------------

LS_OVLD float fast_length(float x) { return __builtin_fabsf(x); }
LS_OVLD float fast_distance(float p0, float p1) { return __builtin_fabsf(p0 - p1); }
LS_OVLD float fast_normalize(float x) { return normalize(x); }

#define LS_FAST_N(N) \
  LS_OVLD float fast_length(float##N v) { return __builtin_sqrtf(dot(v, v)); } \
  LS_OVLD float fast_distance(float##N p0, float##N p1) { return fast_length(p0 - p1); } \
  LS_OVLD float##N fast_normalize(float##N v) { \
    float s = dot(v, v); \
    if (s == 0.0f) return v; \
    return v * (1.0f / __builtin_sqrtf(s)); \
  }
LS_FAST_N(2)
LS_FAST_N(3)
LS_FAST_N(4)
