// enqueue.cl - the ndrange_t builders of device-side enqueue.
//
// An ndrange_t is clang's struct: work dimension, then global offsets,
// global sizes and local sizes, three of each. A local size of 0 in every
// used dimension means "none given" (the device picks one); dimensions from
// the work dimension on hold offset 0 and sizes 1. enqueue_kernel itself,
// the device events and the kernel queries are core (the importer maps them
// to device enqueue operations, which the runtime carries out).

#include "lockstep_internal.h"

LS_HELPER ndrange_t ls_ndrange(uint dims, const size_t *offsets, const size_t *sizes,
                               const size_t *locals) {
  ndrange_t r;
  r.workDimension = dims;
  for (uint d = 0; d < MAX_WORK_DIM; d++) {
    r.globalWorkOffset[d] = (d < dims && offsets) ? offsets[d] : 0;
    r.globalWorkSize[d] = d < dims ? sizes[d] : 1;
    r.localWorkSize[d] = d < dims ? (locals ? locals[d] : 0) : 1;
  }
  return r;
}

LS_OVLD ndrange_t ndrange_1D(size_t gws) {
  return ls_ndrange(1, 0, &gws, 0);
}

LS_OVLD ndrange_t ndrange_1D(size_t gws, size_t lws) {
  return ls_ndrange(1, 0, &gws, &lws);
}

LS_OVLD ndrange_t ndrange_1D(size_t gwo, size_t gws, size_t lws) {
  return ls_ndrange(1, &gwo, &gws, &lws);
}

LS_OVLD ndrange_t ndrange_2D(const size_t gws[2]) {
  return ls_ndrange(2, 0, gws, 0);
}

LS_OVLD ndrange_t ndrange_2D(const size_t gws[2], const size_t lws[2]) {
  return ls_ndrange(2, 0, gws, lws);
}

LS_OVLD ndrange_t ndrange_2D(const size_t gwo[2], const size_t gws[2],
                             const size_t lws[2]) {
  return ls_ndrange(2, gwo, gws, lws);
}

LS_OVLD ndrange_t ndrange_3D(const size_t gws[3]) {
  return ls_ndrange(3, 0, gws, 0);
}

LS_OVLD ndrange_t ndrange_3D(const size_t gws[3], const size_t lws[3]) {
  return ls_ndrange(3, 0, gws, lws);
}

LS_OVLD ndrange_t ndrange_3D(const size_t gwo[3], const size_t gws[3],
                             const size_t lws[3]) {
  return ls_ndrange(3, gwo, gws, lws);
}
