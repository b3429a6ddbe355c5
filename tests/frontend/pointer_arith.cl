// Importer: pointer arithmetic and comparison: pointer difference, pointer-to-integer cast, walking pointers.
kernel void pointer_arith(global int *out, global int *begin, global int *end) {
    size_t g = get_global_id(0);
    int sum = 0;
    for (global int *p = begin + g; p < end; p += 64)
        sum += *p;
    out[g] = sum + (int)(end - begin) + (int)((ulong)begin & 15);
}
