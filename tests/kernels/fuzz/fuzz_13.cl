kernel void fuzz(global const int *in, global int *out, global int *counts, local int *tmp) {
    int gid = get_global_id(0), lid = get_local_id(0), grp = get_group_id(0);
    int a = in[gid], b = in[(gid * 7 + 3) % get_global_size(0)], acc = 0;
    int c3 = 0;
    for (int i0 = 0; i0 < 5; i0++) {
        switch ((i0) & 3) {
        default:
            switch (((lid * acc)) & 3) {
            case 2:
                acc += ((a + -5) - (lid - lid));
            default:
                acc += max(min(5, a), ((grp) / (((a) & 7) + 1)));
            }
        }
        if ((lid + a) > (lid - grp)) break;
    }
        barrier(CLK_LOCAL_MEM_FENCE);
    switch ((a) & 3) {
    case 1:
                acc += acc;
    case 2:
            if (max(lid, acc) > min(acc, acc)) goto L7;
            L6:
            acc += grp;
            L7:
            if (++c3 < 2) goto L6;
    }
    out[gid] = acc ^ a ^ (b << 1);
}
