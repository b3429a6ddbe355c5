// mul_hi for every integer width and rotate with counts beyond the width and
// negative counts (only the low log2(width) bits of the count are used).
__kernel void mul_hi_rotate(__global const int* a, __global const int* b,
                            __global const long* la, __global const long* lb,
                            __global int* ires, __global long* lres)
{
    int i = (int)get_global_id(0);
    int x = a[i];
    int y = b[i];
    ires[8 * i + 0] = mul_hi(x, y);
    ires[8 * i + 1] = (int)mul_hi((uint)x, (uint)y);
    ires[8 * i + 2] = mul_hi((short)x, (short)y);
    ires[8 * i + 3] = mul_hi((ushort)x, (ushort)y);
    ires[8 * i + 4] = mul_hi((char)x, (char)y);
    ires[8 * i + 5] = mul_hi((uchar)x, (uchar)y);
    ires[8 * i + 6] = rotate(x, y);
    ires[8 * i + 7] = rotate((uchar)x, (uchar)y) + (rotate((ushort)x, (ushort)(y + 3)) << 8);
    long p = la[i];
    long q = lb[i];
    lres[3 * i + 0] = mul_hi(p, q);
    lres[3 * i + 1] = (long)mul_hi((ulong)p, (ulong)q);
    lres[3 * i + 2] = (long)rotate((ulong)p, (ulong)q);
}
