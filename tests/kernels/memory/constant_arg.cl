// __constant buffers passed as kernel arguments: polynomial coefficients
// (evaluated with Horner's rule, degree from an argument) and an index
// remapping table.
__kernel void constant_arg(__global const float* x, __constant float* coeffs,
                           __constant int* remap, const int degree,
                           __global float* y, __global int* idx)
{
    int i = (int)get_global_id(0);
    float v = x[remap[i % 16] + 16 * (i / 16)];
    float acc = coeffs[degree];
    for (int k = degree - 1; k >= 0; k--) {
        acc = acc * v + coeffs[k];
    }
    y[i] = acc;
    idx[i] = remap[(i * 7) % 16] * 100 + remap[remap[i % 16]];
}
