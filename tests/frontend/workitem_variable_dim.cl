// Builtins: work-item functions with a variable (runtime) dimension index, incl. an out-of-range one.
kernel void workitem_variable_dim(global ulong *out, uint d) {
    size_t acc = 0;
    for (uint k = 0; k < get_work_dim(); k++)
        acc += get_global_id(k) * get_global_size(k);
    out[get_global_id(0)] = acc + get_local_id(d) + get_group_id(d + 1) + get_local_size(7);
}
