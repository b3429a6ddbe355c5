// Builtins: double math: sin, exp, pow, sqrt, rsqrt, hypot, fma, floor on double.
kernel void math_double(global double *out, global const double *x) {
    size_t i = get_global_id(0);
    double a = x[i], b = x[i + 1];
    out[i] = sin(a) + exp(b) + pow(a, b) + sqrt(a) + rsqrt(b) + hypot(a, b) + fma(a, b, 1.0) + floor(a);
}
