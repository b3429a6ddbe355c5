// atomic_xchg on shared local slots: which value ends up where depends on
// the order, but the sum of all returned values plus the final slot values
// equals the initial slots plus everything written. Also atomic_xchg on
// private global slots (no conflicts).
__kernel void atomic_xchg_conserve(__global const int *in, __global int *totals,
                                   __global int *gslot)
{
    __local int slots[4];
    __local int acc;
    int l = get_local_id(0), g = get_global_id(0);
    if (l < 4)
        slots[l] = 1000 * (l + 1);
    if (l == 0)
        acc = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[g];
    int old = atomic_xchg(&slots[l % 4], v);
    atomic_add(&acc, old);
    int mine = atomic_xchg(&gslot[g], v * 2);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0)
        totals[get_group_id(0)] = acc + slots[0] + slots[1] + slots[2] + slots[3];
    atomic_add(&totals[get_num_groups(0)], mine);
}
