// Builtins: math on vectors (float4 sqrt/exp/pow, float2 sincos with a private out-pointer).
kernel void math_vector(global float4 *out, global float2 *sc, float4 e) {
    size_t i = get_global_id(0);
    float4 v = out[i];
    out[i] = sqrt(v) + exp(v) * pow(v, e);
    float2 c;
    float2 s = sincos(sc[i], &c);
    sc[i] = s + c;
}
