// Checked mode (interpreter): uninit_private with the whole private array
// written before it is read: runs clean.
__kernel void uninit_private_fixed(__global const int *in, __global int *out, int n)
{
    int tmp[8];
    size_t i = get_global_id(0);
    for (int k = 0; k < 8; k++)
        tmp[k] = k < n ? in[i] + k : 0;
    int s = 0;
    for (int k = 0; k < 8; k++)
        s += tmp[(i + k) & 7];
    out[i] = s;
}
