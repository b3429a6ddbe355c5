// Importer: ternaries that LLVM turns into select (int, float, pointer operands).
kernel void select_ternary(global int *out, global float *f, global int *a, global int *b, int k) {
    size_t i = get_global_id(0);
    int x = a[i];
    out[i] = x > k ? x - k : k - x;
    f[i] = f[i] < 0.0f ? 0.0f : f[i];
    global int *p = (x & 1) ? a : b;
    out[i] += p[i];
}
