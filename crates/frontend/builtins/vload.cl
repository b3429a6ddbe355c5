// vload.cl - OpenCL C vector data load and store functions (section
// 6.15.7): vloadN/vstoreN for every element type, vload_half[N],
// vloada_half[N], vstore_half[N][_rte|_rtz|_rtp|_rtn] and vstorea_half[N][...],
// in every address space (the named ones for OpenCL 1.2 kernels, generic for
// 2.0/3.0 kernels, and __constant for loads).
//
// Loads and stores are element by element: vloadN only requires element
// alignment, and the importer turns each element access into a scalar
// memory operation anyway.
//
// Rounding float/double to half with _rtz/_rtp/_rtn uses the conversion
// hooks (see lockstep_builtins.cl); round-to-nearest-even is a plain cast.

#include "lockstep_internal.h"

half LS_HOOK_ATTRS __lockstep_convert_f_rtz(float);
half LS_HOOK_ATTRS __lockstep_convert_f_rtp(float);
half LS_HOOK_ATTRS __lockstep_convert_f_rtn(float);
half LS_HOOK_ATTRS __lockstep_convert_f_rtz(double);
half LS_HOOK_ATTRS __lockstep_convert_f_rtp(double);
half LS_HOOK_ATTRS __lockstep_convert_f_rtn(double);

// ---------------------------------------------------------------------------
// vloadN / vstoreN
// ---------------------------------------------------------------------------

#define LS_VLOAD_ONE(AS, T, N) \
  LS_OVLD T##N vload##N(size_t offset, const AS T *p) { \
    const AS T *q = p + offset * N; \
    T##N r; \
    for (int i = 0; i < N; ++i) r[i] = q[i]; \
    return r; \
  }
#define LS_VSTORE_ONE(AS, T, N) \
  LS_OVLD void vstore##N(T##N data, size_t offset, AS T *p) { \
    AS T *q = p + offset * N; \
    for (int i = 0; i < N; ++i) q[i] = data[i]; \
  }
#define LS_VLOADSTORE_N(T, N) LS_FOR_READABLE_AS(LS_VLOAD_ONE, T, N) LS_FOR_WRITABLE_AS(LS_VSTORE_ONE, T, N)
#define LS_VLOADSTORE(T) \
  LS_VLOADSTORE_N(T, 2) LS_VLOADSTORE_N(T, 3) LS_VLOADSTORE_N(T, 4) LS_VLOADSTORE_N(T, 8) LS_VLOADSTORE_N(T, 16)
LS_FOR_ALL_TYPES(LS_VLOADSTORE)

// ---------------------------------------------------------------------------
// vload_half / vloada_half: half in memory, float in registers (exact).
// ---------------------------------------------------------------------------

// STRIDE is the distance between consecutive vectors in elements: N, except
// for vloada_half3 / vstorea_half3, which use 4.
#define LS_VLOAD_HALF_ONE(AS, NAME, N, STRIDE) \
  LS_OVLD float##N NAME(size_t offset, const AS half *p) { \
    const AS half *q = p + offset * STRIDE; \
    float##N r; \
    for (int i = 0; i < N; ++i) r[i] = (float)q[i]; \
    return r; \
  }
#define LS_VLOAD_HALF_N(N, ASTRIDE) \
  LS_FOR_READABLE_AS(LS_VLOAD_HALF_ONE, vload_half##N, N, N) \
  LS_FOR_READABLE_AS(LS_VLOAD_HALF_ONE, vloada_half##N, N, ASTRIDE)

#define LS_VLOAD_HALF_SCALAR(AS, unused) \
  LS_OVLD float vload_half(size_t offset, const AS half *p) { return (float)p[offset]; }
LS_FOR_READABLE_AS(LS_VLOAD_HALF_SCALAR, )
LS_VLOAD_HALF_N(2, 2)
LS_VLOAD_HALF_N(3, 4)
LS_VLOAD_HALF_N(4, 4)
LS_VLOAD_HALF_N(8, 8)
LS_VLOAD_HALF_N(16, 16)

// ---------------------------------------------------------------------------
// vstore_half / vstorea_half
// ---------------------------------------------------------------------------

LS_HELPER half ls_to_half_rte(float x) { return (half)x; }
LS_HELPER half ls_to_half_rte_d(double x) { return (half)x; }
LS_HELPER half ls_to_half_rtz(float x) { return __lockstep_convert_f_rtz(x); }
LS_HELPER half ls_to_half_rtz_d(double x) { return __lockstep_convert_f_rtz(x); }
LS_HELPER half ls_to_half_rtp(float x) { return __lockstep_convert_f_rtp(x); }
LS_HELPER half ls_to_half_rtp_d(double x) { return __lockstep_convert_f_rtp(x); }
LS_HELPER half ls_to_half_rtn(float x) { return __lockstep_convert_f_rtn(x); }
LS_HELPER half ls_to_half_rtn_d(double x) { return __lockstep_convert_f_rtn(x); }

// SUF: "" or _rte/_rtz/_rtp/_rtn; CONV: the float and double (CONV##_d)
// rounding helpers.
#define LS_VSTORE_HALF_SCALAR(AS, SUF, CONV) \
  LS_OVLD void vstore_half##SUF(float data, size_t offset, AS half *p) { p[offset] = CONV(data); } \
  LS_OVLD void vstore_half##SUF(double data, size_t offset, AS half *p) { p[offset] = CONV##_d(data); }
#define LS_VSTORE_HALF_VEC(AS, NAME, N, STRIDE, CONV) \
  LS_OVLD void NAME(float##N data, size_t offset, AS half *p) { \
    AS half *q = p + offset * STRIDE; \
    for (int i = 0; i < N; ++i) q[i] = CONV(data[i]); \
  } \
  LS_OVLD void NAME(double##N data, size_t offset, AS half *p) { \
    AS half *q = p + offset * STRIDE; \
    for (int i = 0; i < N; ++i) q[i] = CONV##_d(data[i]); \
  }
#define LS_VSTORE_HALF_N(SUF, CONV, N, ASTRIDE) \
  LS_FOR_WRITABLE_AS(LS_VSTORE_HALF_VEC, vstore_half##N##SUF, N, N, CONV) \
  LS_FOR_WRITABLE_AS(LS_VSTORE_HALF_VEC, vstorea_half##N##SUF, N, ASTRIDE, CONV)
#define LS_VSTORE_HALF_ROUNDING(SUF, CONV) \
  LS_FOR_WRITABLE_AS(LS_VSTORE_HALF_SCALAR, SUF, CONV) \
  LS_VSTORE_HALF_N(SUF, CONV, 2, 2) \
  LS_VSTORE_HALF_N(SUF, CONV, 3, 4) \
  LS_VSTORE_HALF_N(SUF, CONV, 4, 4) \
  LS_VSTORE_HALF_N(SUF, CONV, 8, 8) \
  LS_VSTORE_HALF_N(SUF, CONV, 16, 16)

LS_VSTORE_HALF_ROUNDING(, ls_to_half_rte)
LS_VSTORE_HALF_ROUNDING(_rte, ls_to_half_rte)
LS_VSTORE_HALF_ROUNDING(_rtz, ls_to_half_rtz)
LS_VSTORE_HALF_ROUNDING(_rtp, ls_to_half_rtp)
LS_VSTORE_HALF_ROUNDING(_rtn, ls_to_half_rtn)
