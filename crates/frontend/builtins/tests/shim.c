// shim.c - the "core" functions the builtin library leaves undefined,
// implemented natively for native_check.py: one work-item at a time, a
// 1-D NDRange with work-groups of one work-item (so barriers are no-ops).
// The conversion hooks are not provided: one hook symbol serves several
// return types, which a C definition cannot (the tests avoid them).

#include <stddef.h>
#include <stdio.h>
#include <stdarg.h>

static size_t g_id, g_size;

#define CORE1(NAME, SYM, EXPR) \
  size_t NAME(unsigned d) __asm__(SYM); \
  size_t NAME(unsigned d) { return EXPR; }
CORE1(get_global_id, "_Z13get_global_idj", d == 0 ? g_id : 0)
CORE1(get_global_size, "_Z15get_global_sizej", d == 0 ? g_size : 1)
CORE1(get_local_id, "_Z12get_local_idj", 0)
CORE1(get_local_size, "_Z14get_local_sizej", 1)
CORE1(get_enqueued_local_size, "_Z23get_enqueued_local_sizej", 1)
CORE1(get_group_id, "_Z12get_group_idj", d == 0 ? g_id : 0)
CORE1(get_num_groups, "_Z14get_num_groupsj", d == 0 ? g_size : 1)
CORE1(get_global_offset, "_Z17get_global_offsetj", 0)

size_t get_local_linear_id(void) __asm__("_Z19get_local_linear_idv");
size_t get_local_linear_id(void) { return 0; }
size_t get_global_linear_id(void) __asm__("_Z20get_global_linear_idv");
size_t get_global_linear_id(void) { return g_id; }
unsigned get_work_dim(void) __asm__("_Z12get_work_dimv");
unsigned get_work_dim(void) { return 1; }
void barrier(unsigned flags) __asm__("_Z7barrierj");
void barrier(unsigned flags) { (void)flags; }

typedef void (*kernel_fn)(void *, void *, void *, void *, void *);

// Runs `kernel` for global ids 0..n-1 with up to five buffer arguments
// (extra arguments are ignored by kernels that take fewer).
void lockstep_run(kernel_fn kernel, size_t n, void *a, void *b, void *c, void *d, void *e) {
  g_size = n;
  for (size_t i = 0; i < n; ++i) {
    g_id = i;
    kernel(a, b, c, d, e);
  }
}
