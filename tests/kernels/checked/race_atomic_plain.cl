// Checked mode (interpreter): an atomic and a plain store to the same word
// in one barrier interval race (atomics only exclude other atomics).
__kernel void race_atomic_plain(__global int *counter, __global int *out)
{
    size_t l = get_local_id(0);
    atomic_add(counter, 1);
    if (l == 3)
        counter[0] = 100;
    out[get_global_id(0)] = (int)l;
}
