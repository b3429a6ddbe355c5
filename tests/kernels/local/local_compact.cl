// Ordered stream compaction per work-group: flags in local memory, a serial
// exclusive scan by one work-item, then a scatter of the kept values.
__kernel void local_compact(__global const int *in, __global int *out, __global int *counts)
{
    __local int flag[16];
    __local int pos[16];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    int base = get_group_id(0) * n;
    int v = in[g];
    int keep = (v % 4 == 1) || v > 80;
    flag[l] = keep;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int s = 0;
        for (int k = 0; k < n; k++) {
            pos[k] = s;
            s += flag[k];
        }
        counts[get_group_id(0)] = s;
    }
    out[g] = -1;
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (keep)
        out[base + pos[l]] = v;
}
