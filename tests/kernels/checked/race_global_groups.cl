// Checked mode (interpreter): the first work-item of every work-group
// writes the same __global word (work-groups are not ordered).
__kernel void race_global_groups(__global int *total, __global int *out)
{
    size_t g = get_global_id(0);
    out[g] = (int)g;
    if (get_local_id(0) == 0)
        total[0] = (int)get_group_id(0);
}
