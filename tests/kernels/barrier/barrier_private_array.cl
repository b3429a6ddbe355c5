// A private array indexed dynamically and live across three barriers.
__kernel void barrier_private_array(__global const int *in, __global int *out)
{
    __local int buf[8];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int v = in[g];
    int p[6];
    for (int k = 0; k < 6; k++)
        p[k] = v * (k + 1) + k;
    buf[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    int idx = buf[(l + 1) % n] % 6;
    p[idx] += buf[n - 1 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[l] = p[(idx + 1) % 6];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = p[idx] + buf[(l + 3) % n] * 2 + p[5];
}
