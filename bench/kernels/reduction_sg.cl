// Sum of n floats, the fast form with subgroups: each work-item adds a
// strided slice, its subgroup adds those with one sub_group_reduce_add,
// and work-item 0 adds the group's few subgroup sums (local size / W of
// them) into the group's partial sum. Needs subgroups (__opencl_c_subgroups).
kernel void reduce_sum_sg(global const float *restrict in, global float *restrict partial,
                          uint n, local float *scratch)
{
    size_t gid = get_global_id(0);
    size_t stride = get_global_size(0);
    float sum = 0.0f;
    for (size_t i = gid; i < n; i += stride)
        sum += in[i];
    float s = sub_group_reduce_add(sum);
    if (get_sub_group_local_id() == 0)
        scratch[get_sub_group_id()] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        float total = 0.0f;
        for (uint k = 0; k < get_num_sub_groups(); k++)
            total += scratch[k];
        partial[get_group_id(0)] = total;
    }
}
