// 3D NDRange: linearised global ids, local ids, group ids and sizes in all
// three dimensions, and get_work_dim().
__kernel void ndrange_3d(__global int* gid, __global int* grp, __global int* dims)
{
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t sx = get_global_size(0), sy = get_global_size(1);
    size_t lin = (z * sy + y) * sx + x;
    gid[lin] = (int)(x * 10000 + y * 100 + z);
    grp[lin] = (int)(get_group_id(2) * 10000 + get_group_id(1) * 1000 + get_group_id(0) * 100
                     + get_local_id(2) * 16 + get_local_id(1) * 4 + get_local_id(0));
    if (lin == 0) {
        dims[0] = (int)get_work_dim();
        dims[1] = (int)(get_global_size(0) * 10000 + get_global_size(1) * 100 + get_global_size(2));
        dims[2] = (int)(get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_size(2));
        dims[3] = (int)(get_num_groups(0) * 100 + get_num_groups(1) * 10 + get_num_groups(2));
    }
}
