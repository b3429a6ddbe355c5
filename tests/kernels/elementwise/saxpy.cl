// saxpy with a grid-stride loop: y = a*x + y for n elements, fewer work-items
// than elements so each work-item handles several indices.
__kernel void saxpy(__global const float* x, __global float* y,
                    const float a, const int n)
{
    int gid = (int)get_global_id(0);
    int stride = (int)get_global_size(0);
    for (int i = gid; i < n; i += stride) {
        y[i] = a * x[i] + y[i];
    }
}
