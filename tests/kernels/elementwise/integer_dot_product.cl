// cl_khr_integer_dot_product: dot and dot_acc_sat of 8-bit 4-vectors in
// every signedness, and their packed forms (four bytes in a uint, byte 0
// the first component). The accumulating forms saturate; the inputs
// include the extremes (-128, 127, 255) and accumulators near the limits.
__kernel void integer_dot_product(__global const uint *a, __global const uint *b,
                                  __global const int *acc, __global int *res)
{
    int i = (int)get_global_id(0);
    uint x = a[i], y = b[i];
    int c = acc[i];
    uchar4 ux = as_uchar4(x), uy = as_uchar4(y);
    char4 sx = as_char4(x), sy = as_char4(y);
    res[12 * i + 0] = (int)dot(ux, uy);
    res[12 * i + 1] = dot(sx, sy);
    res[12 * i + 2] = dot(ux, sy);
    res[12 * i + 3] = dot(sx, uy);
    res[12 * i + 4] = (int)dot_acc_sat(ux, uy, (uint)c);
    res[12 * i + 5] = dot_acc_sat(sx, sy, c);
    res[12 * i + 6] = dot_acc_sat(ux, sy, c);
    res[12 * i + 7] = dot_acc_sat(sx, uy, c);
    res[12 * i + 8] = (int)dot_4x8packed_uu_uint(x, y) ^ dot_4x8packed_ss_int(x, y);
    res[12 * i + 9] = dot_4x8packed_us_int(x, y) ^ dot_4x8packed_su_int(x, y);
    res[12 * i + 10] = (int)dot_acc_sat_4x8packed_uu_uint(x, y, (uint)c) ^ dot_acc_sat_4x8packed_ss_int(x, y, c);
    res[12 * i + 11] = dot_acc_sat_4x8packed_us_int(x, y, c) ^ dot_acc_sat_4x8packed_su_int(x, y, c);
}
