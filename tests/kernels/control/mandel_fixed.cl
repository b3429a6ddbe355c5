// Mandelbrot escape counts in Q12 fixed point (exact integer arithmetic):
// a divergent while loop with a break, on a 2D NDRange.
__kernel void mandel_fixed(__global int *iters, int max_iter)
{
    int px = get_global_id(0), py = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    int cx = -2 * 4096 + (px * 3 * 4096) / w;
    int cy = -(3 * 4096 / 2) + (py * 3 * 4096) / h;
    int x = 0, y = 0, n = 0;
    while (n < max_iter) {
        int xx = (x * x) >> 12, yy = (y * y) >> 12;
        if (xx + yy > 4 * 4096)
            break;
        int xy = (x * y) >> 11;
        x = xx - yy + cx;
        y = xy + cy;
        n++;
    }
    iters[py * w + px] = n;
}
