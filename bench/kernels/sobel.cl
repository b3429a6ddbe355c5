// Sobel edge magnitude of a width x height float image (a 3x3 stencil in
// 2D); border pixels read their nearest row/column inside the image.
kernel void sobel(global const float *restrict img, global float *restrict out,
                  uint width, uint height)
{
    uint x = get_global_id(0), y = get_global_id(1);
    uint xl = x > 0 ? x - 1 : 0, xr = x + 1 < width ? x + 1 : x;
    uint yu = y > 0 ? y - 1 : 0, yd = y + 1 < height ? y + 1 : y;
    global const float *up = img + yu * width;
    global const float *mid = img + y * width;
    global const float *down = img + yd * width;
    float gx = (up[xr] + 2.0f * mid[xr] + down[xr]) - (up[xl] + 2.0f * mid[xl] + down[xl]);
    float gy = (down[xl] + 2.0f * down[x] + down[xr]) - (up[xl] + 2.0f * up[x] + up[xr]);
    out[y * width + x] = sqrt(gx * gx + gy * gy);
}
