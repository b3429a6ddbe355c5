// Double precision elementwise arithmetic: mixed operations, int to double
// conversion, a Horner polynomial and a short accumulation loop.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void double_arith(__global const double* a, __global const double* b,
                           __global const int* k, __global double* res)
{
    int i = (int)get_global_id(0);
    double x = a[i];
    double y = b[i];
    res[4 * i + 0] = x * y - x / (y + 3.0);
    res[4 * i + 1] = ((0.25 * x - 1.5) * x + 2.0) * x - 0.75;
    double acc = 0.0;
    for (int j = 1; j <= k[i]; j++) {
        acc += 1.0 / ((double)j * (double)j);
    }
    res[4 * i + 2] = acc;
    res[4 * i + 3] = (double)k[i] * 1.0e10 + (x > y ? x : y) + (double)(long)(x * 100.0);
}
