// Checked mode: a kernel reads a buffer created write-only (CL_MEM_WRITE_ONLY;
// `wo` in the .sim).
__kernel void read_write_only(__global int *out)
{
    size_t i = get_global_id(0);
    out[i] = out[i] + (int)i;
}
