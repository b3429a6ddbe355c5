// goto into the middle of a loop body: lanes with v > 50 enter the loop
// past its initialisation and condition.
__kernel void goto_into_loop(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int v = in[i];
    int s = 0;
    int k = v % 4;
    if (v > 50)
        goto inside;
    for (k = 0; k < 10; k++) {
        s += k;
inside:
        s += v & 7;
        if (s > 60)
            break;
    }
    out[i] = s * 100 + k;
}
