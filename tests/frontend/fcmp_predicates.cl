// Importer: float comparisons ordered and unordered (!(a<b), isunordered, isless, ==, !=) and fp casts.
kernel void fcmp_predicates(global int *out, global const float *a, global const double *d) {
    size_t i = get_global_id(0);
    float x = a[i], y = a[i + 1];
    int r = (x == y) | (x != y) << 1 | !(x < y) << 2 | isunordered(x, y) << 3 | isless(x, y) << 4;
    double z = d[i];
    r |= ((float)z > x) << 5 | (z >= (double)y) << 6 | ((int)z == (int)x) << 7;
    out[i] = r;
}
