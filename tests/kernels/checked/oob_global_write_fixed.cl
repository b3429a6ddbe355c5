// The fixed twin of oob_global_write: every write inside the buffer.
__kernel void oob_global_write_fixed(__global const int *in, __global int *out)
{
    size_t i = get_global_id(0);
    if (i + 1 < get_global_size(0))
        out[i + 1] = in[i] * 2;
}
