// goto forward (out of a loop-like region) and backward (retry).
__kernel void goto_fwd_back(__global const int *in, __global int *out, __global int *tries)
{
    int i = get_global_id(0);
    int v = in[i];
    int t = 0;
    int acc = 0;
retry:
    t++;
    acc += v;
    if (acc % 7 == 3)
        goto done;
    v = (v * 5 + 1) % 23;
    if (t < 6 && (acc & 3) != 0)
        goto retry;
    acc = -acc;
done:
    out[i] = acc;
    tries[i] = t;
}
