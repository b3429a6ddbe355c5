// The fixed twin of oob_global_read_negative.
__kernel void oob_global_read_negative_fixed(__global const int *in, __global int *out)
{
    int i = (int)get_global_id(0);
    out[i] = (i > 0 ? in[i - 1] : 0) + 1;
}
