// 64-bit integer arithmetic: ulong wraparound multiply/add, signed division
// and remainder with negative values, shifts modulo 64, sign extension from
// int and zero extension from uint.
__kernel void long_ulong(__global const long* a, __global const long* b,
                         __global const int* c, __global long* lres,
                         __global ulong* ures)
{
    int i = (int)get_global_id(0);
    long x = a[i];
    long y = b[i];
    int ci = c[i];
    ulong ux = (ulong)x;
    ulong uy = (ulong)y;
    lres[5 * i + 0] = x / y;
    lres[5 * i + 1] = x % y;
    lres[5 * i + 2] = x >> (i + 60);           // count modulo 64
    lres[5 * i + 3] = (long)ci * 3000000000L + x / 1000;
    lres[5 * i + 4] = (long)(uint)ci - (long)ci;
    ures[4 * i + 0] = ux * uy + 0x9E3779B97F4A7C15UL;
    ures[4 * i + 1] = ux >> (ulong)(i + 1);
    ures[4 * i + 2] = (ux << 17) | (uy >> 47);
    ures[4 * i + 3] = ux / (uy | 1UL) + ux % 1000003UL;
}
