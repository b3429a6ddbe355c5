// 5x5 Gaussian blur (binomial weights 1 4 6 4 1, over 256) of an RGBA float
// image read through a sampler that clamps to the edge: images and samplers
// (`read_imagef` with integer coordinates, `write_imagef`).
constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

kernel void blur_image(read_only image2d_t src, write_only image2d_t dst)
{
    int x = get_global_id(0), y = get_global_id(1);
    const float w[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};
    float4 sum = (float4)(0.0f);
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 5; i++)
            sum += (w[j] * w[i]) * read_imagef(src, smp, (int2)(x + i - 2, y + j - 2));
    write_imagef(dst, (int2)(x, y), sum * (1.0f / 256.0f));
}
