// Ternaries, nested ternaries, select() on scalars and vectors, vector ?:,
// min/max/clamp: data-flow divergence without branches.
__kernel void select_chain(__global const int *a, __global const int *b,
                           __global int *out, __global int *out2)
{
    int x = get_global_id(0), y = get_global_id(1);
    int i = y * get_global_size(0) + x;
    int p = a[i], q = b[i];
    int m = p < q ? p : q;
    int M = p < q ? q : p;
    int c = p > 50 ? 3 : p > 25 ? 2 : p > 10 ? 1 : 0;
    int s = select(p, q, (p & 1) == (q & 1));
    int cl = clamp(p - q, -10, 10);
    int4 v = (int4)(p, q, m, M);
    int4 w = select(v, -v, v > (int4)(30));
    int4 u = (v & 3) == (int4)(1) ? v * 2 : v / 2;
    int ws = w.x + w.y + w.z + w.w;
    int us = u.x + u.y + u.z + u.w;
    out[i] = m + 64 * M + 4096 * c + 16384 * s;
    out2[i] = (cl + 10) + 32 * (ws + 300) + 65536 * (min(us, 200) + max(p, 2 * q));
}
