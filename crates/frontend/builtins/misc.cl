// misc.cl - builtins that fit no other unit.

#include "lockstep_internal.h"

// get_fence (OpenCL 2.0 generic address space): the fence flags for the
// memory a generic pointer points to. Lockstep does not track the address
// space behind a generic pointer at run time, so this returns both flags,
// which is a valid (if conservative) fence for either.
LS_OVLD cl_mem_fence_flags get_fence(const void *ptr) { return CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE; }
LS_OVLD cl_mem_fence_flags get_fence(void *ptr) { return CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE; }
