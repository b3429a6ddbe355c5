// Integer min/max/clamp: scalar forms for several widths, vector forms with
// vector and scalar (broadcast) bounds, unsigned vs signed ordering.
__kernel void int_minmax(__global const int4* a, __global const int4* b,
                         __global int4* res, __global uint* ures)
{
    int i = (int)get_global_id(0);
    int4 x = a[i];
    int4 y = b[i];
    res[4 * i + 0] = min(x, y) * 2 + max(x, y);
    res[4 * i + 1] = clamp(x, -100, 100);
    res[4 * i + 2] = clamp(x, min(y, (int4)(0)), max(y, (int4)(0)));
    res[4 * i + 3] = max(x, 7) - min(y, -7);
    uint4 ux = as_uint4(x);
    uint4 uy = as_uint4(y);
    uint4 m = min(ux, uy);
    ures[4 * i + 0] = m.x ^ m.y ^ m.z ^ m.w;
    ures[4 * i + 1] = max((uchar)x.x, (uchar)y.x) + 1000u * min((ushort)x.y, (ushort)y.y);
    ures[4 * i + 2] = (uint)clamp((char)x.z, (char)-20, (char)20) + 256u * clamp((ushort)y.z, (ushort)1000, (ushort)2000);
    ulong lm = max((ulong)ux.w * 3ul, (ulong)uy.w * 2ul);
    ures[4 * i + 3] = (uint)(lm >> 1) ^ (uint)clamp((long)x.w, -5000000L, 5000000L);
}
