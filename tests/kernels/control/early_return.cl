// Early returns from divergent paths, including from inside a nested loop.
__kernel void early_return(__global const int *in, __global int *out, __global int *where)
{
    int i = get_global_id(0);
    int v = in[i];
    out[i] = -1;
    where[i] = 0;
    if (v < 0) {
        out[i] = -v;
        where[i] = 1;
        return;
    }
    if (v == 0)
        return;
    for (int a = 2; a < 8; a++) {
        for (int b = a; b < 10; b++) {
            if (a * b == v) {
                out[i] = a * 10 + b;
                where[i] = 2;
                return;
            }
            if (a * b > v)
                break;
        }
        if (a + v % 11 == 12) {
            out[i] = a;
            where[i] = 4;
            return;
        }
    }
    out[i] = v * 2;
    where[i] = 3;
}
