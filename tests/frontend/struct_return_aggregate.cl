// Importer: aggregates: an inlined helper returns a struct by value (extractvalue/insertvalue).
typedef struct { int q, r; } divmod_t;

divmod_t divmod(int a, int b) {
    divmod_t d;
    d.q = a / b;
    d.r = a % b;
    return d;
}

kernel void struct_return_aggregate(global int *out, global const int *a, int b) {
    size_t i = get_global_id(0);
    divmod_t d = divmod(a[i], b);
    out[2 * i] = d.q;
    out[2 * i + 1] = d.r;
}
