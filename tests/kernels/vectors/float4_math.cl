// float4 arithmetic: vector-vector and vector-scalar operations, a float4
// passed by value, vector literals, component access and horizontal sums.
__kernel void float4_math(__global const float4* a, __global const float4* b,
                          const float4 scale, __global float4* out)
{
    int i = (int)get_global_id(0);
    float4 x = a[i];
    float4 y = b[i];
    float4 t = x * scale + y;
    float4 u = (float4)(1.0f, 2.0f, 3.0f, 4.0f) - t * 0.5f;
    float4 v = u / (y + 2.0f);
    v.w = x.x + x.y + x.z + x.w;
    out[2 * i] = v;
    out[2 * i + 1] = (float4)(x.xy * y.zw, -x.w, t.z);
}
