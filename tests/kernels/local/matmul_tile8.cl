// Tiled integer matrix multiply C = A * B with 8x8 local tiles.
#define TS 8
__kernel void matmul_tile8(__global const int *A, __global const int *B, __global int *C,
                       int M, int N, int K)
{
    __local int As[TS][TS];
    __local int Bs[TS][TS];
    int col = get_global_id(0), row = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    int acc = 0;
    for (int t = 0; t < K / TS; t++) {
        As[ly][lx] = A[row * K + t * TS + lx];
        Bs[ly][lx] = B[(t * TS + ly) * N + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += As[ly][k] * Bs[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * N + col] = acc;
}
