// The range edges where the SIMD engine's vector math (SLEEF) needs the
// builtin library's help (issue #23 item 3, the OpenCL-CTS bruteforce
// failures): acosh, asinh, log1p of huge arguments, cosh and sinh just
// below overflow, tgamma of negative arguments with tiny results, pow,
// pown and powr near DBL_MAX, fmod, remainder and remquo with any exponent
// difference. Each work-item takes one case of every function: arguments
// and the correctly rounded result as bit patterns (from mpmath, see
// tools/refs_math.py), and writes 1 where the result is within the
// function's OpenCL ulp bound (exact for fmod, remainder, remquo; remquo
// also checks the sign and low 7 bits of the quotient), else 0.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Whether r is within `ulps` of the exact value that rounds to w: at most
// ulps - 0.5 units of w's last place from w (2^(e-52) from w's exponent
// bits, or the smallest subnormal below the normal range). An infinite or NaN w must be matched
// (any NaN); a finite w needs a finite r.
int near_d(double r, double w, double ulps)
{
    if (isnan(w))
        return isnan(r);
    if (isinf(w) || isinf(r) || isnan(r))
        return r == w;
    double place = fmax(as_double(as_ulong(w) & 0x7ff0000000000000UL) * 0x1p-52, 0x1p-1074);
    return fabs(r - w) <= (ulps - 0.5) * place;
}

int near_f(float r, float w, float ulps)
{
    if (isnan(w))
        return isnan(r);
    if (isinf(w) || isinf(r) || isnan(r))
        return r == w;
    double place = fmax((double)as_float(as_uint(w) & 0x7f800000u) * 0x1p-23, 0x1p-149);
    return fabs((double)r - (double)w) <= (double)(ulps - 0.5f) * place;
}

// Bit-exact, -0 and +0 apart (fmod, remainder, remquo are exact).
int same_d(double r, double w) { return as_ulong(r) == as_ulong(w) || (isnan(r) && isnan(w)); }
int same_f(float r, float w) { return as_uint(r) == as_uint(w) || (isnan(r) && isnan(w)); }

// remquo's quotient: the sign of x/y and |k| mod 128 (want: the expected
// value of exactly that, 0 when |k| mod 128 is 0).
int quo_ok(int q, int want)
{
    int mag = abs(q) & 127;
    return want == 0 ? mag == 0 : ((q < 0) == (want < 0) && mag == abs(want));
}

#define NF 24

// Function f of case i reads x[k], y[k], want[k] (k = f * n + i): double
// arguments as their bits, float arguments in the low 32 bits, pown's
// exponent in y as an int.
kernel void range_edges(global const ulong *x, global const ulong *y, global const ulong *want,
                        global const int *wantq, global int *ok)
{
    uint i = get_global_id(0);
    uint n = get_global_size(0);
    // f is the same in every work-item: the switch stays uniform, so each
    // function runs on full vectors.
    for (int f = 0; f < NF; f++) {
        uint k = f * n + i;
        double xd = as_double(x[k]), yd = as_double(y[k]), wd = as_double(want[k]);
        float xf = as_float((uint)x[k]), yf = as_float((uint)y[k]), wf = as_float((uint)want[k]);
        int q = 0, r = 0;
        switch (f) {
        case 0: r = near_d(acosh(xd), wd, 4.0); break;
        case 1: r = near_f(acosh(xf), wf, 4.0f); break;
        case 2: r = near_d(asinh(xd), wd, 4.0); break;
        case 3: r = near_f(asinh(xf), wf, 4.0f); break;
        case 4: r = near_d(log1p(xd), wd, 2.0); break;
        case 5: r = near_f(log1p(xf), wf, 2.0f); break;
        case 6: r = near_d(cosh(xd), wd, 4.0); break;
        case 7: r = near_f(cosh(xf), wf, 4.0f); break;
        case 8: r = near_d(sinh(xd), wd, 4.0); break;
        case 9: r = near_f(sinh(xf), wf, 4.0f); break;
        case 10: r = near_d(tgamma(xd), wd, 16.0); break;
        case 11: r = near_f(tgamma(xf), wf, 16.0f); break;
        case 12: r = near_d(pow(xd, yd), wd, 16.0); break;
        case 13: r = near_f(pow(xf, yf), wf, 16.0f); break;
        case 14: r = near_d(pown(xd, (int)y[k]), wd, 16.0); break;
        case 15: r = near_d(powr(xd, yd), wd, 16.0); break;
        case 16: r = same_d(fmod(xd, yd), wd); break;
        case 17: r = same_f(fmod(xf, yf), wf); break;
        case 18: r = same_d(remainder(xd, yd), wd); break;
        case 19: r = same_f(remainder(xf, yf), wf); break;
        case 20: r = same_d(remquo(xd, yd, &q), wd) && quo_ok(q, wantq[k]); break;
        case 21: r = same_f(remquo(xf, yf, &q), wf) && quo_ok(q, wantq[k]); break;
        case 22: r = near_f(pown(xf, (int)y[k]), wf, 16.0f); break;
        default: r = near_f(powr(xf, yf), wf, 16.0f); break;
        }
        ok[k] = r;
    }
}
