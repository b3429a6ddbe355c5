// Checked mode (interpreter): a private array read where its work-item
// wrote nothing (the first loop fills half of it).
__kernel void uninit_private(__global const int *in, __global int *out, int n)
{
    int tmp[8];
    size_t i = get_global_id(0);
    for (int k = 0; k < n; k++)
        tmp[k] = in[i] + k;
    int s = 0;
    for (int k = 0; k < 8; k++)
        s += tmp[(i + k) & 7];
    out[i] = s;
}
