// Checked mode: a private array indexed one past its end.
__kernel void oob_private_array(__global const int *in, __global int *out, int n)
{
    int acc[4];
    size_t g = get_global_id(0);
    for (int k = 0; k < 4; k++)
        acc[k] = in[g] + k;
    acc[n] = 0;
    out[g] = acc[(g + 1) % 4] + acc[g % 4];
}
