// Importer: a sparse switch (large, negative case values) with a fall-through.
kernel void switch_sparse(global int *out, global const int *in) {
    size_t i = get_global_id(0);
    int r;
    switch (in[i]) {
    case -1000: r = 1; break;
    case 7:     out[i + 1] = 3;
    case 4096:  r = 2; break;
    case 123456: r = 3; break;
    case 0x7fffffff: r = 4; break;
    default:    r = 0;
    }
    out[i] = r;
}
