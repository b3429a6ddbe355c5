// Checked mode (interpreter): a barrier only some work-items of the group
// reach: reported (the barrier, who waits there), then the launch goes on.
__kernel void barrier_divergence(__global int *out)
{
    size_t l = get_local_id(0);
    if (l < 4)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (int)l;
}
