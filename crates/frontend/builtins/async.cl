// async.cl - OpenCL C async copies and prefetch (section 6.15.11):
// async_work_group_copy, async_work_group_strided_copy, wait_group_events,
// prefetch, for every element type and width.
//
// Lockstep has no copy engine, so an "async" copy is performed immediately:
// the work-items of the group split the elements between them, strided by
// the local linear id (work-item i copies elements i, i + L, i + 2L, ...
// where L is the work-group size), and the returned event is the one passed
// in. wait_group_events is a work-group barrier with global and local
// fences, which makes every work-item's share visible to the whole group -
// exactly the guarantee the spec gives after waiting on the events. Like
// the real functions, these must be reached by all work-items of the group
// with the same arguments. prefetch is a no-op.
//
// Two hooks the importer turns into IR marks for checked mode (they do
// nothing else): __lockstep_async_copied after a work-item's share of a
// copy (its arguments; it gives the copy's event), __lockstep_async_wait
// for each event of a wait, before its barrier. (Events by value: a list
// in memory would keep the kernel's event variables in private memory.) With them the checked
// interpreter finds copies that differ between work-items, waits for
// events no copy returned, and accesses to a copy's memory before the wait.

#include "lockstep_internal.h"

event_t LS_OVLD __lockstep_async_copied(__generic void *dst, const __generic void *src, size_t n,
                                        size_t src_stride, size_t dst_stride, event_t event,
                                        uint elem_size);
void LS_OVLD __lockstep_async_wait(event_t event);

LS_HELPER size_t ls_group_size(void) { return get_local_size(0) * get_local_size(1) * get_local_size(2); }

#define LS_ASYNC_ONE(T) \
  LS_OVLD event_t async_work_group_copy(__local T *dst, const __global T *src, size_t n, event_t event) { \
    size_t step = ls_group_size(); \
    for (size_t i = get_local_linear_id(); i < n; i += step) dst[i] = src[i]; \
    return __lockstep_async_copied(dst, src, n, 1, 1, event, sizeof(T)); \
  } \
  LS_OVLD event_t async_work_group_copy(__global T *dst, const __local T *src, size_t n, event_t event) { \
    size_t step = ls_group_size(); \
    for (size_t i = get_local_linear_id(); i < n; i += step) dst[i] = src[i]; \
    return __lockstep_async_copied(dst, src, n, 1, 1, event, sizeof(T)); \
  } \
  LS_OVLD event_t async_work_group_strided_copy(__local T *dst, const __global T *src, size_t n, \
                                                size_t src_stride, event_t event) { \
    size_t step = ls_group_size(); \
    for (size_t i = get_local_linear_id(); i < n; i += step) dst[i] = src[i * src_stride]; \
    return __lockstep_async_copied(dst, src, n, src_stride, 1, event, sizeof(T)); \
  } \
  LS_OVLD event_t async_work_group_strided_copy(__global T *dst, const __local T *src, size_t n, \
                                                size_t dst_stride, event_t event) { \
    size_t step = ls_group_size(); \
    for (size_t i = get_local_linear_id(); i < n; i += step) dst[i * dst_stride] = src[i]; \
    return __lockstep_async_copied(dst, src, n, 1, dst_stride, event, sizeof(T)); \
  } \
  LS_OVLD void prefetch(const __global T *p, size_t n) {}

#define LS_ASYNC(T) \
  LS_ASYNC_ONE(T) LS_ASYNC_ONE(T##2) LS_ASYNC_ONE(T##3) LS_ASYNC_ONE(T##4) LS_ASYNC_ONE(T##8) LS_ASYNC_ONE(T##16)
LS_FOR_ALL_TYPES(LS_ASYNC)

LS_OVLD void wait_group_events(int num_events, __private event_t *event_list) {
  for (int i = 0; i < num_events; i++) __lockstep_async_wait(event_list[i]);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
LS_OVLD void wait_group_events(int num_events, event_t *event_list) {
  for (int i = 0; i < num_events; i++) __lockstep_async_wait(event_list[i]);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
}
