// A uniform loop with barriers that contains an inner loop whose trip count
// differs per work-item (read from local memory).
__kernel void barrier_loop_inner_div(__global const int *in, __global int *out)
{
    __local int buf[16];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int v = in[g];
    for (int r = 0; r < 4; r++) {
        buf[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        int acc = 0;
        int k = buf[l] & 7;
        for (int j = 0; j <= k; j++)
            acc += buf[(l + j) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
        v = (acc + r) % 1000;
    }
    out[g] = v;
}
