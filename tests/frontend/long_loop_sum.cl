// A long loop counter summed in a loop: LLVM would replace the loop's exit
// value by a closed form computed in i65; Lockstep keeps the loop instead.
kernel void long_loop_sum(global long *out, long n) {
    long s = 0;
    for (long i = 0; i < n; i++)
        s += i;
    out[0] = s;
}
