// cl_khr_extended_bit_ops: bitfield_insert, bitfield_extract_signed and
// _unsigned, bit_reverse, on 8-, 16-, 32- and 64-bit types and a vector,
// with fields at the low and high ends and of width 0.
__kernel void extended_bit_ops(__global const uint *a, __global const ulong *b,
                               __global const uint *field, __global ulong *res)
{
    int i = (int)get_global_id(0);
    uint x = a[i];
    ulong y = b[i];
    uint off = field[i] & 31u, cnt = (field[i] >> 8 & 255u) % (33u - off);
    uint off64 = field[i] >> 16 & 63u, cnt64 = (field[i] >> 24) % (65u - off64);
    res[10 * i + 0] = bitfield_insert(x, ~x, off, cnt);
    res[10 * i + 1] = (ulong)(long)bitfield_extract_signed(x, off, cnt);
    res[10 * i + 2] = bitfield_extract_unsigned((int)x, off, cnt);
    res[10 * i + 3] = bit_reverse(x);
    res[10 * i + 4] = bitfield_insert(y, y >> 7, off64, cnt64);
    res[10 * i + 5] = (ulong)bitfield_extract_signed(y, off64, cnt64);
    res[10 * i + 6] = bitfield_extract_unsigned((long)y, off64, cnt64) ^ bit_reverse(y);
    res[10 * i + 7] = (ulong)(long)bitfield_extract_signed((char)x, off & 7u, cnt % (9u - (off & 7u)))
                      ^ ((ulong)bit_reverse((uchar)x) << 8) ^ ((ulong)(ushort)bit_reverse((short)x) << 16);
    ushort2 v = bitfield_insert(as_ushort2(x), (ushort2)(0xFFFF, 0x1234), off & 15u, cnt % (17u - (off & 15u)));
    res[10 * i + 8] = as_uint(v);
    uchar4 w = bitfield_extract_unsigned(as_char4(x), 2u, 5u);
    res[10 * i + 9] = as_uint(w);
}
