// Builtins/metadata: reqd_work_group_size, work_group_size_hint and vec_type_hint kernel attributes.
kernel __attribute__((reqd_work_group_size(8, 4, 2)))
void attr_reqd(global int *out) { out[get_global_linear_id()] = 1; }

kernel __attribute__((work_group_size_hint(64, 1, 1))) __attribute__((vec_type_hint(float4)))
void attr_hint(global float4 *out) { out[get_global_id(0)] *= 2.0f; }

kernel __attribute__((vec_type_hint(uint))) __attribute__((reqd_work_group_size(16, 1, 1)))
void attr_both(global uint *out) { out[get_global_id(0)] = (uint)get_local_size(0); }
