// The fixed twin of barrier_divergence: every work-item reaches the barrier.
__kernel void barrier_divergence_fixed(__global int *out)
{
    size_t l = get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (int)l;
}
