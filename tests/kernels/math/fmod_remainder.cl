// fmod (result has the sign of x), remainder (quotient rounded to even),
// remquo (sign and low bits of the quotient), all exact operations.
__kernel void fmod_remainder(__global const float* x, __global const float* y,
                             __global float* res, __global int* quo)
{
    int i = (int)get_global_id(0);
    float a = x[i];
    float b = y[i];
    int q;
    res[3 * i + 0] = fmod(a, b);
    res[3 * i + 1] = remainder(a, b);
    res[3 * i + 2] = remquo(a, b, &q);
    int mag = abs(q) & 7;        // only the sign and the 3 low bits are specified
    quo[i] = (q < 0) ? -mag : mag;
}
