// Shared helper for include_relative.cl: a macro and an inline function.
#define SCALE 3
static inline int scale_add(int a, int b) { return a * SCALE + b; }
