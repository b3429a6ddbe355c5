// atomic_min / atomic_max on int and uint, atomic_and / atomic_or /
// atomic_xor on global memory, and the same operations on local memory
// with per-group results.
__kernel void atomic_minmax_bits(__global const int *in, __global int *ires,
                                 __global uint *ures, __global int *gres)
{
    __local int lres[3];
    int l = get_local_id(0);
    if (l == 0) {
        lres[0] = 2147483647;
        lres[1] = -1;
        lres[2] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = in[get_global_id(0)];
    atomic_min(&ires[0], v);
    atomic_max(&ires[1], v);
    atomic_and(&ires[2], (int)~(1u << (v & 31)));
    atomic_or(&ires[3], (int)(1u << (v & 15)));
    atomic_xor(&ires[4], v);
    uint u = (uint)v * 2654435761u;
    atomic_min(&ures[0], u);
    atomic_max(&ures[1], u);
    atomic_or(&ures[2], u & 0xF0F0F0F0u);
    atomic_xor(&ures[3], u);
    atomic_and(&ures[4], u | 0x0F0F0F0Fu);
    atomic_min(&lres[0], v);
    atomic_and(&lres[1], v | 0x10101);
    atomic_xor(&lres[2], (int)((uint)v << 3));
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 3)
        gres[get_group_id(0) * 3 + l] = lres[l];
}
