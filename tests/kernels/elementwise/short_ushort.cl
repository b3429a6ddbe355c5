// 16-bit integer arithmetic: wraparound, promotions, division by negative
// divisors, shifts (count modulo 32 after promotion to int), conversion
// between short and ushort.
__kernel void short_ushort(__global const short* a, __global const short* b,
                           __global short* sres, __global ushort* ures)
{
    int i = (int)get_global_id(0);
    short x = a[i];
    short y = b[i];
    ushort ux = (ushort)x;
    ushort uy = (ushort)y;
    short yd = (y == 0) ? (short)-7 : y;
    sres[5 * i + 0] = (short)(x + y);
    sres[5 * i + 1] = (short)(x * y);
    sres[5 * i + 2] = x / yd;
    sres[5 * i + 3] = x % yd;
    sres[5 * i + 4] = x >> (short)(i + 14);     // count modulo 32
    ures[4 * i + 0] = (ushort)(ux * uy);
    ures[4 * i + 1] = (ushort)(ux - uy);
    ures[4 * i + 2] = (ushort)(ux << (ushort)(i % 16));
    ures[4 * i + 3] = ux / (ushort)(uy | 1u) + ux % (ushort)(uy | 1u);
}
