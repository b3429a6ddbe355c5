// Checked mode (interpreter): uninit_branch with the variable initialized
// (-1 when the key is not found): runs clean.
__kernel void uninit_branch_fixed(__global const int *in, __global int *out, int n, int key)
{
    size_t i = get_global_id(0);
    int at = -1;
    for (int k = 0; k < n; k++)
        if (in[i * n + k] == key)
            at = k;
    if (at > 1)
        out[i] = 1;
}
