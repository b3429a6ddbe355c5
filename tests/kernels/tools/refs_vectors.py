"""Python references for tests/kernels/vectors/ (computed independently of
Lockstep with Python integers and numpy float32/float64/float16)."""
from fractions import Fraction

import numpy as np

from simref import (Kernel, buf, rng, scalar, out, fill, wrap, cdiv, cmod, f32,
                    fma32, search, same_print, all_robust, f32bits)
from refs_elementwise import rand_int, s8, u8, s16, u16, s32, u32, s64, u64

CATEGORY = "vectors"


def k_float4_math():
    n = 16
    scale = np.array([0.5, 1.5, -2.0, 0.25], np.float32)

    def one(x, y, fused):
        t = np.array([fma32(x[k], scale[k], y[k]) if fused else f32(x[k] * scale[k] + y[k])
                      for k in range(4)], np.float32)
        u = np.array([1, 2, 3, 4], np.float32) - t * f32(0.5)
        v = u / (y + f32(2.0))
        v[3] = ((x[0] + x[1]) + x[2]) + x[3]
        return list(v) + [x[0] * y[2], x[1] * y[3], -x[3], t[2]]

    a, b = [], []
    for i in range(n):
        def make(k):
            x = np.array([0.25 * ((i * 5 + j * 3 + k) % 23 - 11) for j in range(4)], np.float32)
            y = np.array([0.25 * ((i * 7 + j * 5 + 2 * k) % 19 - 7) for j in range(4)], np.float32)
            return x, y

        def ok(xy):
            r0, r1 = one(*xy, False), one(*xy, True)
            return all(same_print([p, q]) for p, q in zip(r0, r1) if p != 0) and \
                all(p != 0 or q == 0 for p, q in zip(r0, r1))
        x, y = search(make, ok)
        a.append(x)
        b.append(y)
    res, exact = [], []
    for x, y in zip(a, b):
        r = one(x, y, False)
        res += r
        exact += [v == 0 for v in r]
    return Kernel("float4_math", "float4_math", (n,), (4,), [
        buf("a", "float", np.concatenate(a)), buf("b", "float", np.concatenate(b)),
        scalar("scale", "float", scale),
        out("out", "float", res, exact=exact)])


def k_swizzle():
    n = 16
    vals = rand_int(101, 16 * n, -1000, 1000)
    res = []
    for i in range(n):
        v = vals[16 * i:16 * i + 16]
        a = v[0:4]
        b = [v[15], v[14], v[13], v[12]]
        e = v[0::2]
        o = v[1::2]
        hl = v[4:8]
        oe = [v[9], v[13]]
        w = [a[1], b[3], a[3], o[7]]
        p = [a[3] + 2 * b[0], a[2] + 2 * b[0], a[1] + 2 * b[1], a[0] + 2 * b[1],
             hl[0] - e[4], hl[1] - e[5], hl[2] - e[6], hl[3] - e[7]]
        add = oe + [oe[1], oe[0]]
        for j in range(4):
            p[2 * j + 1] = p[2 * j] + add[j]
        r = w + [a[2], -a[0], 2 * a[3], -2 * a[1]] + [p[1], p[3], p[5], p[7]] + \
            [v[10], v[5], e[0] - o[0], v[3]]
        res += r
    return Kernel("swizzle", "swizzle", (n,), (4,), [
        buf("in", "int", vals), out("out", "int", res)])


def k_int8_ops():
    n = 8
    a = rand_int(102, 8 * n, -2**29, 2**29)
    b = rand_int(103, 8 * n, -2**29, 2**29)
    for j in range(8):       # equal pairs, small values, shift counts >= 32
        a[j], b[j] = [5, -5, 7, 0, 1, -1, 100, -100][j], [5, -5, 40, 33, 31, 32, -3, 3][j]
    res = []
    for i in range(n):
        x = a[8 * i:8 * i + 8]
        y = b[8 * i:8 * i + 8]
        r0, r1, r2, r3 = [], [], [], []
        for xv, yv in zip(x, y):
            d = yv | 1
            r0.append(cdiv(xv, d) + cmod(xv, d))
            r1.append(-3 * (xv > yv) - (xv == yv) - 100 * ((xv & 1) != 0))
            r2.append((xv >> (yv & 31)) ^ s32(u32(xv) << (u32(yv) & 31)))
            r3.append(max(xv, yv) - cdiv(min(xv, yv), 3) + i * (-1 if xv < 0 else 0))
        res += r0 + r1 + r2 + r3
    return Kernel("int8_ops", "int8_ops", (n,), (2,), [
        buf("a", "int", a), buf("b", "int", b), out("out", "int", res)])


