// The fixed twin of read_write_only: the write-only buffer is only written.
__kernel void read_write_only_fixed(__global int *out)
{
    size_t i = get_global_id(0);
    out[i] = (int)i;
}
