// Checked mode: a barrier only some work-items of the group reach. The
// interpreter reports it (the barrier, who waits there) and goes on; the
// SIMD engine stops the launch with an error naming the work-items that
// did not arrive and the barrier's line.
__kernel void barrier_divergence(__global int *out)
{
    size_t l = get_local_id(0);
    if (l < 4)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (int)l;
}
