// exp and log of float against double precision over their whole range:
// each work-item takes 256 arguments (exp: evenly spaced over [-104, 89],
// where results go from 0 through the subnormals to infinity; log: bit
// patterns evenly spaced over the positive floats, subnormals and infinity
// included) and counts the results more than 1 ulp from the exact value
// (OpenCL allows 3). Then both at the special arguments.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// How far float r is from the exact value x, in units of the last place
// of x rounded to float (0 when both round to the same infinity).
double ulps(float r, double x)
{
    float xf = (float)x;
    if (isinf(xf))
        return isinf(r) && signbit(r) == signbit(xf) ? 0.0 : 1e9;
    float a = fabs(xf);
    double ulp = (double)(nextafter(a, INFINITY) - a);
    return fabs((double)r - x) / ulp;
}

kernel void exp_log_ulp(global uint *bad, global float *special)
{
    uint i = get_global_id(0);
    uint total = get_global_size(0) * 256;
    uint bad_exp = 0, bad_log = 0;
    for (uint k = 0; k < 256; k++) {
        uint n = i * 256 + k;
        float x = -104.0f + 193.0f * ((float)n / (float)total);
        if (ulps(exp(x), exp((double)x)) > 1.0)
            bad_exp++;
        float y = as_float((uint)(((ulong)n * 0x7f800000UL) / total) + 1);
        if (ulps(log(y), log((double)y)) > 1.0)
            bad_log++;
    }
    bad[2 * i] = bad_exp;
    bad[2 * i + 1] = bad_log;
    if (i == 0) {
        const float args[8] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, 0x1p-149f, 0x1.fffffep127f};
        for (int k = 0; k < 8; k++) {
            special[2 * k] = exp(args[k]);
            special[2 * k + 1] = log(args[k]);
        }
        special[16] = exp(88.72283f);
        special[17] = exp(88.72284f);
        special[18] = exp(-103.9f);
        special[19] = exp(-87.5f);
    }
}
