// Checked mode (interpreter): where a key is in a row, kept in a variable
// only set when the key is found: with no match, a branch depends on an
// uninitialized value (after mem2reg, an `undef` reaching a loop's phi).
__kernel void uninit_branch(__global const int *in, __global int *out, int n, int key)
{
    size_t i = get_global_id(0);
    int at;
    for (int k = 0; k < n; k++)
        if (in[i * n + k] == key)
            at = k;
    if (at > 1)
        out[i] = 1;
}
