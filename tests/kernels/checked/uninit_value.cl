// Checked mode (interpreter): a variable left uninitialized on one path.
// After mem2reg it is an `undef` flowing through a loop's phi: the index
// of the last positive element, which has none when no element is positive.
__kernel void uninit_value(__global const int *in, __global int *out, int n)
{
    size_t i = get_global_id(0);
    int last;
    for (int k = 0; k < n; k++)
        if (in[i * n + k] > 0)
            last = k;
    out[i] = last;
}
