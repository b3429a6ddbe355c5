// 64-bit atomics (cl_khr_int64_base_atomics / extended_atomics): atom_add
// with sums beyond 32 bits and wrapping ulong products, atom_inc, atom_sub,
// atom_xor, atom_max, atom_min.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

__kernel void atom64_add(__global const long *in, __global ulong *usum, __global long *res)
{
    long v = in[get_global_id(0)];
    atom_add(&usum[0], (ulong)v * 3000000000UL);
    atom_inc(&usum[1]);
    atom_xor(&usum[2], (ulong)v * 0x9E3779B97F4A7C15UL);
    atom_add(&res[0], v);
    atom_sub(&res[1], v >> 7);
    atom_max(&res[2], v);
    atom_min(&res[3], v);
}
