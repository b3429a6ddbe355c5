// Importer: vector kernel arguments by value (float4, int2, uchar3) used per component.
kernel void vector_byval_arg(global float4 *out, float4 k, int2 off, uchar3 c) {
    size_t i = get_global_id(0);
    out[i] = out[i] * k + (float4)((float)off.x, (float)off.y, (float)c.z, (float)c.x);
}
