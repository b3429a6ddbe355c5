// uchar16: saturating add, rhadd, abs_diff, per-component shifts (count
// modulo 8 for 8-bit vector elements), comparisons giving char16 -1/0.
__kernel void uchar16_ops(__global const uchar16* a, __global const uchar16* b,
                          __global uchar16* out, __global char16* cmp)
{
    int i = (int)get_global_id(0);
    uchar16 x = a[i];
    uchar16 y = b[i];
    out[2 * i] = add_sat(x, y);
    out[2 * i + 1] = (rhadd(x, y) ^ (x << (uchar16)((uchar)i))) + (abs_diff(x, y) >> (y & (uchar)3))
                     + (x >> y);
    cmp[i] = (x < y) | ((x == y) & (char16)2) | (as_char16(max(x, y)) & (char16)0x40);
}
