// The fixed twin of oob_private_array: the index stays inside.
__kernel void oob_private_array_fixed(__global const int *in, __global int *out, int n)
{
    int acc[4];
    size_t g = get_global_id(0);
    for (int k = 0; k < 4; k++)
        acc[k] = in[g] + k;
    acc[n % 4] = 0;
    out[g] = acc[(g + 1) % 4] + acc[g % 4];
}
