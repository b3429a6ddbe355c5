// fma (single rounding, differs from a*b+c for these inputs), mad on exact
// inputs, fmin/fmax/fabs/copysign/fdim/maxmag/minmag with signed zeros.
__kernel void fma_minmax(__global const float* a, __global const float* b,
                         __global const float* c, __global float* res)
{
    int i = (int)get_global_id(0);
    float x = a[i];
    float y = b[i];
    float z = c[i];
    res[8 * i + 0] = fma(x, y, z);
    res[8 * i + 1] = mad(y, 0.5f, z);
    res[8 * i + 2] = fmin(x, y) + 2.0f * fmax(y, z);
    res[8 * i + 3] = fabs(z) - fabs(x);
    res[8 * i + 4] = copysign(x, z);
    res[8 * i + 5] = fdim(x, y);
    res[8 * i + 6] = maxmag(y, z);
    res[8 * i + 7] = minmag(x, -y);
}
