// Driver: pointers in global, constant, local and private address spaces.
kernel void address_spaces(global float *out, constant float *coef, local float *tmp) {
    size_t l = get_local_id(0);
    size_t g = get_global_id(0);
    private float acc[2];
    acc[0] = coef[0];
    acc[1] = coef[1];
    tmp[l] = out[g] * acc[l & 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[g] = tmp[(l + 1) % get_local_size(0)];
}
