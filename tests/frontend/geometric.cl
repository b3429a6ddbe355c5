// Builtins: geometric functions on float4/float3: dot, cross, length, distance, normalize, fast_normalize.
kernel void geometric(global float4 *v, global float *out, global float3 *w) {
    size_t i = get_global_id(0);
    float4 a = v[i], b = v[i + 1];
    out[i] = dot(a, b) + length(a) + distance(a, b);
    v[i] = normalize(a) + cross(a, b);
    w[i] = cross(w[i], w[i + 1]) + fast_normalize(w[i]);
}
