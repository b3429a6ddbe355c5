// Checked mode (interpreter): neighbours exchange through __local memory
// without a barrier between the write and the read.
__kernel void race_local(__global int *out)
{
    __local int tmp[16];
    size_t l = get_local_id(0);
    tmp[l] = (int)l;
    out[get_global_id(0)] = tmp[(l + 1) % 16];
}
