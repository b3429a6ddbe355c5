// 32-bit integer arithmetic: unsigned wraparound, signed arithmetic that
// stays in range, negation, bitwise mixes and comparisons.
__kernel void int_uint_arith(__global const uint* a, __global const uint* b,
                             __global uint* wrap, __global int* sres)
{
    int i = (int)get_global_id(0);
    uint x = a[i];
    uint y = b[i];
    wrap[6 * i + 0] = x + y;
    wrap[6 * i + 1] = x - y;
    wrap[6 * i + 2] = x * y;
    wrap[6 * i + 3] = -x;
    wrap[6 * i + 4] = (x * 2654435761u) ^ (y >> 3);
    wrap[6 * i + 5] = ~x + (y | 0x80000001u);

    int sx = (int)(x & 0xFFFFu) - 30000;     // in [-30000, 35535]
    int sy = (int)(y % 1000u) - 500;         // in [-500, 499]
    sres[4 * i + 0] = sx * sy;
    sres[4 * i + 1] = sx - 3 * sy;
    sres[4 * i + 2] = (sx < sy) ? sx : -sy;
    sres[4 * i + 3] = (sx > 0) + (sy >= 0) * 2 + (sx == sy) * 4 + ((x & 1u) != 0) * 8;
}