def k_uchar16_ops():
    n = 8
    a = rand_int(104, 16 * n, 0, 255)
    b = rand_int(105, 16 * n, 0, 255)
    a[:6] = [255, 0, 128, 17, 200, 1]
    b[:6] = [255, 0, 128, 17, 100, 9]
    res, cmp = [], []
    for i in range(n):
        x = a[16 * i:16 * i + 16]
        y = b[16 * i:16 * i + 16]
        r0, r1, c = [], [], []
        for xv, yv in zip(x, y):
            r0.append(min(xv + yv, 255))
            rh = (xv + yv + 1) >> 1
            t = u8(rh ^ u8(xv << (i & 7)))
            t = u8(t + (abs(xv - yv) >> (yv & 3)))
            t = u8(t + (xv >> (yv & 7)))
            r1.append(t)
            c.append(s8((-1 if xv < yv else 0) | ((-1 if xv == yv else 0) & 2)
                        | (s8(max(xv, yv)) & 0x40)))
        res += r0 + r1
        cmp += c
    return Kernel("uchar16_ops", "uchar16_ops", (n,), (2,), [
        buf("a", "uchar", a), buf("b", "uchar", b),
        out("out", "uchar", res), out("cmp", "char", cmp)])


def k_double2_math():
    n = 16
    a = [round(-3.0 + 0.4137 * k + 0.01 * (k % 3), 4) for k in range(2 * n)]
    b = [round(2.0 - 0.2711 * k + 0.02 * (k % 5), 4) for k in range(2 * n)]
    res, cmp = [], []
    for i in range(n):
        x = a[2 * i:2 * i + 2]
        y = b[2 * i:2 * i + 2]
        res += [x[0] * y[0] + 1.0, x[1] * y[1] - 1.0]
        res += [np.sqrt(abs(x[k])) / (y[k] * y[k] + 1.0) for k in range(2)]
        res += [x[0] * y[0] + x[1] * y[1],
                float(np.sqrt((x[0] - y[0]) ** 2 + (x[1] - y[1]) ** 2))]
        cmp += [-(x[k] < y[k]) - 2 * (x[k] >= 0.0) for k in range(2)]
    return Kernel("double2_math", "double2_math", (n,), (4,), [
        buf("a", "double", a), buf("b", "double", b),
        out("out", "double", res), out("cmp", "long", cmp)])


def k_select_compare():
    n = 16
    a = [0.5 * (v - 8) for v in rand_int(106, 4 * n, 0, 16)]
    b = [0.5 * (v - 8) for v in rand_int(107, 4 * n, 0, 16)]
    m = rand_int(108, 4 * n, -2**31, 2**31 - 1)
    m[:8] = [0, -1, 1, 4, 2**31 - 1, -2**31, 0x40000000, 5]
    sel, cmp, flags = [], [], []
    for i in range(n):
        x = a[4 * i:4 * i + 4]
        y = b[4 * i:4 * i + 4]
        mk = m[4 * i:4 * i + 4]
        sel += [y[k] if mk[k] < 0 else x[k] for k in range(4)]
        sel += [x[k] if x[k] > y[k] else y[k] * 2.0 for k in range(4)]
        cmp += [(1 if x[k] > y[k] else 0) | (2 if x[k] == y[k] else 0)
                | (4 if x[k] <= y[k] else 0) | (8 if x[k] != y[k] else 0) for k in range(4)]
        cmp += [(-(k + 1) if mk[k] > 0 else 10 * (k + 1)) + (200 if mk[k] < 0 else 100)
                for k in range(4)]
        flags.append(int(any(x[k] > y[k] for k in range(4)))
                     + 2 * int(all(x[k] > -100.0 for k in range(4)))
                     + 4 * int(any(v < 0 for v in mk)) + 8 * int(all(v < 0 for v in mk))
                     + 16 * int((mk[0] & 4) != 0) + 32 * 0)
    return Kernel("select_compare", "select_compare", (n,), (4,), [
        buf("a", "float", a), buf("b", "float", b), buf("m", "int", m),
        out("sel", "float", sel, exact=True), out("cmp", "int", cmp),
        out("flags", "int", flags)])


