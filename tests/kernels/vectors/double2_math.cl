// double2 arithmetic, sqrt/fabs/dot/length on double2 and comparisons that
// produce long2 -1/0 components.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void double2_math(__global const double2* a, __global const double2* b,
                           __global double2* out, __global long2* cmp)
{
    int i = (int)get_global_id(0);
    double2 x = a[i];
    double2 y = b[i];
    out[3 * i] = x * y + (double2)(1.0, -1.0);
    out[3 * i + 1] = sqrt(fabs(x)) / (y * y + 1.0);
    out[3 * i + 2] = (double2)(dot(x, y), length(x - y));
    cmp[i] = (x < y) + (x >= (double2)(0.0)) * 2;
}
