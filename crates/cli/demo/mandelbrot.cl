// The Mandelbrot set: one work-item per pixel, iterating z = z^2 + c until
// |z| > 2 or max_iter. Neighbouring work-items leave the loop at different
// iterations: a divergent loop.

// Plain multiplies and adds (no fused multiply-add), so the host reference
// computes bit-identical orbits.
#pragma OPENCL FP_CONTRACT OFF

kernel void mandelbrot(global uint *iterations, float x0, float y0, float step,
                       uint max_iter) {
    uint px = get_global_id(0);
    uint py = get_global_id(1);
    float cr = x0 + (float)px * step;
    float ci = y0 + (float)py * step;
    float zr = 0.0f;
    float zi = 0.0f;
    uint n = 0;
    while (n < max_iter) {
        float zr2 = zr * zr;
        float zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
            break;
        zi = 2.0f * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        n++;
    }
    iterations[py * get_global_size(0) + px] = n;
}
