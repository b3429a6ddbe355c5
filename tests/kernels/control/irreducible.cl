// An irreducible loop: A -> B -> A, entered at A by even lanes and at B by
// odd lanes. trace records the visited blocks as base-3 digits.
__kernel void irreducible(__global const int *in, __global int *out, __global int *trace)
{
    int i = get_global_id(0);
    int v = in[i];
    int n = 0;
    int t = 0;
    if (v & 1)
        goto B;
A:
    v = v + 3;
    n++;
    t = t * 3 + 1;
B:
    v = v / 2 + (v & 1) * 5;
    n++;
    t = t * 3 + 2;
    if (n < 12 && v > 4)
        goto A;
    out[i] = v * 100 + n;
    trace[i] = t;
}