def k_shuffle():
    n = 16
    a = [0.25 * v for v in rand_int(109, 4 * n, -40, 40)]
    b = rand_int(110, 16 * n, -5000, 5000)
    m = rand_int(111, 8 * n, 0, 2**32 - 1)
    fo, io, small = [], [], []
    for i in range(n):
        mk = m[8 * i:8 * i + 8]
        fa = a[4 * i:4 * i + 4]
        fo += [fa[mk[k] & 3] for k in range(4)]
        p = b[16 * i:16 * i + 8]
        q = b[16 * i + 8:16 * i + 16]
        io += [(p + q)[mk[k] & 15] for k in range(8)]
        io += [p[(mk[k] ^ 7) & 7] - (q + p)[u32(mk[7 - k] + 5) & 15] for k in range(8)]
        f2 = [fa[mk[0] & 3], fa[mk[1] & 3]]
        wide = [p[mk[k] & 7] for k in range(8)] + [p[u32(mk[k] * 3) & 7] for k in range(8)]
        small += [int(f2[0] * 8.0) - int(f2[1]), wide[9] + wide[15] * 3]
    return Kernel("shuffle", "shuffle_test", (n,), (4,), [
        buf("a", "float", a), buf("b", "int", b), buf("m", "uint", m),
        out("fout", "float", fo, exact=True), out("iout", "int", io),
        out("small", "int", small)], clfile="shuffle.cl")


def k_vload_vstore():
    n = 16
    src = np.arange(96, dtype=np.float32) * np.float32(0.5)
    isrc = rand_int(112, 136, -10000, 10000)
    dst = [-1.0] * 128
    idst = [0] * 176
    for i in range(n):
        v = src[4 * i:4 * i + 4]
        w = src[i + 1:i + 5]
        p = src[1 + 6 * i:3 + 6 * i]
        for k in range(4):
            dst[4 * i + k] = 2.0 * v[k] - w[k]
        for k in range(2):
            dst[64 + 4 * i + k] = p[k] + v[2 + k]
        q = isrc[8 * i:8 * i + 8]
        for k in range(8):
            idst[8 * i + k] = q[7 - k] + i
        t = isrc[2 + 3 * i:5 + 3 * i]
        for k in range(3):
            idst[128 + 3 * i + k] = t[k] * 3 - (k + 1)
    return Kernel("vload_vstore", "vload_vstore", (n,), (4,), [
        rng("src", "float", 0, 0.5, 47.5), buf("isrc", "int", isrc),
        out("dst", "float", dst, init="fill", fill_value=-1, exact=True),
        out("idst", "int", idst)])


def f16_round(x, mode):
    """float32 -> float16 bits with rounding mode rte/rtz/rtp/rtn."""
    x = np.float32(x)
    h = np.float16(x)  # numpy rounds to nearest even
    if float(h) == float(x) or np.isnan(x):
        return int(np.array([h]).view(np.uint16)[0])
    if float(h) > float(x):
        up, down = h, np.nextafter(h, np.float16(-np.inf))
    else:
        down, up = h, np.nextafter(h, np.float16(np.inf))
    if mode == "rte":
        r = h
    elif mode == "rtp":
        r = up
    elif mode == "rtn":
        r = down
    else:
        r = down if x > 0 else up
    return int(np.array([r], np.float16).view(np.uint16)[0])


def k_half_conv():
    n = 16
    f = [1.0, 0.1, -0.1, 65504.0, 65519.0, 65520.0, 1e-5, -1e-7, 3.14159, -2.71828,
         0.333333, 1e5, -1e5, 2049.0, 2051.0, -0.0]
    f = [np.float32(v) for v in f]
    h = [0x3c00, 0x7c00, 0xfc00, 0x0001, 0x8000, 0x7bff, 0x3555, 0xc000,
         0x0400, 0x03ff, 0x3e00, 0xbc01, 0x5640, 0x1234, 0x6789, 0x4248]
    h += rand_int(113, 48, 0, 0x7bff)
    for k in range(16, 64, 3):
        h[k] |= 0x8000                  # some negative values
    hout = [0] * (8 * n)
    for i, x in enumerate(f):
        hout[i] = f16_round(x, "rte")
        hout[n + i] = f16_round(x, "rtz")
        hout[2 * n + i] = f16_round(x, "rtp")
        hout[3 * n + i] = f16_round(x, "rtn")
        for k, v in enumerate([x, -x, x * np.float32(0.25), np.float32(3.0)]):
            hout[4 * n + 4 * i + k] = f16_round(v, "rte")
    hv = [float(np.array([v], np.uint16).view(np.float16)[0]) for v in h]
    fo = []
    for i in range(n):
        fo += [hv[i]] + hv[4 * i:4 * i + 4]
    return Kernel("half_conv", "half_conv", (n,), (4,), [
        buf("f", "float", f), buf("h", "ushort", h, hexmode=True),
        out("hout", "ushort", hout, hexmode=True),
        out("fout", "float", fo, exact=True)])


