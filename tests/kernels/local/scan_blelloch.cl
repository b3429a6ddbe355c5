// Exclusive prefix sum, Blelloch up-sweep / down-sweep, two elements per
// work-item in a __local pointer argument; also writes each group's total.
__kernel void scan_blelloch(__global const int *in, __global int *out,
                            __local int *temp, __global int *totals)
{
    int l = get_local_id(0);
    int n = 2 * get_local_size(0);
    int base = get_group_id(0) * n;
    temp[2 * l] = in[base + 2 * l];
    temp[2 * l + 1] = in[base + 2 * l + 1];
    int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int ai = offset * (2 * l + 1) - 1;
            int bi = offset * (2 * l + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (l == 0) {
        totals[get_group_id(0)] = temp[n - 1];
        temp[n - 1] = 0;
    }
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < d) {
            int ai = offset * (2 * l + 1) - 1;
            int bi = offset * (2 * l + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[base + 2 * l] = temp[2 * l];
    out[base + 2 * l + 1] = temp[2 * l + 1];
}
