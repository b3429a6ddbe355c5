// A loop with a uniform trip count (kernel argument) holding a divergent
// if / else-if / else chain; 2D work-groups.
__kernel void uniform_loop_divif(__global const int *img, __global int *out, int iters)
{
    int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
    int v = img[y * w + x];
    int acc = 0;
    for (int it = 0; it < iters; it++) {
        if ((v + it) % 3 == 0) {
            acc += it * v;
        } else if (v > it * 4) {
            acc -= v;
        } else {
            acc ^= it;
            if (acc & 1)
                acc += 5;
        }
        v = (v * 3 + 7) % 64;
    }
    out[y * w + x] = acc;
}
