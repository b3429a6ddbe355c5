// Non-uniform work-groups (OpenCL 2.0+): global size 100 with local size 16
// gives 6 full groups and a last group of 4 work-items.
__kernel void nonuniform_1d(__global const float* in, __global float* out,
                            __global int* info)
{
    int i = (int)get_global_id(0);
    out[i] = in[i] * 2.0f + (float)get_local_size(0);
    info[i] = (int)(get_local_size(0) * 10000 + get_group_id(0) * 100 + get_local_id(0));
    if (get_local_id(0) == 0) {
        info[100 + get_group_id(0)] = (int)(get_num_groups(0) * 10000
                                            + get_enqueued_local_size(0) * 100
                                            + get_global_size(0) % 100);
    }
}
