kernel void fuzz(global const int *in, global int *out, global int *counts, local int *tmp) {
    int gid = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);
    int a = in[gid], b = in[(gid * 7 + 3) % get_global_size(0)], acc = 0;
    int c1 = 0;
    for (int i0 = 0; i0 < 4; i0++) {
            if ((a ^ b) > min(a, acc)) continue;
        if ((grp & 1) == 0) {
            atomic_add(&counts[((b ^ -5)) & 15], 1);
        }
        if ((grp & 1) == 0) goto L4;
        L3:
        acc += b;
        L4:
        if (++c1 < 4) goto L3;
    }
    out[gid] = acc ^ a ^ (b << 1);
}
