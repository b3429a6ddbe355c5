// shuffle.cl - OpenCL C shuffle and shuffle2 (section 6.15.8, "Miscellaneous
// Vector Functions") for every element type and every input/output width
// in {2, 4, 8, 16}.
//
// Only the low log2(M) (shuffle) or log2(2M) (shuffle2) bits of each mask
// element are used. With a constant mask (the common case) the dynamic
// element indexing folds into a shufflevector after inlining.

#include "lockstep_internal.h"

#define LS_SHUFFLE_ONE(T, UT, M, N) \
  LS_OVLD T##N shuffle(T##M x, UT##N mask) { \
    T##N r; \
    for (int i = 0; i < N; ++i) r[i] = x[mask[i] & (UT)(M - 1)]; \
    return r; \
  } \
  LS_OVLD T##N shuffle2(T##M x, T##M y, UT##N mask) { \
    T##N r; \
    for (int i = 0; i < N; ++i) { \
      UT k = mask[i] & (UT)(2 * M - 1); \
      UT j = k & (UT)(M - 1); \
      r[i] = k < (UT)M ? x[j] : y[j]; \
    } \
    return r; \
  }

#define LS_SHUFFLE_M(T, UT, M) \
  LS_SHUFFLE_ONE(T, UT, M, 2) LS_SHUFFLE_ONE(T, UT, M, 4) LS_SHUFFLE_ONE(T, UT, M, 8) LS_SHUFFLE_ONE(T, UT, M, 16)
#define LS_SHUFFLE(T, UT) \
  LS_SHUFFLE_M(T, UT, 2) LS_SHUFFLE_M(T, UT, 4) LS_SHUFFLE_M(T, UT, 8) LS_SHUFFLE_M(T, UT, 16)

LS_SHUFFLE(char, uchar)
LS_SHUFFLE(uchar, uchar)
LS_SHUFFLE(short, ushort)
LS_SHUFFLE(ushort, ushort)
LS_SHUFFLE(int, uint)
LS_SHUFFLE(uint, uint)
LS_SHUFFLE(long, ulong)
LS_SHUFFLE(ulong, ulong)
LS_SHUFFLE(float, uint)
LS_SHUFFLE(double, ulong)
LS_SHUFFLE(half, ushort)
