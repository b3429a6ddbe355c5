// Geometric functions: dot, cross (float4 form ignores w and returns w = 0),
// length, distance, normalize on float2/float3/float4.
__kernel void geometric(__global const float4* p, __global const float4* q,
                        __global float* res)
{
    int i = (int)get_global_id(0);
    float4 a = p[i];
    float4 b = q[i];
    float4 c = cross(a, b);
    res[12 * i + 0] = dot(a, b);
    res[12 * i + 1] = dot(a.xy, b.zw);
    res[12 * i + 2] = c.x;
    res[12 * i + 3] = c.y;
    res[12 * i + 4] = c.z;
    res[12 * i + 5] = c.w;
    res[12 * i + 6] = length(a);
    res[12 * i + 7] = length(b.xyz);
    res[12 * i + 8] = distance(a.xy, b.xy);
    float3 n = normalize(b.xyz);
    res[12 * i + 9] = n.x;
    res[12 * i + 10] = n.y + 2.0f * n.z;
    res[12 * i + 11] = dot(normalize(a), (float4)(1.0f));
}
