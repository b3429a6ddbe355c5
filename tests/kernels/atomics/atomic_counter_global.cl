// Global counters updated by every work-item under a divergent condition:
// atomic_inc / atomic_add on one path, atomic_sub / atomic_dec on the other.
__kernel void atomic_counter_global(__global const int *in, __global int *counters, int thresh)
{
    int v = in[get_global_id(0)];
    if (v > thresh) {
        atomic_inc(&counters[0]);
        atomic_add(&counters[1], v);
    } else {
        atomic_sub(&counters[2], v);
        atomic_dec(&counters[3]);
    }
    atomic_add(&counters[4], 1);
}
