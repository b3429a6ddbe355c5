// pow (any sign of base, integral exponents for negative bases), powr
// (base >= 0), pown (int exponent), rootn (int root, odd roots of negatives).
__kernel void pow_family(__global const float* x, __global const float* y,
                         __global const int* n, __global float* res)
{
    int i = (int)get_global_id(0);
    float a = x[i];        // positive
    float b = y[i];        // in [-3, 3]
    int k = n[i];          // in [-5, 6], never 0
    res[5 * i + 0] = pow(a, b);
    res[5 * i + 1] = pow(-a, (float)k);     // negative base, integral exponent
    res[5 * i + 2] = powr(a, b * 0.5f);
    res[5 * i + 3] = pown(a - 2.0f, k);
    res[5 * i + 4] = rootn((k & 1) ? -a : a, k);
}
