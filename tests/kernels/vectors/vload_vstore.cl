// vloadn / vstoren: element-aligned (not vector-aligned) addresses, offsets
// scaled by n, packed 3-component vload3/vstore3.
#define N 16
__kernel void vload_vstore(__global const float* src, __global const int* isrc,
                           __global float* dst, __global int* idst)
{
    int i = (int)get_global_id(0);
    float4 v = vload4(i, src);               // src[4i .. 4i+3]
    float4 w = vload4(0, src + i + 1);       // misaligned by one element
    float2 p = vload2(i * 3, src + 1);       // src[1 + 6i .. 2 + 6i]
    vstore4(v * 2.0f - w, i, dst);           // dst[4i .. 4i+3]
    vstore2(p + v.hi, 2 * i, dst + 4 * N);   // dst[64 + 4i .. 65 + 4i]
    int8 q = vload8(i, isrc);
    vstore8(q.s76543210 + (int8)(i), i, idst);
    int3 t = vload3(i, isrc + 2);            // isrc[2 + 3i .. 4 + 3i]
    vstore3(t * 3 - (int3)(1, 2, 3), i, idst + 8 * N);
}
