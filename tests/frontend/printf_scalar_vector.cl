// Builtins: printf with scalar args (int, float promoted to double, string, char, long) and %v4f / %v2hd vectors.
kernel void printf_scalar_vector(global const float4 *v, int k) {
    size_t i = get_global_id(0);
    if (i == 0) {
        printf("k=%d f=%f s=%s c=%c l=%ld\n", k, (float)k * 0.5f, "str", 'x', (long)i);
        printf("v=%v4f\n", v[i]);  /* common but non-strict: clang warns, wants %v4hlf */
        printf("v=%v4hlf\n", v[i]);
        printf("h=%v2hd %%\n", (short2)(1, -2));
    }
}
