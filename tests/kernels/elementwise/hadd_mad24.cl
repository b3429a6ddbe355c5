// hadd / rhadd without intermediate overflow, mad24 / mul24 on 24-bit
// operands, mad_hi and mad_sat.
__kernel void hadd_mad24(__global const int* a, __global const int* b,
                         __global const int* c, __global int* res,
                         __global uint* ures)
{
    int i = (int)get_global_id(0);
    int x = a[i];
    int y = b[i];
    int z = c[i];
    res[6 * i + 0] = hadd(x, y);
    res[6 * i + 1] = rhadd(x, y);
    res[6 * i + 2] = mul24(x >> 9, y >> 24);
    res[6 * i + 3] = mad24(x >> 10, y >> 25, z);
    res[6 * i + 4] = mad_hi(x, y, z);
    res[6 * i + 5] = mad_sat(x >> 4, y >> 8, z);
    uint ux = (uint)x, uy = (uint)y;
    ures[5 * i + 0] = hadd(ux, uy);
    ures[5 * i + 1] = rhadd(ux, uy);
    ures[5 * i + 2] = hadd((uchar)x, (uchar)y) + 256u * rhadd((uchar)x, (uchar)y);
    ures[5 * i + 3] = mul24(ux & 0xFFFFFFu, uy & 0xFFu) + mad24(ux >> 8, 3u, 7u);
    ures[5 * i + 4] = mad_sat(ux, uy >> 20, (uint)z);
}
