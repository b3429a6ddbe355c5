kernel void fuzz(global const int *in, global int *out, global int *counts, local int *tmp) {
    int gid = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);
    int a = in[gid], b = in[(gid * 7 + 3) % get_global_size(0)], acc = 0;
    int c0 = 0;
    for (int i0 = 0; i0 < (a & 7); i0++) {
            if ((grp & 1) == 0) goto L1;
            L0:
            acc += max(-3, -7);
            L1:
            if (++c0 < 2) goto L0;
    }
    out[gid] = acc ^ a ^ (b << 1);
}
