// Checked mode: a barrier only some work-items of the group
// reach (the launch stops with an error naming the barrier, on the
// interpreter and on the SIMD engine).
__kernel void barrier_divergence(__global int *out)
{
    size_t l = get_local_id(0);
    if (l < 4)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (int)l;
}
