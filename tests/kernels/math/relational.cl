// Relational builtins with NaN / Inf made inside the kernel: scalar forms
// return 1/0, vector forms -1/0; any/all test the sign bit; bitselect on
// floats and ints.
__kernel void relational(__global const float4* x, __global const float4* y,
                         __global int* res, __global float* fres)
{
    int i = (int)get_global_id(0);
    float4 a = x[i];
    float4 b = y[i];
    float nanv = as_float(0x7fc00000u);
    float infv = as_float(0x7f800000u);
    if (i % 4 == 1) a.y = nanv;
    if (i % 4 == 2) a.z = infv;
    if (i % 4 == 3) { a.w = -infv; b.x = nanv; }
    int4 r = isnan(a) * 1 + isinf(a) * 2 + isfinite(a) * 4 + isnormal(a) * 8
             + signbit(a) * 16;
    res[8 * i + 0] = r.x;
    res[8 * i + 1] = r.y;
    res[8 * i + 2] = r.z;
    res[8 * i + 3] = r.w;
    res[8 * i + 4] = isequal(a.x, b.x) + 2 * isnotequal(a.y, b.y) + 4 * isgreater(a.z, b.z)
                     + 8 * isgreaterequal(a.w, b.w) + 16 * isless(a.x, b.x)
                     + 32 * islessequal(a.y, b.y) + 64 * islessgreater(a.z, b.z);
    res[8 * i + 5] = isordered(a.x, b.x) + 2 * isunordered(a.y, b.y)
                     + 4 * isnan(a.w) + 8 * isinf(a.w) + 16 * signbit(b.x);
    int4 lt = isless(a, b);
    res[8 * i + 6] = any(lt) + 2 * all(lt) + 4 * any(isnan(a)) + 8 * all(isfinite(b))
                     + 16 * any(as_int4(b) & (int4)(0x7fffffff));
    uint4 mask = (uint4)(0xffff0000u, 0x0000ffffu, 0x80000000u, 0x7fffffffu);
    int4 bi = bitselect(as_int4(b), as_int4((float4)(1.0f, 2.0f, 3.0f, 4.0f)), as_int4(mask));
    res[8 * i + 7] = bi.x ^ bi.y ^ bi.z ^ bi.w;
    float4 bf = bitselect(b, (float4)(-0.0f), as_float4((uint4)(0x80000000u)));
    fres[2 * i] = bf.y + bf.z * 10.0f;
    fres[2 * i + 1] = select(bf.z, bf.w, isgreater(bf.z, bf.w)) * 0.5f;
}
