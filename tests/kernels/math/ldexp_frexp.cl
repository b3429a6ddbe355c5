// Exponent manipulation: frexp (with int pointer), ldexp, ilogb, logb,
// nextafter, all exact.
__kernel void ldexp_frexp(__global const float* x, __global const int* k,
                          __global float* res, __global int* ires)
{
    int i = (int)get_global_id(0);
    float a = x[i];
    int e;
    float m = frexp(a, &e);
    res[4 * i + 0] = m;
    res[4 * i + 1] = ldexp(a, k[i]);
    res[4 * i + 2] = logb(a);
    res[4 * i + 3] = nextafter(a, 0.0f) - a;
    ires[2 * i] = e;
    ires[2 * i + 1] = ilogb(a);
}
