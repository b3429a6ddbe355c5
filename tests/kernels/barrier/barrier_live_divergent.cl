// Values defined before the barrier (one of them on a divergent path) are
// used after it inside a divergent if / else-if / else.
__kernel void barrier_live_divergent(__global const int *in, __global int *out)
{
    __local int buf[24];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int v = in[g];
    int sq = v * v - 7;
    int mine;
    if (v & 1)
        mine = v * 3;
    else
        mine = v / 2;
    buf[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    int r;
    if (buf[(l + 1) % n] > v)
        r = sq + mine;
    else if (l & 2)
        r = mine - buf[0];
    else
        r = sq;
    out[g] = r;
}
