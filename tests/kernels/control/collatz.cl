// Collatz steps: a per-lane loop whose trip count differs wildly between lanes.
__kernel void collatz(__global const uint *start, __global uint *steps, __global uint *peak)
{
    uint i = get_global_id(0);
    uint n = start[i];
    uint s = 0, p = n;
    while (n != 1) {
        if (n & 1)
            n = 3 * n + 1;
        else
            n >>= 1;
        if (n > p)
            p = n;
        s++;
    }
    steps[i] = s;
    peak[i] = p;
}
