// The exponentials and logarithms of float against double precision over
// their whole range: each work-item takes 256 arguments (for the
// exponentials evenly spaced from where results are 0, through the
// subnormals, to where they overflow; for the logarithms bit patterns evenly
// spaced over the positive floats, subnormals and infinity included) and
// counts the results further from the exact value than the SIMD engine's
// own bound (1 ulp for exp, exp2, log; 1.5 for exp10; 2 for log2, log10;
// OpenCL allows 3). Then each at special arguments: signed zeros, ±1,
// infinities, NaN, the smallest subnormal, FLT_MAX, and where results
// overflow, underflow or are exact.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// How far float r is from the exact value x, in units of the last place
// of x rounded to float (0 when both are the same infinity).
double ulps(float r, double x)
{
    float xf = (float)x;
    if (isinf(xf))
        return isinf(r) && signbit(r) == signbit(xf) ? 0.0 : 1e9;
    float a = fabs(xf);
    double ulp = (double)(nextafter(a, INFINITY) - a);
    return fabs((double)r - x) / ulp;
}

// Argument k of n, evenly spaced over [lo, hi).
float spaced(uint k, uint n, float lo, float hi)
{
    return lo + (hi - lo) * ((float)k / (float)n);
}

kernel void exp_log_ulp(global uint *bad, global float *special)
{
    uint i = get_global_id(0);
    uint total = get_global_size(0) * 256;
    uint b[6] = {0, 0, 0, 0, 0, 0};
    for (uint k = 0; k < 256; k++) {
        uint n = i * 256 + k;
        float x = spaced(n, total, -104.0f, 89.0f);
        b[0] += ulps(exp(x), exp((double)x)) > 1.0;
        x = spaced(n, total, -151.0f, 129.0f);
        b[1] += ulps(exp2(x), exp2((double)x)) > 1.0;
        x = spaced(n, total, -46.0f, 39.0f);
        b[2] += ulps(exp10(x), exp10((double)x)) > 1.5;
        float y = as_float((uint)(((ulong)n * 0x7f800000UL) / total) + 1);
        b[3] += ulps(log(y), log((double)y)) > 1.0;
        b[4] += ulps(log2(y), log2((double)y)) > 2.0;
        b[5] += ulps(log10(y), log10((double)y)) > 2.0;
    }
    for (int f = 0; f < 6; f++)
        bad[6 * i + f] = b[f];
    // Each of the first 20 work-items takes one special argument (a value
    // per lane, so the vector code computes it).
    const float args[20] = {0.0f, -0.0f, 1.0f, -1.0f, INFINITY, -INFINITY, NAN, 0x1p-149f,
                            0x1.fffffep127f, 88.72283f, 88.72284f, -103.9f,
                            -87.5f, 127.99999f, -149.0f, -150.0f,
                            38.5f, -45.0f, 1024.0f, 1000.0f};
    if (i < 20) {
        float a = args[i];
        global float *s = special + 6 * i;
        s[0] = exp(a);
        s[1] = exp2(a);
        s[2] = exp10(a);
        s[3] = log(a);
        s[4] = log2(a);
        s[5] = log10(a);
    }
}
