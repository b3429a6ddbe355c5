// Checked mode: a read before the start of a __global buffer.
__kernel void oob_global_read_negative(__global const int *in, __global int *out)
{
    int i = (int)get_global_id(0);
    out[i] = in[i - 1] + 1;
}
