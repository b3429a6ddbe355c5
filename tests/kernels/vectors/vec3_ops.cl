// 3-component vectors: float3 occupies 16 bytes in a buffer of float3 (the
// 4th lane is padding), vload3/vstore3 use packed 3-element storage,
// cross() on float3, int3 arithmetic, sizeof/vec_step of 3-vectors.
__kernel void vec3_ops(__global const float* p, __global const float3* v,
                       __global float* out, __global int* iout)
{
    int i = (int)get_global_id(0);
    float3 a = vload3(i, p);
    float3 b = v[i];
    float3 c = cross(a, b);
    vstore3(c, i, out);
    vstore3(a * b.zxy + (float3)(1.0f, 2.0f, 3.0f), i, out + 48);
    int3 k = (int3)(i, i * 2, -i);
    k = k * 3 - (int3)(1);
    k.z += (int)sizeof(float3) + vec_step(int3) * 100;
    vstore3(k, i, iout);
}
