// Builtins: as_type reinterpretation: as_uint(float), as_float(int), as_int2(double), as_uchar4(uint).
kernel void as_type_reinterpret(global uint *u, global float *f, global double *d, global uchar4 *c) {
    size_t i = get_global_id(0);
    u[i] = as_uint(f[i]) & 0x7fffffffu;
    f[i] = as_float((int)u[i] ^ 0x80000000);
    int2 halves = as_int2(d[i]);
    d[i] = as_double(halves.yx);
    c[i] = as_uchar4(u[i]);
}
