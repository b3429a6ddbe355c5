// Collatz chain lengths: each work-item follows x -> x/2 or 3x+1 down to 1
// and counts the steps. Neighbouring starting values have chains of very
// different lengths (a data-dependent trip count): lanes finish at
// different times.
kernel void collatz(global const uint *start, global uint *steps)
{
    uint i = get_global_id(0);
    ulong x = start[i];
    uint n = 0;
    while (x > 1) {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        n++;
    }
    steps[i] = n;
}
