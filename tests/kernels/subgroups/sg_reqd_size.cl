// intel_reqd_sub_group_size(8): subgroups of 8 whatever the device's or
// the context's width; a reduction over them.
__attribute__((intel_reqd_sub_group_size(8)))
kernel void sg_reqd_size(global const int *x, global int *out) {
  size_t g = get_global_id(0);
  out[3 * g] = get_sub_group_size();
  out[3 * g + 1] = get_sub_group_local_id();
  out[3 * g + 2] = sub_group_reduce_add(x[g]);
}
