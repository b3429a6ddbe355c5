// Pairs loaded, then stored side by side after a loop with barriers: the
// two addresses are carried through it as separate values, so the compiler
// cannot prove them one element apart and tests it when storing (out: they
// are; swapped: the halves are stored in the other order, the test fails
// and the stores go one by one). Every fourth work-item stores nothing.
kernel void interleaved_after_barrier(global const int *in, global int *out,
                                      global int *swapped, int rounds)
{
    local int tmp[32];
    size_t l = get_local_id(0), g = get_global_id(0);
    size_t lo = 2 * g, hi = 2 * g + 1;
    tmp[l] = in[lo] - in[hi];
    for (int r = 0; r < rounds; r++) {
        barrier(CLK_LOCAL_MEM_FENCE);
        int t = tmp[(l + 1) % 32];
        barrier(CLK_LOCAL_MEM_FENCE);
        tmp[l] += t;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int x = tmp[l];
    int y = tmp[l] - tmp[(l + 31) % 32];
    if (g % 4 != 3) {
        out[lo] = x;
        out[hi] = y;
        swapped[hi] = x;
        swapped[lo] = y;
    }
}
