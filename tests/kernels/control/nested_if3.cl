// Divergent if/else nested three deep on different bits of the input.
__kernel void nested_if3(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int v = in[i];
    int r = 0;
    if (v & 1) {
        r += 1;
        if (v & 2) {
            r += 10;
            if (v & 4)
                r += 100;
            else
                r -= 100;
        } else {
            r += 20;
            if (v > 50)
                r *= 3;
            else
                r = r * 2 + v;
        }
        r += v;
    } else {
        if (v % 3 == 0) {
            if (v % 9 == 0)
                r = v / 9;
            else
                r = -v;
        } else {
            r = 7;
            if (v < 20)
                r = r + v * v;
        }
        r -= 1;
    }
    out[i] = r;
}
