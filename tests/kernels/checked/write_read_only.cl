// Checked mode: a kernel writes a buffer created read-only (CL_MEM_READ_ONLY;
// `ro` in the .sim).
__kernel void write_read_only(__global int *data, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = data[i] * 3;
    data[i] = 0;
}
