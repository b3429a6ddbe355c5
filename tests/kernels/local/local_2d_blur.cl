// 3x3 weighted box filter on 16x4 work-groups: the (4+2)x(16+2) tile with
// its halo is loaded cooperatively (a loop with a lane-dependent trip count),
// clamped at the image border.
__kernel void local_2d_blur(__global const int *img, __global int *out, int W, int H)
{
    __local int t[6][18];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = get_global_id(0), y = get_global_id(1);
    int LX = get_local_size(0), LY = get_local_size(1);
    int bx = get_group_id(0) * LX - 1, by = get_group_id(1) * LY - 1;
    for (int idx = ly * LX + lx; idx < (LX + 2) * (LY + 2); idx += LX * LY) {
        int tx = idx % (LX + 2), ty = idx / (LX + 2);
        int sx = clamp(bx + tx, 0, W - 1), sy = clamp(by + ty, 0, H - 1);
        t[ty][tx] = img[sy * W + sx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int s = 0;
    for (int dy = 0; dy < 3; dy++)
        for (int dx = 0; dx < 3; dx++)
            s += t[ly + dy][lx + dx] * ((dx == 1 && dy == 1) ? 4 : 1);
    out[y * W + x] = s;
}
