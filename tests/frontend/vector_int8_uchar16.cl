// Importer: int8 and uchar16 vector arithmetic (shift, and, compare-to-mask, uchar wrap-around).
kernel void vector_int8_uchar16(global int8 *vi, global uchar16 *vc) {
    size_t i = get_global_id(0);
    int8 a = vi[i];
    vi[i] = ((a << 2) & (int8)(0xff)) + (a > (int8)(10));
    uchar16 c = vc[i];
    vc[i] = c * (uchar)3 + (uchar)200;
}
