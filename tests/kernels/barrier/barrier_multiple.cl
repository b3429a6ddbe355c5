// Several barriers in sequence separating phases that reuse the same local
// arrays.
__kernel void barrier_multiple(__global const int *in, __global int *out)
{
    __local int a[8];
    __local int b[8];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    a[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    b[l] = a[l] + a[(l + 1) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    a[l] = b[l] * b[(l + 2) % n];
    barrier(CLK_LOCAL_MEM_FENCE);
    b[l] = a[n - 1 - l] - b[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = b[(l + 5) % n] + a[l];
}
