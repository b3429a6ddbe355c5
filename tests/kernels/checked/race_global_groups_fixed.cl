// The fixed twin of race_global_groups: each group writes its own word.
__kernel void race_global_groups_fixed(__global int *total, __global int *out)
{
    size_t g = get_global_id(0);
    out[g] = (int)g;
    if (get_local_id(0) == 0)
        total[get_group_id(0)] = (int)get_group_id(0);
}
