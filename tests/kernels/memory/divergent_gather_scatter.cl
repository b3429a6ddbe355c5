// Gathers and scatters under masks that depend on the data, where a target
// without hardware scatter (AVX2) goes lane by lane: a compare-exchange of
// pairs `dist` apart (bitonic's step; not consecutive when dist is below
// the gang width), byte and float gathers in a divergent branch, and a
// private array written at a varying index in a divergent branch.
// Work-items past `n` do nothing; the last work-group is partial.
kernel void divergent_gather_scatter(global uint *data, global const uchar *bytes,
                                     global const float *table, global float *gathered,
                                     global uint *picked, uint dist, uint n)
{
    uint t = get_global_id(0);
    if (t >= n)
        return;
    uint lo = (t / dist) * 2 * dist + t % dist;
    uint hi = lo + dist;
    uint a = data[lo], b = data[hi];
    if (a > b) {
        data[lo] = b;
        data[hi] = a;
    }
    float g = -1.0f;
    if (bytes[t % 61] & 1)
        g = table[bytes[(t * 7) % 61] & 31] + (float)bytes[(t * 5) % 61];
    gathered[t] = g;
    uint slots[8];
    for (int i = 0; i < 8; i++)
        slots[i] = 100 + i;
    if (a & 1)
        slots[b & 7] = a;
    picked[t] = slots[a & 7] + slots[(a >> 3) & 7];
}
