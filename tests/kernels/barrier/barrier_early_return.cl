// A barrier followed by divergent early returns (no barrier after them).
__kernel void barrier_early_return(__global const int *in, __global int *out)
{
    __local int buf[16];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    buf[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = buf[l] + buf[(l + 5) % n];
    if (s % 3 == 0) {
        out[g] = -s;
        return;
    }
    for (int k = 0; k < n; k += 4) {
        s += buf[k];
        if (s > 250)
            return;
    }
    out[g] = s;
}
