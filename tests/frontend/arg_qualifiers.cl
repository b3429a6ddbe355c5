// Metadata: kernel argument type qualifiers (const, restrict, volatile), address spaces, typedef'd and unsigned type names.
typedef uint my_uint;

kernel void arg_qualifiers(global const float *restrict in, global float *restrict out,
                           volatile global int *flag, constant int *c, local float *l,
                           const int n, my_uint m, global uchar *bytes) {
    size_t i = get_global_id(0);
    l[get_local_id(0)] = in[i];
    out[i] = in[i] * (float)(n + c[0]) + (float)m + bytes[i];
    *flag = 1;
}
