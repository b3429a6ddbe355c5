// Importer: __local arrays declared inside the kernel (2 arrays, different types), with barriers.
kernel void local_array_in_kernel(global float *out, global const float *in) {
    local float tile[64];
    local int flags[8];
    size_t l = get_local_id(0);
    tile[l] = in[get_global_id(0)];
    if (l < 8)
        flags[l] = (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[63 - l] + (float)flags[l & 7];
}
