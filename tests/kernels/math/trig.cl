// Trigonometric functions on float: sin, cos, tan, asin, acos, atan, sinpi,
// cospi and sincos (second result through a private pointer).
__kernel void trig(__global const float* x, __global float* res)
{
    int i = (int)get_global_id(0);
    __global const float* p = x + 8 * i;
    float c;
    float s = sincos(p[7], &c);
    res[8 * i + 0] = sin(p[0]);
    res[8 * i + 1] = cos(p[1]);
    res[8 * i + 2] = tan(p[2]);
    res[8 * i + 3] = asin(p[3]);
    res[8 * i + 4] = acos(p[4]);
    res[8 * i + 5] = atan(p[5]);
    res[8 * i + 6] = sinpi(p[6]) * cospi(p[6] * 0.25f);
    res[8 * i + 7] = s * 2.0f + c;
}
