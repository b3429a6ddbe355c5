// Builtins: half conversions: vload_half, vload_half4, vstore_half_rtz, vstore_half4_rte (f16 values).
kernel void half_load_store(global half *h, global float *f) {
    size_t i = get_global_id(0);
    float x = vload_half(i, h);
    float4 v = vload_half4(i + 1, h);
    vstore_half_rtz(x * 3.0f, i, h);
    vstore_half4_rte(v + f[i], i + 2, h);
    f[i] = x + v.w;
}
