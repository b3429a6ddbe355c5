// Half precision storage: vstore_half with every rounding mode (default is
// round-to-nearest-even), vstore_half4, vload_half / vload_half4 (exact).
#define N 16
__kernel void half_conv(__global const float* f, __global const ushort* h,
                        __global ushort* hout, __global float* fout)
{
    int i = (int)get_global_id(0);
    float x = f[i];
    __global half* hp = (__global half*)hout;
    vstore_half(x, i, hp);
    vstore_half_rtz(x, i, hp + N);
    vstore_half_rtp(x, i, hp + 2 * N);
    vstore_half_rtn(x, i, hp + 3 * N);
    vstore_half4((float4)(x, -x, x * 0.25f, 3.0f), i, hp + 4 * N);
    __global const half* hin = (__global const half*)h;
    float4 y = vload_half4(i, hin);
    fout[5 * i] = vload_half(i, hin);
    vstore4(y, 0, fout + 5 * i + 1);
}
