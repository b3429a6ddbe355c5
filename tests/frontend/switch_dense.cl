// Importer: a dense switch with fall-through between cases and a default.
kernel void switch_dense(global int *out, global const int *in) {
    size_t i = get_global_id(0);
    int x = in[i], r = 0;
    switch (x) {
    case 0: r += 10;
    case 1: r += 20; break;
    case 2: r = 7; break;
    case 3:
    case 4: r = x * 3;
    case 5: r += 1; break;
    default: r = -1;
    }
    out[i] = r;
}
