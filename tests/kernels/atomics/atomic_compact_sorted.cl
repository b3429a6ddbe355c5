// Per-group compaction with a local atomic_inc cursor (slot order depends on
// the atomic order), made deterministic by a second phase that ranks the
// compacted values and writes them sorted; plus a global atomic_add count.
__kernel void atomic_compact_sorted(__global const int *in, __global int *out,
                                    __global int *count)
{
    __local int vals[16];
    __local int n;
    int l = get_local_id(0), L = get_local_size(0), g = get_global_id(0);
    int base = get_group_id(0) * L;
    if (l == 0)
        n = 0;
    out[g] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[g];
    if (v % 3 != 0) {
        int slot = atomic_inc(&n);
        vals[slot] = v;
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    int cnt = n;
    if (l < cnt) {
        int x = vals[l];
        int rank = 0;
        for (int k = 0; k < cnt; k++) {
            int y = vals[k];
            if (y < x || (y == x && k < l))
                rank++;
        }
        out[base + rank] = x;
    }
    if (l == 0)
        atomic_add(count, cnt);
}
