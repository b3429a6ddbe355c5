// Builtins: 64-bit atom_* (cl_khr_int64_base/extended_atomics) on long/ulong and legacy atom_add on int.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void atomics_long_atom(global long *l, global ulong *u, global int *n) {
    long a = atom_add(&l[0], 5L) + atom_cmpxchg(&l[1], 0L, 42L) + atom_xchg(&l[2], -1L);
    ulong b = atom_max(&u[0], 7UL) + atom_and(&u[1], 0xffUL) + atom_inc(&u[2]);
    int c = atom_add(&n[0], 1);
    l[3 + get_global_id(0)] = a + (long)b + c;
}
