// Builtins: common and relational: clamp, mix, step, sign, isnan, isinf, any, all, select, bitselect.
kernel void common_relational(global float4 *f, global int4 *m, global uint *u) {
    size_t i = get_global_id(0);
    float4 a = f[i], b = f[i + 1];
    float4 c = clamp(a, 0.0f, 1.0f) + mix(a, b, 0.25f) + step(0.5f, a) + sign(b);
    int4 nan = isnan(a) | isinf(b);
    m[i] = select((int4)(1), (int4)(2), nan);
    f[i] = select(c, b, nan) + bitselect(a, b, c);
    u[i] = any(nan) + 2 * all(a < b) + bitselect(u[i], 0xf0f0u, 0xffu) + clamp(u[i], 3u, 9u);
}
