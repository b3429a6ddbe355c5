// Builtins: work-item functions in dimensions 0, 1, 2 and get_work_dim/linear ids/offset/num_groups.
kernel void workitem_1d_2d_3d(global ulong *out) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t lin = (z * get_global_size(1) + y) * get_global_size(0) + x;
    out[lin] = get_local_id(1) + get_group_id(2) * get_num_groups(1) + get_local_size(2)
             + get_global_offset(0) + get_work_dim() + get_global_linear_id() + get_local_linear_id()
             + get_enqueued_local_size(1);
}
