// Builtins: shuffle and shuffle2 with constant and runtime masks.
kernel void shuffle_builtins(global int4 *out, global const int8 *a, global const uint4 *m) {
    size_t i = get_global_id(0);
    int8 x = a[i];
    int4 r = shuffle(x, (uint4)(7, 0, 3, 3));
    int4 s = shuffle2(x.lo, x.hi, m[i]);
    out[i] = r + s;
}
