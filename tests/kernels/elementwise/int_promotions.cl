// The usual arithmetic conversions: char/short promote to int, int vs uint
// comparisons convert to uint, uint + long becomes long, ushort * ushort is
// computed in int, and results narrowed back by casts.
__kernel void int_promotions(__global const char* c, __global const ushort* us,
                             __global const int* si, __global const uint* un,
                             __global long* res)
{
    int i = (int)get_global_id(0);
    char ch = c[i];
    uchar uch = (uchar)c[i];
    ushort u = us[i];
    int s = si[i];
    uint w = un[i];
    res[7 * i + 0] = ch + uch;                // both promote to int
    res[7 * i + 1] = u * u;                   // int multiply, stays in range
    res[7 * i + 2] = (s < w) ? 1 : 0;         // s converted to uint
    res[7 * i + 3] = w + (long)s;             // long arithmetic
    res[7 * i + 4] = s + w;                   // uint wraparound, zero-extended
    res[7 * i + 5] = (ch < 0u) + 2 * (ch < 0);  // int vs uint comparison
    res[7 * i + 6] = (short)(u + 40000) + (char)(uch + 200);
}
