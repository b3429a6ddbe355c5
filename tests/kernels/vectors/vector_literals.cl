// Vector literals built from scalars and smaller vectors, broadcast literals,
// and long2 comparisons producing -1/0.
__kernel void vector_literals(__global const int* s, __global int* out,
                              __global float* fout, __global long* lout)
{
    int i = (int)get_global_id(0);
    int x = s[i];
    int4 a = (int4)(x, (int2)(x + 1, x * 2), -x);
    int8 b = (int8)(a, (int4)(7));
    int8 c = (int8)((int2)(1, 2), a.zw, (int4)(x));
    int16 d = (int16)(b, c);
    vstore16(d + (int16)(x), i, out);
    float4 f = (float4)(1.5f) * (float4)((float2)((float)x, 0.5f), (float2)((float)-x));
    vstore4(f, i, fout);
    long2 l = (long2)((long)x) == (long2)(3L, 5L);
    lout[2 * i] = l.x;
    lout[2 * i + 1] = l.y + ((long2)(x, -x) > (long2)(0)).y * 10;
}
