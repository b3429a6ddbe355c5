// Barriers inside conditionals whose condition depends only on the group id
// and a kernel argument (uniform across the work-group).
__kernel void barrier_uniform_cond(__global const int *in, __global int *out, int thresh)
{
    __local int buf[12];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int grp = get_group_id(0);
    int v = in[g];
    if (grp % 2 == 0) {
        buf[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = v + buf[n - 1 - l];
        barrier(CLK_LOCAL_MEM_FENCE);
    } else if (thresh > grp) {
        buf[l] = v * 2;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = buf[(l + 3) % n] - v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (thresh > 0) {
        buf[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l & 1)
            v = v * 10 + buf[l - 1];
    }
    out[g] = v;
}
