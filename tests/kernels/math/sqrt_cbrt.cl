// sqrt, rsqrt, cbrt on float (inexact inputs and exact squares/cubes) and
// sqrt on float4.
__kernel void sqrt_cbrt(__global const float* x, __global float* res)
{
    int i = (int)get_global_id(0);
    float a = x[i];
    float sq = (float)(i + 1) * (float)(i + 1);
    res[6 * i + 0] = sqrt(a);
    res[6 * i + 1] = rsqrt(a);
    res[6 * i + 2] = cbrt(a - 50.0f);
    res[6 * i + 3] = sqrt(sq);                     // exact: i + 1
    res[6 * i + 4] = cbrt(sq * (float)(i + 1));    // exact: i + 1
    float4 v = sqrt((float4)(a, a * 4.0f, a + 1.0f, 2.0f));
    res[6 * i + 5] = v.x + v.y * 0.5f + v.z * v.w;
}
