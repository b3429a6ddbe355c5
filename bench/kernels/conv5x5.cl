// 5x5 convolution of a w x h image with clamped borders, tiled: each 16x16
// work-group stages its 20x20 input tile (the tile and a 2-pixel halo) in
// local memory, waits at a barrier, then computes its outputs from the tile.
// w and h are multiples of TILE.
#define TILE 16
#define R 2
#define SIDE (TILE + 2 * R)

kernel void conv5x5(global const float *restrict in, global float *restrict out,
                    constant float *restrict filt, int w, int h)
{
    local float tile[SIDE][SIDE];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_group_id(0) * TILE, gy = get_group_id(1) * TILE;
    for (int y = ly; y < SIDE; y += TILE)
        for (int x = lx; x < SIDE; x += TILE) {
            int sx = clamp(gx + x - R, 0, w - 1);
            int sy = clamp(gy + y - R, 0, h - 1);
            tile[y][x] = in[sy * w + sx];
        }
    barrier(CLK_LOCAL_MEM_FENCE);
    float sum = 0.0f;
    for (int j = 0; j < 2 * R + 1; j++)
        for (int i = 0; i < 2 * R + 1; i++)
            sum += filt[j * (2 * R + 1) + i] * tile[ly + j][lx + i];
    out[(gy + ly) * w + gx + lx] = sum;
}
