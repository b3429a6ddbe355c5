// Checked mode (interpreter): uninit_value with the variable initialized
// (-1 when no element is positive): runs clean.
__kernel void uninit_value_fixed(__global const int *in, __global int *out, int n)
{
    size_t i = get_global_id(0);
    int last = -1;
    for (int k = 0; k < n; k++)
        if (in[i * n + k] > 0)
            last = k;
    out[i] = last;
}
