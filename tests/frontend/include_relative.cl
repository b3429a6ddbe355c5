// Driver: relative #include of a header in include/ (macro + helper function).
#include "include/frontend_helpers.h"

kernel void include_relative(global int *out, global const int *in) {
    size_t i = get_global_id(0);
    out[i] = scale_add(in[i], SCALE);
}
