// The fixed twin of write_read_only: the read-only buffer is only read.
__kernel void write_read_only_fixed(__global int *data, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = data[i] * 3;
}
