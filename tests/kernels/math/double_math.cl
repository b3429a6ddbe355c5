// Double precision math: sqrt, cbrt, exp, log, sin, cos, atan2, pow, fma,
// hypot, fmod.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void double_math(__global const double* x, __global const double* y,
                          __global double* res)
{
    int i = (int)get_global_id(0);
    double a = x[i];      // positive, in [0.05, 20]
    double b = y[i];      // in [-4, 4]
    res[8 * i + 0] = sqrt(a) + cbrt(b);
    res[8 * i + 1] = exp(b) - log(a);
    res[8 * i + 2] = sin(a) * cos(b);
    res[8 * i + 3] = atan2(b, a - 10.0);
    res[8 * i + 4] = pow(a, b);
    res[8 * i + 5] = fma(a, b, 1.0 / 3.0);
    res[8 * i + 6] = hypot(a, b) + log10(a) * exp2(b);
    res[8 * i + 7] = fmod(a * 7.0, b + 5.0);
}
