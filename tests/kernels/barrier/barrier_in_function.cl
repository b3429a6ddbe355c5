// Barriers inside a helper function called in a uniform loop.
void rotate_local(__local int *buf, int l, int n, int by)
{
    int v = buf[(l + by) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
}

__kernel void barrier_in_function(__global const int *in, __global int *out)
{
    __local int buf[32];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    buf[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    int acc = 0;
    for (int k = 1; k <= 3; k++) {
        rotate_local(buf, l, n, k);
        acc = acc * 7 + buf[l];
    }
    out[g] = acc;
}
