// Mandelbrot escape-time iteration counts: a loop whose trip count differs
// from pixel to pixel, so lanes leave it at different times.
kernel void mandelbrot(global uint *out, float x0, float y0, float step,
                       uint width, uint max_iter)
{
    uint px = get_global_id(0);
    uint py = get_global_id(1);
    float cr = x0 + (float)px * step;
    float ci = y0 + (float)py * step;
    float zr = 0.0f, zi = 0.0f;
    uint i = 0;
    while (i < max_iter) {
        float zr2 = zr * zr;
        float zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
            break;
        float t = zr * zi;
        zi = t + t + ci;
        zr = zr2 - zi2 + cr;
        i++;
    }
    out[py * width + px] = i;
}
