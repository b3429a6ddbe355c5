// Per-group counters in local memory (atomic_inc, atomic_add), published by
// one work-item and merged into global totals with atomic_add.
__kernel void atomic_counter_local(__global const int *in, __global int *per_group,
                                   __global int *total)
{
    __local int cnt;
    __local int sum;
    int l = get_local_id(0);
    if (l == 0) {
        cnt = 0;
        sum = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[get_global_id(0)];
    if (v & 1)
        atomic_inc(&cnt);
    if (v % 5 == 0)
        atomic_add(&sum, v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        per_group[get_group_id(0)] = cnt * 10000 + sum;
        atomic_add(total, cnt);
        atomic_add(total + 1, sum);
    }
}
