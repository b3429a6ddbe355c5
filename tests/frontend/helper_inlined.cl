// Driver: a chain of non-kernel helper functions, all inlined into the kernel.
int square(int x) { return x * x; }
int poly(int x) { return square(x) + 2 * x + 1; }

kernel void helper_inlined(global int *out, int k) {
    size_t i = get_global_id(0);
    out[i] = poly((int)i + k);
}
