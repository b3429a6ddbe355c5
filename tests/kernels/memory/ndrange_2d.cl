// 2D NDRange: integer matrix multiply C = A * B (16x16) where each work-item
// computes one element, plus the work-item / work-group ids in each dimension.
__kernel void ndrange_2d(__global const int* A, __global const int* B,
                         __global int* C, __global int* ids)
{
    int col = (int)get_global_id(0);
    int row = (int)get_global_id(1);
    int n = (int)get_global_size(0);
    int acc = 0;
    for (int k = 0; k < n; k++)
        acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
    ids[row * n + col] = (int)(get_group_id(1) * 1000 + get_group_id(0) * 100
                               + get_local_id(1) * 10 + get_local_id(0))
                         + (int)(get_num_groups(0) * 100000 + get_local_size(1) * 10000000);
}
