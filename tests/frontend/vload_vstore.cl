// Builtins: vload4/vstore4 on global and private pointers, vload2 from __constant, vstore3.
constant float ctab[6] = {1, 2, 3, 4, 5, 6};

kernel void vload_vstore(global float *out, global const float *in, int k) {
    size_t i = get_global_id(0);
    float4 v = vload4(i, in);
    float2 c = vload2(k & 1, ctab);
    vstore4(v * 2.0f, i, out);
    float buf[4];
    vstore4(v, 0, buf);
    vstore3((float3)(buf[k & 3], c), i + 100, out);
}
