// int8 vector integer ops: division/remainder, comparisons producing -1/0 per
// component, vector shifts (count modulo 32 per component), min/max/abs.
__kernel void int8_ops(__global const int8* a, __global const int8* b,
                       __global int8* out)
{
    int i = (int)get_global_id(0);
    int8 x = a[i];
    int8 y = b[i];
    int8 d = y | 1;
    out[4 * i + 0] = x / d + x % d;
    out[4 * i + 1] = (x > y) * 3 + (x == y) + ((x & 1) != 0) * 100;
    out[4 * i + 2] = (x >> y) ^ as_int8(as_uint8(x) << as_uint8(y));
    out[4 * i + 3] = max(x, y) - min(x, y) / 3 + (int8)(i) * (x < (int8)(0));
}
