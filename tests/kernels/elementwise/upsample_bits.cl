// upsample for every width (hi << bits | lo) and bitwise operators across
// signed and unsigned types.
__kernel void upsample_bits(__global const uint* a, __global const uint* b,
                            __global short* sres, __global int* ires,
                            __global long* lres, __global ulong* ures)
{
    int i = (int)get_global_id(0);
    uint x = a[i];
    uint y = b[i];
    sres[2 * i + 0] = upsample((char)x, (uchar)y);
    sres[2 * i + 1] = (short)(~(short)x & (short)y) ^ (short)0x5A5A;
    ires[2 * i + 0] = upsample((short)x, (ushort)y);
    ires[2 * i + 1] = (int)(((x | y) & ~(x & y)) - (x >> 3));
    lres[i] = upsample((int)x, y);
    ures[2 * i + 0] = upsample(x, y);
    ures[2 * i + 1] = upsample((uchar)(x >> 8), (uchar)y) * 65537UL + upsample((ushort)y, (ushort)x);
}
