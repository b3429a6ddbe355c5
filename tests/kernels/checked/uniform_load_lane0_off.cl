// Checked mode, a correct kernel: a load from one address for the whole
// gang in a branch that lane 0 does not take (checked code must still load
// it, not the zeros that stand in for a load out of bounds).
__kernel void uniform_load_lane0_off(__global const int *table, __global int *out)
{
    size_t i = get_global_id(0);
    int r = -1;
    if (i % 2 == 1)
        r = table[3];
    out[i] = r;
}
