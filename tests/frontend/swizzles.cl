// Importer: swizzles .xyzw/.wzyx, .s0123/.sfedc, .lo/.hi/.even/.odd and swizzled stores.
kernel void swizzles(global float4 *o4, global const float8 *in8, global int16 *o16) {
    size_t i = get_global_id(0);
    float8 v = in8[i];
    float4 r = v.lo.wzyx + v.hi.xyzw;
    r.xy = v.even.zw * v.odd.s01;
    o4[i] = r;
    int16 w = o16[i];
    w.s0123 = w.sfedc;
    o16[i] = w;
}
