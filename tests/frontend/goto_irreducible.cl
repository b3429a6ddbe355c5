// Importer: an irreducible CFG built with goto (two entries into one loop).
kernel void goto_irreducible(global int *out, int n, int start_odd) {
    int i = 0, acc = 0;
    if (start_odd)
        goto odd;
even:
    acc += i * 2;
    i++;
odd:
    acc ^= i;
    i++;
    if (i < n)
        goto even;
    out[get_global_id(0)] = acc;
}
