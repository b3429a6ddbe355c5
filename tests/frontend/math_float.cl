// Builtins: float math: sin, exp, pow, sqrt, rsqrt, hypot (and native_/half_ variants).
kernel void math_float(global float *out, global const float *x, global const float *y) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    out[i] = sin(a) + exp(b) + pow(a, b) + sqrt(a) + rsqrt(b) + hypot(a, b);
    out[i + 1] = native_sin(a) + half_exp(b);
}
