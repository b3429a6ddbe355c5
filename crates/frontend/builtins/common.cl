// common.cl - OpenCL C common functions (section 6.15.4) for float, double
// and half: clamp, degrees, max, min, mix, radians, step, smoothstep, sign.

#include "lockstep_internal.h"

#define LS_COMMON_SCALAR(T, S) \
  LS_OVLD T clamp(T x, T lo, T hi) { return __builtin_fmin##S(__builtin_fmax##S(x, lo), hi); } \
  LS_OVLD T degrees(T r) { return r * (T)(180.0 / M_PI); } \
  LS_OVLD T radians(T d) { return d * (T)(M_PI / 180.0); } \
  LS_OVLD T max(T x, T y) { return __builtin_fmax##S(x, y); } \
  LS_OVLD T min(T x, T y) { return __builtin_fmin##S(x, y); } \
  LS_OVLD T mix(T x, T y, T a) { return x + (y - x) * a; } \
  LS_OVLD T step(T edge, T x) { return x < edge ? (T)0 : (T)1; } \
  LS_OVLD T smoothstep(T e0, T e1, T x) { \
    T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1); \
    return t * t * ((T)3 - (T)2 * t); \
  } \
  LS_OVLD T sign(T x) { \
    if (__builtin_isnan(x)) return (T)0; \
    return x > (T)0 ? (T)1 : (x < (T)0 ? (T)-1 : x); \
  }

LS_COMMON_SCALAR(float, f)
LS_COMMON_SCALAR(double, )

// half through float: the operations above stay exact or correctly rounded
// enough (degrees/radians/mix/smoothstep have loose bounds).
LS_OVLD half clamp(half x, half lo, half hi) { return (half)clamp((float)x, (float)lo, (float)hi); }
LS_OVLD half degrees(half r) { return (half)degrees((float)r); }
LS_OVLD half radians(half d) { return (half)radians((float)d); }
LS_OVLD half max(half x, half y) { return (half)max((float)x, (float)y); }
LS_OVLD half min(half x, half y) { return (half)min((float)x, (float)y); }
LS_OVLD half mix(half x, half y, half a) { return (half)mix((float)x, (float)y, (float)a); }
LS_OVLD half step(half edge, half x) { return x < edge ? (half)0 : (half)1; }
LS_OVLD half smoothstep(half e0, half e1, half x) { return (half)smoothstep((float)e0, (float)e1, (float)x); }
LS_OVLD half sign(half x) { return (half)sign((float)x); }

#define LS_COMMON_VEC(T) \
  LS_VEC3(T, clamp, T, T, T) LS_GEN3(T, clamp, V, T, S, T, S, T) \
  LS_VEC1(T, degrees, T) \
  LS_VEC1(T, radians, T) \
  LS_VEC2(T, max, T, T) LS_GEN2(T, max, V, T, S, T) \
  LS_VEC2(T, min, T, T) LS_GEN2(T, min, V, T, S, T) \
  LS_VEC3(T, mix, T, T, T) LS_GEN3(T, mix, V, T, V, T, S, T) \
  LS_VEC2(T, step, T, T) LS_GEN2(T, step, S, T, V, T) \
  LS_VEC3(T, smoothstep, T, T, T) LS_GEN3(T, smoothstep, S, T, S, T, V, T) \
  LS_VEC1(T, sign, T)

LS_FOR_FLOAT_TYPES(LS_COMMON_VEC)
