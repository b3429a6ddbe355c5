// Checked mode: 4-byte loads from addresses that are not multiples of 4.
__kernel void unaligned_access(__global const char *bytes, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = *(__global const int *)(bytes + 4 * i + 1);
}