def sat(v, lo, hi):
    return max(lo, min(hi, v))


def k_convert_sat():
    n = 16
    a = rand_int(114, 4 * n, -2**31, 2**31 - 1)
    a[:8] = [0, 255, 256, -1, 128, 2**31 - 1, -2**31, 1000]
    for k in range(8, 40):
        a[k] >>= 20
    fv = [-200.7, 127.9, 128.5, -128.9, 0.5, -0.5, 300.0, 1e10,
          -1e10, 1.49, -1.5, 2.5, 3.5, -2.5, 0.0, 99.99]
    fv += [round(v * 0.173 - 30, 3) for v in rand_int(115, 48, 0, 400)]
    fv = [np.float32(v) for v in fv]
    d = [1e19, -1e19, 9.2233720368547758e18, -9.2233720368547758e18, 123456789.987,
         -0.999, 4.5e15, -4.5e15 - 0.5, 1e300, -1e300, 2.0**62 + 2048, -(2.0**53) - 2,
         0.0, -7.75, 65536.5, 1e-300]
    uc, sc, ss, si, ui, sl = [], [], [], [], [], []
    for i in range(n):
        x = a[4 * i:4 * i + 4]
        y = fv[4 * i:4 * i + 4]
        uc += [sat(v, 0, 255) for v in x]
        sc += [sat(int(np.trunc(v)), -128, 127) for v in y]
        ss += [sat(int(np.rint(v * np.float32(100.0))), -32768, 32767) for v in y]
        if i == 0:
            si += [0, 2**31 - 1, -2**31, 0]
        else:
            si += [sat(int(np.trunc(v * np.float32(1e8))), -2**31, 2**31 - 1) for v in y]
        ui += [sat(v, 0, 2**32 - 1) for v in x]
        ui += [sat(int(np.ceil(v)), 0, 2**32 - 1) for v in y]
        sl.append(sat(int(np.trunc(d[i])), -2**63, 2**63 - 1))
    return Kernel("convert_sat", "convert_sat", (n,), (4,), [
        buf("a", "int", a), buf("f", "float", fv), buf("d", "double", d),
        out("uc", "uchar", uc), out("sc", "char", sc), out("ss", "short", ss),
        out("si", "int", si), out("ui", "uint", ui), out("sl", "long", sl)])


def to_f32_mode(v, mode):
    """Round an exact value (int or float64) to float32 with a rounding mode;
    returns the float32 bits."""
    exact = Fraction(v)
    with np.errstate(over="ignore"):
        c = np.float32(float(v))          # correctly rounded (rte)
    if np.isinf(c):
        big = np.float32(np.finfo(np.float32).max)
        if exact > 0:
            down, up = big, np.float32(np.inf)
        else:
            down, up = np.float32(-np.inf), -big
    elif Fraction(float(c)) == exact:
        return f32bits(c)
    elif Fraction(float(c)) > exact:
        up, down = c, np.nextafter(c, np.float32(-np.inf))
    else:
        down, up = c, np.nextafter(c, np.float32(np.inf))
    if mode == "rte":
        r = c
    elif mode == "rtp":
        r = up
    elif mode == "rtn":
        r = down
    else:
        r = down if exact > 0 else up
    if r == 0 and exact < 0:
        r = np.float32(-0.0)
    return f32bits(r)


def k_convert_round():
    n = 16
    fv = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5, 0.49999997, -0.49999997,
          1.0000001, -1.0000001, 2147483520.0, -2147483648.0, 1e9 + 64, -0.0,
          1234.5, 1235.5, -99.25, 99.75, 8388607.5, -8388607.5, 4194303.75, -4194303.25]
    fv += [round(v * 0.37 - 50, 2) for v in rand_int(116, 64 - len(fv), 0, 300)]
    fv = [np.float32(v) for v in fv]
    big = [16777217, 16777219, -16777217, 2147483647, -2147483647, 123456789,
           -123456789, 33554435, 1, 0, -1, 16777216, -2147483648, 1073741825,
           -1073741827, 100000001]
    d = [0.1, -0.1, 1e-50, -1e-50, 1e39, -1e39, 1.0 / 3.0, 16777217.0, -16777219.0,
         3.4028235677973366e38, 1e-40, -2.5, 0.0, 2.0**-149 * 1.5, 1e10 + 1, -7e-45]
    ir, fb = [], []
    for i in range(n):
        x = fv[4 * i:4 * i + 4]
        ir += [int(np.rint(v)) for v in x]
        ir += [int(np.trunc(v)) for v in x]
        ir += [int(np.ceil(v)) for v in x]
        ir += [int(np.floor(v)) for v in x]
        b = big[i]
        fb += [to_f32_mode(b, "rte"), to_f32_mode(b, "rtz"), to_f32_mode(b, "rtp"),
               to_f32_mode(b, "rtn"), to_f32_mode(d[i], "rtn"),
               to_f32_mode(d[i], "rtp") ^ to_f32_mode(d[i], "rtz")]
    return Kernel("convert_round", "convert_round", (n,), (4,), [
        buf("f", "float", fv), buf("big", "int", big), buf("d", "double", d),
        out("ir", "int", ir), out("fbits", "uint", fb, hexmode=True)])


