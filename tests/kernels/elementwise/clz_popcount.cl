// Bit counting builtins on all integer widths, including zero and negative
// inputs: clz (clz(0) is the bit width), popcount and ctz.
__kernel void clz_popcount(__global const uint* a, __global const ulong* b,
                           __global int* res)
{
    int i = (int)get_global_id(0);
    uint x = a[i];
    ulong y = b[i];
    res[9 * i + 0] = clz(x);
    res[9 * i + 1] = clz((int)x);
    res[9 * i + 2] = clz((uchar)x);
    res[9 * i + 3] = clz((short)x);
    res[9 * i + 4] = (int)clz(y);
    res[9 * i + 5] = popcount(x);
    res[9 * i + 6] = popcount((char)x) + 100 * popcount((ushort)(x >> 8));
    res[9 * i + 7] = (int)popcount((long)y);
    res[9 * i + 8] = ctz(x) + 100 * (int)ctz(y);
}
