// Checked mode: a __local argument smaller than the kernel assumes.
__kernel void oob_local_arg(__global const int *in, __global int *out, __local int *scratch)
{
    size_t l = get_local_id(0), g = get_global_id(0);
    scratch[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = scratch[get_local_size(0) - 1 - l];
}
