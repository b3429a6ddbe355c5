// A 5x5 Gaussian blur (binomial weights) of an RGBA image: nearest reads at
// integer coordinates, clamped to the edge, and a write per texel.
__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant float weights[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};

kernel void gaussian_blur(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 sum = (float4)(0.0f);
    for (int dy = -2; dy <= 2; dy++) {
        for (int dx = -2; dx <= 2; dx++) {
            float w = weights[dx + 2] * weights[dy + 2] / 256.0f;
            sum += w * read_imagef(src, edge, p + (int2)(dx, dy));
        }
    }
    write_imagef(dst, p, sum);
}
