// Common functions: clamp (vector/scalar bounds), mix, step, smoothstep, sign
// (signed zeros), degrees, radians, and float min/max.
__kernel void common_fns(__global const float4* x, __global float* res)
{
    int i = (int)get_global_id(0);
    float4 v = x[i];
    float4 c = clamp(v, -1.0f, 2.5f);
    float4 m = mix(v, (float4)(8.0f, -4.0f, 2.0f, 0.0f), 0.25f);
    float4 st = step((float4)(0.0f, 1.0f, -1.0f, 0.5f), v);
    float4 sm = smoothstep(0.0f, 2.0f, v);
    float4 sg = sign(v);
    res[8 * i + 0] = c.x + c.y * 10.0f;
    res[8 * i + 1] = c.z + c.w * 10.0f;
    res[8 * i + 2] = m.x + m.y + m.z + m.w;
    res[8 * i + 3] = st.x + 2.0f * st.y + 4.0f * st.z + 8.0f * st.w;
    res[8 * i + 4] = sm.x + sm.y * 2.0f + sm.z * 4.0f + sm.w * 8.0f;
    res[8 * i + 5] = sg.x + 10.0f * sg.y + 100.0f * sg.z + 1000.0f * sg.w;
    res[8 * i + 6] = degrees(v.x) + radians(v.y * 100.0f);
    res[8 * i + 7] = max(v.x, v.y) - min(v.z, v.w);
}
