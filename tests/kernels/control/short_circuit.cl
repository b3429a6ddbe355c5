// && and || with side effects and a division guarded by short-circuit
// evaluation: the division must not run (or trap) in lanes where v == 0.
int probe(__global int *hits, int i, int v)
{
    hits[i] += 1;
    return v;
}

__kernel void short_circuit(__global const int *in, __global int *out, __global int *hits)
{
    int i = get_global_id(0);
    int v = in[i];
    int r = 0;
    if (v != 0 && 100 / v > 3)
        r |= 1;
    if (v < 10 || probe(hits, i, v) > 40)
        r |= 2;
    if ((v & 1) && probe(hits, i, v * 2) < 50 && (v % 5 != 0))
        r |= 4;
    r |= (v > 20 && v < 40) ? 8 : 0;
    out[i] = r;
}
