// The fixed twin of uninit_local: the read stays in the written half.
__kernel void uninit_local_fixed(__global int *out)
{
    __local int tmp[32];
    size_t l = get_local_id(0);
    tmp[l] = (int)l * 2;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[15 - l];
}
