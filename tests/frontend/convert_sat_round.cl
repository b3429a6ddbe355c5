// Builtins: conversions: convert_int4_sat_rte(float4), convert_float_rtz(int), convert_uchar_sat, convert_float4(int4).
kernel void convert_sat_round(global int4 *o, global const float4 *in, global float *f, global uchar *c, global int *n) {
    size_t i = get_global_id(0);
    o[i] = convert_int4_sat_rte(in[i]);
    f[i] = convert_float_rtz(n[i]) + convert_float_rtp((long)n[i] << 30);
    c[i] = convert_uchar_sat(n[i]);
    o[i + 1] = convert_int4(convert_float4(o[i]) * 0.5f);
}
