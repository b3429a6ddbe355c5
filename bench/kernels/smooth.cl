// Repeated 3-point smoothing of each work-group's slice in local memory:
// a loop whose trip count is a kernel argument, with two barriers in it.
// Every branch is uniform (the edges clamp with selects), so the kernel
// needs no masks, only the barriers.
kernel void smooth(global const float *restrict in, global float *restrict out, uint iters,
                   local float *t)
{
    uint l = get_local_id(0), n = get_local_size(0);
    uint g = get_global_id(0);
    t[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint left = l > 0 ? l - 1 : 0;
    uint right = l + 1 < n ? l + 1 : n - 1;
    for (uint it = 0; it < iters; it++) {
        float v = 0.25f * t[left] + 0.5f * t[l] + 0.25f * t[right];
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[g] = t[l];
}
