// printf inside a loop executed by one work-item (the last one), printing
// values read from global memory and strings from a __constant table; the
// other work-items only compute.
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
            printf("%d %s in=%.2f total=%.3f\n", k, names[k & 3], in[k], total);
        }
        if (total > 10.0f)
            printf("big total %g\n", total);
        else
            printf("small total %g\n", total);
        printf("done by %d of %d\n", gid, n);
    }
}
