// Slots from atomic results: each work-item takes a slot in its bin with
// the value local atomic_inc returns (per-lane addresses, heavy conflicts:
// most values fall into two bins) and marks it, and takes a ticket from one
// counter for the group (atomic_add of its weight at one address) and
// records the range it got. Every slot and every ticket range is taken
// exactly once whatever the order, so the marks and the sorted ranges are
// order-free.
#define BINS 8
#define SLOTS 64
__kernel void atomic_slots(__global const uint *in, __global uint *marks,
                           __global uint *tickets, __global uint *totals)
{
    __local uint count[BINS];
    __local uint next;
    int l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
    for (int b = l; b < BINS; b += n)
        count[b] = 0;
    if (l == 0)
        next = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = in[get_global_id(0)];
    uint bin = (v % 3 == 0) ? 1 : ((v & 1) ? 5 : v % BINS);
    uint slot = atomic_inc(&count[bin]);
    if (slot < SLOTS)
        marks[(g * BINS + bin) * SLOTS + slot] += 1;
    uint weight = (v & 3) + 1;
    uint first = atomic_add(&next, weight);
    // Ticket range [first, first + weight): one mark per ticket.
    for (uint t = first; t < first + weight; t++)
        tickets[g * 4 * n + t] += 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = l; b < BINS; b += n)
        totals[g * (BINS + 1) + b] = count[b];
    if (l == 0)
        totals[g * (BINS + 1) + BINS] = next;
}
