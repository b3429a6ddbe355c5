// C = A * B for row-major n x n matrices (n a multiple of TILE), tiled: each
// work-group computes a TILE x TILE block of C, staging TILE x TILE blocks of
// A and B in __local memory so each element is loaded from global memory
// once per group instead of once per work-item.

#define TILE 16

kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void matmul(global const float *a, global const float *b, global float *c, uint n) {
    local float a_tile[TILE][TILE];
    local float b_tile[TILE][TILE];
    uint lx = get_local_id(0), ly = get_local_id(1);
    uint col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (uint t = 0; t < n; t += TILE) {
        a_tile[ly][lx] = a[row * n + t + lx];
        b_tile[ly][lx] = b[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TILE; k++)
            acc += a_tile[ly][k] * b_tile[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = acc;
}