def k_as_type():
    n = 16
    fv = [1.0, -1.0, 0.0, -0.0, 0.1, 3.4e38, 1.17549435e-38, -2.5, 1e-10, 65536.0, 1.0 / 3.0,
          -123.456]
    fv += [round(v * 0.77 - 100, 3) for v in rand_int(117, 4 * n - len(fv), 0, 300)]
    fv = [np.float32(v) for v in fv]
    u = rand_int(118, n, 0, 2**32 - 1)
    u[:3] = [0x12345678, 0xFFFFFFFF, 0x80000001]
    d = [1.0, -2.0, 0.1, 1e300, -1e-300, 3.141592653589793, 0.0, -0.0,
         123456789.0, -1.5, 2.2250738585072014e-308, 7.0, -65536.25, 1e-5, 42.0, -1e20]
    bits, bytes_, fl, lb = [], [], [], []
    for i in range(n):
        x = fv[4 * i:4 * i + 4]
        bits += [f32bits(v) for v in x]
        w = u[i]
        bytes_ += [(w >> 24) & 0xFF, (w >> 16) & 0xFF, (w >> 8) & 0xFF, w & 0xFF]
        fl.append(np.array([(w & 0x007FFFFF) | 0x40000000], np.uint32).view(np.float32)[0])
        fl.append(np.float32(w & 0xFFFF) - np.float32(w >> 16))
        db = int(np.array([d[i]], np.float64).view(np.uint64)[0])
        lo, hi = db & 0xFFFFFFFF, db >> 32
        lb.append(s64((lo << 32) | hi))
        lb.append(s8(db >> 56) * 1000 + s16(f32bits(x[0]) >> 16))
    return Kernel("as_type", "as_type", (n,), (4,), [
        buf("f", "float", fv), buf("u", "uint", u), buf("d", "double", d),
        out("bits", "uint", bits, hexmode=True), out("bytes", "uchar", bytes_),
        out("fl", "float", fl, exact=True), out("lbits", "long", lb)])


def k_vec3_ops():
    n = 16
    p = [float(v) * 0.5 for v in rand_int(119, 3 * n, -12, 12)]
    vv = []
    for v in rand_int(120, 3 * n, -10, 10):
        vv.append(float(v))
    v4 = []
    for i in range(n):
        v4 += vv[3 * i:3 * i + 3] + [999.0]   # padding lane
    o = [0.0] * 96
    io = []
    for i in range(n):
        a = p[3 * i:3 * i + 3]
        b = vv[3 * i:3 * i + 3]
        c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        o[3 * i:3 * i + 3] = c
        bz = [b[2], b[0], b[1]]
        o[48 + 3 * i:48 + 3 * i + 3] = [a[k] * bz[k] + (k + 1) for k in range(3)]
        io += [3 * i - 1, 6 * i - 1, -3 * i - 1 + 16 + 400]
    return Kernel("vec3_ops", "vec3_ops", (n,), (4,), [
        buf("p", "float", p), buf("v", "float", v4),
        out("out", "float", o, exact=True), out("iout", "int", io)])


def k_vector_literals():
    n = 16
    s = rand_int(121, n, -50, 50)
    s[:4] = [3, 5, 0, -3]
    o, fo, lo = [], [], []
    for x in s:
        a = [x, x + 1, 2 * x, -x]
        b = a + [7] * 4
        c = [1, 2, a[2], a[3]] + [x] * 4
        o += [v + x for v in b + c]
        fo += [1.5 * x, 0.75, 1.5 * float(-x), 1.5 * float(-x)]  # (float)-x: +0 for x == 0
        lo += [-1 if x == 3 else 0, (-1 if x == 5 else 0) + (-1 if -x > 0 else 0) * 10]
    return Kernel("vector_literals", "vector_literals", (n,), (4,), [
        buf("s", "int", s), out("out", "int", o), out("fout", "float", fo, exact=True),
        out("lout", "long", lo)])
