// Importer: vector literals built from other vectors and a reversed/duplicated
// swizzle, which clang emits as shufflevector.
kernel void shufflevector(global int4 *out, global const int2 *a, global const int2 *b) {
    size_t i = get_global_id(0);
    int2 x = a[i], y = b[i];
    int4 c = (int4)(x, y);
    out[i] = c.wzyx + c.xxyy;
}
