// Importer: LLVM intrinsics from builtins: fma, fabs, integer/float min/max, popcount, clz, rotate, add_sat.
kernel void intrinsics_basic(global float *f, global int *n, global uint *u) {
    size_t i = get_global_id(0);
    float a = f[i], b = f[i + 1];
    f[i] = fma(a, b, fabs(a)) + fmin(a, b) + fmax(a, b);
    int x = n[i], y = n[i + 1];
    n[i] = min(x, y) + max(x, y) + popcount(x) + clz(y) + add_sat(x, y);
    uint p = u[i], q = u[i + 1];
    u[i] = rotate(p, q) + min(p, q) + max(p, 7u) + add_sat(p, q);
}
