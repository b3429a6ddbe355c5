// The Nyuzi seed's divergent if/else, once through a helper with two returns
// and once as a ternary. Inputs are halves, so every result is exact.
float fn0(float a, float b)
{
    if (a > b)
        return a * a - b;
    else
        return b * b - a;
}

__kernel void divergent_select(__global const float *a, __global const float *b,
                               __global float *result, __global float *result2)
{
    int i = get_global_id(0);
    result[i] = fn0(a[i], b[i]);
    float x = a[i], y = b[i];
    result2[i] = x > y ? x * x - y : y * y - x;
}
