// Two __local pointer arguments of different element types (int, uchar)
// around a global one, plus a __local scalar declared in the kernel;
// local size 12.
__kernel void local_args_mixed(__global const int *in, __local int *vals,
                               __global int *out, __local uchar *flags)
{
    __local int total;
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    vals[l] = in[g];
    flags[l] = (in[g] % 3 == 0);
    if (l == 0)
        total = -1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == n - 1) {
        int s = 0;
        for (int k = 0; k < n; k++)
            if (flags[k])
                s += vals[k];
        total = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = vals[(l + 1) % n] + total * flags[l];
}
