// Importer: nested loops with break, continue and an early return (several exits).
kernel void multi_exit_loop(global int *out, global const int *m, int n) {
    size_t g = get_global_id(0);
    int found = -1;
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            int v = m[r * n + c];
            if (v < 0)
                continue;
            if (v == (int)g) { found = r * n + c; break; }
            if (v > 1000)
                return;
        }
        if (found >= 0)
            break;
    }
    out[g] = found;
}
