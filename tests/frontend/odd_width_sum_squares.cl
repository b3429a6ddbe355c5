// Importer: a sum-of-squares loop that LLVM's IndVars/SCEV closes into i33 multiplies and a udiv-free shift.
kernel void odd_width_sum_squares(global int *out, int m) {
    int q = 0;
    for (int j = 0; j < m; j++)
        q += j * j;
    out[get_global_id(0)] = q;
}
