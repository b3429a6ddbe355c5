// C = A * B for square row-major matrices of order n (a multiple of TILE),
// through TILE x TILE tiles of A and B staged in local memory.
#define TILE 16

kernel void matmul(global const float *restrict a, global const float *restrict b,
                   global float *restrict c, uint n)
{
    local float ta[TILE][TILE];
    local float tb[TILE][TILE];
    uint lx = get_local_id(0), ly = get_local_id(1);
    uint col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (uint t = 0; t < n; t += TILE) {
        ta[ly][lx] = a[row * n + t + lx];
        tb[ly][lx] = b[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TILE; k++)
            acc += ta[ly][k] * tb[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = acc;
}
