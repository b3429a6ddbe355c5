// Rounding functions on halfway and negative values: floor, ceil, round
// (half away from zero), rint (half to even), trunc, plus fract and modf with
// their pointer results (signed zeros kept).
__kernel void rounding(__global const float* x, __global float* res)
{
    int i = (int)get_global_id(0);
    float a = x[i];
    float fl;
    float ip;
    res[8 * i + 0] = floor(a);
    res[8 * i + 1] = ceil(a);
    res[8 * i + 2] = round(a);
    res[8 * i + 3] = rint(a);
    res[8 * i + 4] = trunc(a);
    res[8 * i + 5] = fract(a, &fl) * 8.0f + fl;
    res[8 * i + 6] = modf(a, &ip);
    res[8 * i + 7] = ip;
}
