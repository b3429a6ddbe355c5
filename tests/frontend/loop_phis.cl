// Importer: a loop with several loop-carried values (block parameters / phis), incl. a swap.
kernel void loop_phis(global int *out, int n) {
    int a = 0, b = 1, sum = 0, prod = 1;
    for (int i = 0; i < n; i++) {
        int t = a + b;
        a = b;
        b = t;
        sum += a;
        prod *= (i | 1);
    }
    size_t g = get_global_id(0);
    out[g] = a ^ b ^ sum ^ prod;
}
