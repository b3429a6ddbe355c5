// native_* and half_* functions have implementation-defined or reduced
// precision, so the results are quantized (x100 or x10, rounded to nearest
// integer); the inputs are chosen far from the quantization boundaries.
__kernel void native_half(__global const float* x, __global int* res)
{
    int i = (int)get_global_id(0);
    float a = x[i];                 // in [0.5, 2.0]
    res[10 * i + 0] = convert_int_rte(native_sin(a) * 100.0f);
    res[10 * i + 1] = convert_int_rte(native_cos(a) * 100.0f);
    res[10 * i + 2] = convert_int_rte(native_exp(a) * 10.0f);
    res[10 * i + 3] = convert_int_rte(native_log(a) * 100.0f);
    res[10 * i + 4] = convert_int_rte(native_sqrt(a) * 100.0f);
    res[10 * i + 5] = convert_int_rte(native_recip(a) * 10.0f);
    res[10 * i + 6] = convert_int_rte(native_divide(1.5f, a) * 10.0f);
    res[10 * i + 7] = convert_int_rte(half_sin(a) * 100.0f);
    res[10 * i + 8] = convert_int_rte(half_rsqrt(a) * 100.0f);
    res[10 * i + 9] = convert_int_rte(half_powr(a, 1.5f) * 10.0f)
                      + 1000 * convert_int_rte(half_exp2(a) * 10.0f);
}
