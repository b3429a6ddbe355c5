// saxpy in stream-triad form: z = a*x + y. Memory bound: 12 bytes moved per
// 2 flops, so the bound is the memory bandwidth.
kernel void saxpy(float a, global const float *restrict x,
                  global const float *restrict y, global float *restrict z)
{
    size_t i = get_global_id(0);
    z[i] = a * x[i] + y[i];
}
