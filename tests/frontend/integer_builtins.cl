// Builtins: integer functions abs, abs_diff, hadd, rhadd, mad24, mul24, upsample, ctz, sub_sat, mad_sat, clz on uchar.
kernel void integer_builtins(global int *n, global uint *u, global long *l, global uchar *c) {
    size_t i = get_global_id(0);
    int x = n[i], y = n[i + 1];
    u[i] = abs(x) + abs_diff(x, y) + (uint)hadd(x, y) + (uint)rhadd(x, y);
    n[i] = mad24(x, y, 3) + mul24(x, 5) + ctz(y) + sub_sat(x, y) + mad_sat(x, y, 7);
    l[i] = upsample(x, (uint)y);
    c[i] = clz(c[i]) + popcount(c[i]);
}
