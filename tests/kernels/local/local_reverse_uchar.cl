// Byte-sized local memory: reverse each 40-element group through a
// __local uchar array (local size 40), with uchar wraparound on the way out.
__kernel void local_reverse_uchar(__global const uchar *in, __global uchar *out)
{
    __local uchar buf[40];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    buf[n - 1 - l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = buf[l] + (uchar)(l * 7);
}
