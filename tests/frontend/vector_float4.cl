// Importer: float4 arithmetic (add, mul, div, negation, scalar broadcast), split per component.
kernel void vector_float4(global float4 *out, global const float4 *a, global const float4 *b, float s) {
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    out[i] = (x + y) * s - x / y + (-y);
}
