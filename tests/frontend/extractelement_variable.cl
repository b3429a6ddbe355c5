// Importer: extractelement / insertelement with a variable (runtime) index.
kernel void extractelement_variable(global float *out, global float4 *v, int k) {
    size_t i = get_global_id(0);
    float4 x = v[i];
    out[i] = x[k & 3];
    x[(k + 1) & 3] = 0.5f;
    v[i] = x;
}
