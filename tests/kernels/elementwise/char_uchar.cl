// 8-bit integer arithmetic: wraparound on narrowing, promotions to int,
// division/remainder with negative operands and shifts.  For scalar operands
// the shift count is taken modulo the width of the PROMOTED type (32 bits for
// char/uchar), not modulo 8.
__kernel void char_uchar(__global const char* a, __global const char* b,
                         __global char* cres, __global uchar* ures)
{
    int i = (int)get_global_id(0);
    char x = a[i];
    char y = b[i];
    uchar ux = (uchar)x;
    uchar uy = (uchar)y;
    char yd = (y == 0) ? (char)3 : y;
    cres[6 * i + 0] = (char)(x + y);
    cres[6 * i + 1] = (char)(x * y);
    cres[6 * i + 2] = x / yd;
    cres[6 * i + 3] = x % yd;
    cres[6 * i + 4] = x >> (uchar)(i + 5);     // count modulo 32
    cres[6 * i + 5] = (char)(ux << (uchar)(i % 11)); // int shift, then narrowed
    ures[4 * i + 0] = (uchar)(ux + uy);
    ures[4 * i + 1] = (uchar)(ux * uy);
    ures[4 * i + 2] = ux >> (uchar)(i % 9);    // counts 8 give 0
    ures[4 * i + 3] = (uchar)(ux - uy) / (uchar)((uy | 1u));
}
