// Saturating conversions: int->uchar/uint, float->char/short/int/uint (float
// to integer rounds toward zero unless a rounding suffix is given, NaN
// converts to 0), double->long.
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void convert_sat(__global const int4* a, __global const float4* f,
                          __global const double* d, __global uchar4* uc,
                          __global char4* sc, __global short4* ss,
                          __global int4* si, __global uint4* ui,
                          __global long* sl)
{
    int i = (int)get_global_id(0);
    int4 x = a[i];
    float4 y = f[i];
    uc[i] = convert_uchar4_sat(x);
    sc[i] = convert_char4_sat(y);
    ss[i] = convert_short4_sat_rte(y * 100.0f);
    float4 big = (i == 0) ? (float4)(as_float(0x7fc00000u), 1.0e10f, -1.0e10f, -0.75f)
                          : y * 1.0e8f;
    si[i] = convert_int4_sat(big);
    ui[2 * i] = convert_uint4_sat(x);
    ui[2 * i + 1] = convert_uint4_sat_rtp(y);
    sl[i] = convert_long_sat(d[i]);
}
