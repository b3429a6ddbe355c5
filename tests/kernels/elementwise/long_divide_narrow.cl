// 64-bit division whose operands often fit in 32 bits (the SIMD engine then
// divides in 32 bits, as doubles, after a test at run time): gangs of only
// small signed values (negatives, INT_MIN / -1), of unsigned values between
// 2^31 and 2^32 (too large for a signed 32-bit division), of mixed sizes, a
// division in divergent code whose inactive lanes hold wide values, and
// size_t ids divided by a ulong argument.
__kernel void long_divide_narrow(__global const long *a, __global const long *b,
                                 __global const int *pick, ulong d,
                                 __global long *sres, __global ulong *ures)
{
    size_t i = get_global_id(0);
    long x = a[i];
    long y = b[i];
    ulong ux = (ulong)x;
    ulong uy = (ulong)y;
    sres[4 * i + 0] = x / y;
    sres[4 * i + 1] = x % y;
    long q = -1;
    if (pick[i])
        q = x / y + x % 7;
    sres[4 * i + 2] = q;
    sres[4 * i + 3] = (long)i / (long)(pick[i] - 2);
    ures[3 * i + 0] = ux / (uy | 1UL);
    ures[3 * i + 1] = ux % d;
    ures[3 * i + 2] = i / d + i % d;
}
