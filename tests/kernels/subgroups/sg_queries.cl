// The subgroup queries, per work-item: size, largest size, number of
// subgroups (this group's and an enqueued group's), subgroup id and local
// id. 2-D groups (subgroups run along the flattened local id).
kernel void sg_queries(global uint *out) {
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  global uint *o = out + 6 * i;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_enqueued_num_sub_groups();
  o[4] = get_sub_group_id();
  o[5] = get_sub_group_local_id();
}
