// Importer: mul_hi on long/ulong (128-bit or funnel/overflow patterns) and mad_hi on uint.
kernel void mul_hi_long(global long *l, global ulong *u, global uint *w) {
    size_t i = get_global_id(0);
    l[i] = mul_hi(l[i], l[i + 1]);
    u[i] = mul_hi(u[i], u[i + 1]);
    w[i] = mad_hi(w[i], w[i + 1], 5u);
}
