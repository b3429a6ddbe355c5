// Checked mode (interpreter): an integer division by a zero divisor.
__kernel void division_by_zero(__global const int *num, __global const int *den, __global int *out)
{
    size_t i = get_global_id(0);
    out[i] = num[i] / den[i];
}
