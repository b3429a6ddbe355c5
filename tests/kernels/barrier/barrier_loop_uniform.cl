// Two barriers inside a loop whose trip count is a kernel argument:
// iterated 3-point smoothing of a ring held in local memory.
__kernel void barrier_loop_uniform(__global const int *in, __global int *out, int steps)
{
    __local int cur[32];
    int l = get_local_id(0), n = get_local_size(0);
    cur[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = 0; s < steps; s++) {
        int left = cur[(l + n - 1) % n], right = cur[(l + 1) % n];
        int v = (left + 2 * cur[l] + right) / 4 + s;
        barrier(CLK_LOCAL_MEM_FENCE);
        cur[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = cur[l];
}
