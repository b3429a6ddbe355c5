kernel void fuzz(global const int *in, global int *out, global int *counts, local int *tmp) {
    int gid = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);
    int a = in[gid], b = in[(gid * 7 + 3) % get_global_size(0)], acc = 0;
    if ((grp & 1) == 0) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
        for (int i1 = 0; i1 < (a & 7); i1++) {
            acc += (max(i1, i1) * b);
        }
    if ((8 + grp) > acc) goto L0;
    atomic_add(&counts[((8 & b)) & 15], 1);
    L0: ;
    out[gid] = acc ^ a ^ (b << 1);
}
