// printf inside a loop executed by one work-item (the last one), printing
// values read from global memory, characters from a __constant string table
// (%c: %s only takes string literals) and literal strings chosen by branch;
// the other work-items only compute.
__constant char names[4][8] = { "alpha", "beta", "gamma", "delta" };

__kernel void printf_loop(__global const float* in, __global float* out)
{
    int gid = (int)get_global_id(0);
    int n = (int)get_global_size(0);
    out[gid] = in[gid] * in[gid];
    if (gid == n - 1) {
        float total = 0.0f;
        for (int k = 0; k < 6; k++) {
            total += in[k];
            __constant char* nm = names[k & 3];
            printf("%d %c%c%c in=%.2f total=%.3f\n", k, nm[0], nm[1], nm[2], in[k], total);
        }
        if (total > 10.0f)
            printf("%s total %g\n", "big", total);
        else
            printf("%s total %g\n", "small", total);
        printf("done by %d of %d\n", gid, n);
    }
}
