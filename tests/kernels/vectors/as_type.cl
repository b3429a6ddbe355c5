// as_<type> reinterpretation between floats, integers and vectors of the same
// total size (little-endian byte order).
#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

__kernel void as_type(__global const float4* f, __global const uint* u,
                      __global const double* d, __global uint* bits,
                      __global uchar* bytes, __global float* fl,
                      __global long* lbits)
{
    int i = (int)get_global_id(0);
    float4 x = f[i];
    uint4 xb = as_uint4(x);
    vstore4(xb, i, bits);
    uint w = u[i];
    uchar4 by = as_uchar4(w);
    vstore4(by.wzyx, i, bytes);
    ushort2 hs = as_ushort2(w);
    fl[2 * i] = as_float((w & 0x007fffffu) | 0x40000000u);
    fl[2 * i + 1] = (float)hs.x - (float)hs.y;
    int2 di = as_int2(d[i]);
    char8 dc = as_char8(d[i]);
    lbits[2 * i] = as_long((int2)(di.y, di.x));
    lbits[2 * i + 1] = (long)dc.s7 * 1000 + as_short2(x.x).y;
}
