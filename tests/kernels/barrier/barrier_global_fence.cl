// Work-items of a group exchange data through global memory, ordered by
// barrier(CLK_GLOBAL_MEM_FENCE).
__kernel void barrier_global_fence(__global const int *in, __global int *scratch,
                                   __global int *out)
{
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int base = get_group_id(0) * n;
    scratch[g] = in[g] * in[g];
    barrier(CLK_GLOBAL_MEM_FENCE);
    int x = scratch[base + (l + 7) % n];
    barrier(CLK_GLOBAL_MEM_FENCE);
    scratch[g] = x - in[g];
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    out[g] = scratch[base + n - 1 - l] + l;
}
