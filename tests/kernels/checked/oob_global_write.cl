// Checked mode: an off-by-one write past the end of a __global buffer.
__kernel void oob_global_write(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    out[i + 1] = in[i] * 2;
}
