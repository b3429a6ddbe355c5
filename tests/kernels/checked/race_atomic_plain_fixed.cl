// The fixed twin of race_atomic_plain: the store is atomic too.
__kernel void race_atomic_plain_fixed(__global int *counter, __global int *out)
{
    size_t l = get_local_id(0);
    atomic_add(counter, 1);
    if (l == 3)
        atomic_xchg(counter, 100);
    out[get_global_id(0)] = (int)l;
}
