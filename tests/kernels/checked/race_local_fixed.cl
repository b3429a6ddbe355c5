// The fixed twin of race_local: a barrier orders the write and the read.
__kernel void race_local_fixed(__global int *out)
{
    __local int tmp[16];
    size_t l = get_local_id(0);
    tmp[l] = (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[(l + 1) % 16];
}
