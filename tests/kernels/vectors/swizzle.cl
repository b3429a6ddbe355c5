// Swizzles: .xyzw / .s0123 / .sF..., .lo/.hi/.even/.odd (also chained), and
// swizzled assignments (l-value swizzles).
__kernel void swizzle(__global const int16* in, __global int16* out)
{
    int i = (int)get_global_id(0);
    int16 v = in[i];
    int4 a = v.s0123;
    int4 b = v.sfedc;
    int8 e = v.even;
    int8 o = v.odd;
    int4 hl = v.lo.hi;              // elements 4..7
    int2 oe = v.odd.even.hi;        // v.odd = 1,3,..15; .even = 1,5,9,13; .hi = 9,13
    int4 w = (int4)(0);
    w.xz = a.yw;
    w.y = b.s3;
    w.w = o.s7;
    int8 p;
    p.lo = a.wzyx + b.xxyy * 2;
    p.hi = hl - e.hi;
    p.odd = p.even + (int4)(oe, oe.yx);
    int16 r;
    r.s0123 = w;
    r.s4567 = a.zxwy * (int4)(1, -1, 2, -2);
    r.s89ab = p.s1357;
    r.scdef = (int4)(v.sA, v.S5, e.s0 - o.s0, v.odd.odd.x);  // odd.odd.x = s3
    out[i] = r;
}
