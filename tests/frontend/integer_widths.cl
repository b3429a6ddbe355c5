// Importer: char/short/long arithmetic, signed vs unsigned division/remainder and shifts (OpenCL masks shift counts).
kernel void integer_widths(global char *c, global short *s, global long *l, global ulong *u, int k) {
    size_t i = get_global_id(0);
    c[i] = (char)(c[i] / (char)3 + (c[i] >> 1));
    s[i] = (short)((ushort)s[i] % (ushort)7) << (k & 15);
    l[i] = l[i] / (long)k + (l[i] << k) + (l[i] >> k);
    u[i] = u[i] / (ulong)k + (u[i] >> k) + (ulong)(uint)k * 0x100000001UL;
}
