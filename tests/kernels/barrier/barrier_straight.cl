// One barrier in straight-line code: every work-item reads two values that
// other work-items of its group wrote before the barrier.
__kernel void barrier_straight(__global const int *in, __global int *out)
{
    __local int buf[16];
    int l = get_local_id(0), n = get_local_size(0);
    int g = get_global_id(0);
    buf[l] = in[g] * 3;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = buf[(l + 1) % n] - buf[n - 1 - l];
}
