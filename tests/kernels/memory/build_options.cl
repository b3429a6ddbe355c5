// Build options from build_options.options (-D macros) and a null buffer
// argument: the kernel checks the pointer and skips the optional input.
#ifndef TAPS
#error "TAPS must be defined by the build options"
#endif

__kernel void build_options(__global const int* in, __global const int* bias,
                            __global const int* extra, __global int* out)
{
    int i = (int)get_global_id(0);
    int n = (int)get_global_size(0);
    int acc = 0;
    for (int t = 0; t < TAPS; t++)
        acc += in[(i + t) % n] * (t + 1);
    if (bias != 0)
        acc += bias[i];
    if (extra != 0)
        acc += extra[i] * 1000;
    out[i] = acc * SCALE;
}
