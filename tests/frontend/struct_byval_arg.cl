// Importer: a struct passed by value as a kernel argument (byval size/align in metadata).
typedef struct {
    float scale;
    int offset;
    char flag;
    double bias;
} params_t;

kernel void struct_byval_arg(global float *out, params_t p) {
    size_t i = get_global_id(0);
    float v = out[i] * p.scale + (float)p.offset;
    out[i] = p.flag ? v + (float)p.bias : v;
}
