// atan2 / atan2pi in all four quadrants and on the axes (signed zeros),
// hypot with widely different magnitudes.
__kernel void atan2_hypot(__global const float* y, __global const float* x,
                          __global float* res)
{
    int i = (int)get_global_id(0);
    float a = y[i];
    float b = x[i];
    res[4 * i + 0] = atan2(a, b);
    res[4 * i + 1] = atan2pi(a, b);
    res[4 * i + 2] = hypot(a, b);
    res[4 * i + 3] = hypot(a * 3.0e15f, b * 3.0e-15f);
}
