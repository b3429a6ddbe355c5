// Importer: __local pointer kernel arguments (two of them), a tree reduction in local memory.
kernel void local_pointer_arg(global int *out, global const int *in, local int *scratch, local char *unused) {
    size_t l = get_local_id(0), n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = n / 2; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}
