// The stream triad with an `int` index, as much OpenCL code is written:
// `int i = get_global_id(0)` truncates and sign-extends the id, and the
// accesses are still consecutive. Memory bound, like saxpy.
kernel void stream_int(global const float *restrict a, global const float *restrict b,
                       global float *restrict c, float s)
{
    int i = get_global_id(0);
    c[i] = a[i] + s * b[i];
}
