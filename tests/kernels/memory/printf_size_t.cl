// printf's z and t length modifiers (OpenCL C 3.1, the default here):
// size_t and ptrdiff_t, 64 bits on this device, with flags and widths,
// from one work-item so the output order is defined.
__kernel void printf_size_t(__global const int* in, __global long* out)
{
    size_t gid = get_global_id(0);
    out[gid] = (long)(&in[gid] - &in[7]);
    if (gid == 3) {
        size_t big = (size_t)in[0] << 33;
        ptrdiff_t back = &in[0] - &in[gid];
        printf("size_t: %zu %zd %zx %zX %zo [%12zu] [%-6zu] [%06zu]\n", big, gid, big,
               (size_t)0xABCDEF, (size_t)8, big, gid, gid);
        printf("ptrdiff_t: %td %ti %+td [%5td] %tu %tx\n", back, &in[7] - &in[0],
               (ptrdiff_t)2, back, (ptrdiff_t)9, (ptrdiff_t)-1);
    }
}
