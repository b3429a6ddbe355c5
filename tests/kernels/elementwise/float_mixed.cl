// Single precision elementwise mix: division, negative zero, int<->float
// conversions (truncation toward zero), comparisons and compound updates.
__kernel void float_mixed(__global const float* a, __global const float* b,
                          __global float* res, __global int* ires)
{
    int i = (int)get_global_id(0);
    float x = a[i];
    float y = b[i];
    float t = x / (y * y + 1.0f);
    t -= 0.5f * x;
    res[4 * i + 0] = t;
    res[4 * i + 1] = -(x * 0.0f);            // -0 for x >= 0, 0 for x < 0
    res[4 * i + 2] = (float)(int)(x * 10.0f) / 4.0f;
    res[4 * i + 3] = (x < y) ? (y - x) * 1000.0f : -(x - y) / 8.0f;
    ires[2 * i + 0] = (int)(x * y);           // truncates toward zero
    ires[2 * i + 1] = (x >= y) + 2 * (x != y) + 4 * (x * x > 2.0f);
}
