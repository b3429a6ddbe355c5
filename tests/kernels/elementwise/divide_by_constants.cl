// Division and remainder by constants, which the code generator leaves to
// LLVM (shifts for powers of two, a multiplication otherwise): signed
// values of both signs by positive and negative divisors (the quotient
// rounds toward zero, the remainder takes the dividend's sign), unsigned
// values up to the type's maximum, 64-bit values by powers of two.
kernel void divide_by_constants(global const int *a, global const long *b,
                                global int *sres, global uint *ures, global long *lres)
{
    uint i = get_global_id(0);
    int x = a[i];
    uint ux = (uint)x;
    long y = b[i];
    sres[8 * i + 0] = x / 7;
    sres[8 * i + 1] = x % 7;
    sres[8 * i + 2] = x / -3;
    sres[8 * i + 3] = x % -3;
    sres[8 * i + 4] = x / 8;
    sres[8 * i + 5] = x % 8;
    sres[8 * i + 6] = (short)x / (short)5;
    sres[8 * i + 7] = (char)x % (char)-6;
    ures[4 * i + 0] = ux / 10u;
    ures[4 * i + 1] = ux % 10u;
    ures[4 * i + 2] = ux / 4096u;
    ures[4 * i + 3] = ux % 0x80000001u;
    lres[4 * i + 0] = y / 16;
    lres[4 * i + 1] = y % 16;
    lres[4 * i + 2] = (long)((ulong)y / 32ul);
    lres[4 * i + 3] = (long)((ulong)y % 32ul);
}
