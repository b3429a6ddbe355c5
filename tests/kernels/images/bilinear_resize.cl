// Bilinear resize of a one-channel float image to the launch's size:
// normalized coordinates at texel centres, linear filtering, clamped to the
// edge.
__constant sampler_t bilinear = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

kernel void bilinear_resize(read_only image2d_t src, global float *dst) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    float2 uv = (float2)((x + 0.5f) / w, (y + 0.5f) / h);
    dst[y * w + x] = read_imagef(src, bilinear, uv).x;
}
