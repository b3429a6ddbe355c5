// Inclusive prefix sum, Hillis-Steele, double-buffered in local memory.
__kernel void scan_hillis_steele(__global const int *in, __global int *out)
{
    __local int buf[2][32];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int pin = 0;
    buf[0][l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < n; off <<= 1) {
        int pout = 1 - pin;
        if (l >= off)
            buf[pout][l] = buf[pin][l] + buf[pin][l - off];
        else
            buf[pout][l] = buf[pin][l];
        barrier(CLK_LOCAL_MEM_FENCE);
        pin = pout;
    }
    out[g] = buf[pin][l];
}
