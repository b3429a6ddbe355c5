kernel void fuzz(global const int *in, global int *out, global int *counts, local int *tmp) {
    int gid = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);
    int a = in[gid], b = in[(gid * 7 + 3) % get_global_size(0)], acc = 0;
    int c0 = 0;
        acc += b;
    switch ((((acc) >> 1)) & 3) {
    case 1:
        for (int i0 = 0; i0 < (a & 7); i0++) {
            c0 = 0;
            if ((grp & 1) == 0) goto L3;
            L2:
            acc += min((-1 ^ 3), (4 ^ acc));
            L3:
            if (++c0 < 4) goto L2;
        }
    }
    out[gid] = acc ^ a ^ (b << 1);
}
