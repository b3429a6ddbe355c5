// Checked mode: a __local array written one element past its end.
__kernel void oob_local_array(__global const float *in, __global float *out)
{
    __local float tile[16];
    size_t l = get_local_id(0), g = get_global_id(0);
    tile[l + 1] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = l > 0 ? tile[l] : 0.0f;
}
