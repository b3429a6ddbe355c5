// A helper with several returns (one inside a loop), called twice, the
// second time only in a divergent branch.
int classify(int v)
{
    if (v < 0)
        return -1;
    for (int d = 2; d * d <= v; d++)
        if (v % d == 0)
            return d;
    return v < 2 ? 0 : 1;
}

__kernel void func_multi_return(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int v = in[i];
    int r = classify(v);
    if (r > 1)
        r = r * 1000 + classify(v / r);
    out[i] = r;
}
