// The fixed twin of unaligned_access: the loads are aligned.
__kernel void unaligned_access_fixed(__global const char *bytes, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = *(__global const int *)(bytes + 4 * i);
}
