// Rounding-mode conversions: float->int with _rte/_rtz/_rtp/_rtn (ties to
// even for rte), int->float and double->float with every rounding mode
// (results dumped as raw bits).
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void convert_round(__global const float4* f, __global const int* big,
                            __global const double* d, __global int4* ir,
                            __global uint* fbits)
{
    int i = (int)get_global_id(0);
    float4 x = f[i];
    ir[4 * i + 0] = convert_int4_rte(x);
    ir[4 * i + 1] = convert_int4(x);
    ir[4 * i + 2] = convert_int4_rtp(x);
    ir[4 * i + 3] = convert_int4_rtn(x);
    int b = big[i];
    fbits[6 * i + 0] = as_uint(convert_float_rte(b));
    fbits[6 * i + 1] = as_uint(convert_float_rtz(b));
    fbits[6 * i + 2] = as_uint(convert_float_rtp(b));
    fbits[6 * i + 3] = as_uint(convert_float_rtn(b));
    fbits[6 * i + 4] = as_uint(convert_float_rtn(d[i]));
    fbits[6 * i + 5] = as_uint(convert_float_rtp(d[i])) ^ as_uint(convert_float_rtz(d[i]));
}
