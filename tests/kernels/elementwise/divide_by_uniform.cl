// Division and remainder by a divisor the same for the whole gang but not
// a constant (one per work-group, loaded at a uniform address), which the
// code generator does as a multiplication by a reciprocal computed once
// for the gang: signed and unsigned 32-bit values of both signs and at
// the extremes, by 1, powers of two, small and large odd divisors, the
// largest magnitudes and negative divisors (the quotient rounds toward
// zero, the remainder takes the dividend's sign). INT_MIN / -1, which
// OpenCL leaves undefined, is skipped.
kernel void divide_by_uniform(global const int *a, global const int *divisors,
                              global int *sres, global uint *ures)
{
    uint i = get_global_id(0);
    int d = divisors[get_group_id(0)];
    uint ud = (uint)d;
    int x = a[i];
    uint ux = (uint)x;
    if (x != INT_MIN || d != -1) {
        sres[2 * i + 0] = x / d;
        sres[2 * i + 1] = x % d;
    }
    ures[2 * i + 0] = ux / ud;
    ures[2 * i + 1] = ux % ud;
}
