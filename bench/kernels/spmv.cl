// y = A*x for a sparse matrix A in CSR form, one work-item per row. The rows
// are skewed (most have a few non-zeros, a few have hundreds), so the lanes
// of a gang run loops of very different lengths, and every x[col[k]] is a
// data-dependent load (a gather).
kernel void spmv_csr(global const uint *restrict rowptr, global const uint *restrict col,
                     global const float *restrict val, global const float *restrict x,
                     global float *restrict y, uint rows)
{
    uint row = get_global_id(0);
    if (row >= rows)
        return;
    float sum = 0.0f;
    for (uint k = rowptr[row]; k < rowptr[row + 1]; k++)
        sum += val[k] * x[col[k]];
    y[row] = sum;
}
