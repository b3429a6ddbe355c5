// Exponential and logarithm family on float: exp, exp2, exp10, expm1, log,
// log2, log10, log1p (one input per result).
__kernel void exp_log(__global const float* x, __global float* res)
{
    int i = (int)get_global_id(0);
    __global const float* p = x + 8 * i;
    res[8 * i + 0] = exp(p[0]);
    res[8 * i + 1] = exp2(p[1]);
    res[8 * i + 2] = exp10(p[2]);
    res[8 * i + 3] = expm1(p[3]);
    res[8 * i + 4] = log(p[4]);
    res[8 * i + 5] = log2(p[5]);
    res[8 * i + 6] = log10(p[6]);
    res[8 * i + 7] = log1p(p[7]);
}
