// Subtractive Euclid: a while loop with a divergent if inside and a
// lane-dependent trip count (0 when a == b).
__kernel void gcd_while(__global const int *a, __global const int *b,
                        __global int *g, __global int *iters)
{
    int i = get_global_id(0);
    int x = a[i], y = b[i], n = 0;
    while (x != y) {
        if (x > y)
            x -= y;
        else
            y -= x;
        n++;
    }
    g[i] = x;
    iters[i] = n;
}
