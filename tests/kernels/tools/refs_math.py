"""Python references for tests/kernels/math/.

Math functions are evaluated in double precision (Python's math module, or
exact rational arithmetic for the exact operations) and rounded once to
float32.  Every inexact float result must print the same 6-significant-digit
string within +-ulps ulp, where ulps is at least the OpenCL accuracy bound of
the function (e.g. 16 for pow); inputs are nudged (simref.search) until that
holds.  Sums of independently rounded terms are additionally required not to
cancel, so that errors of the terms cannot be amplified.
"""
import math
from fractions import Fraction

import numpy as np

from simref import (Kernel, buf, out, f32, search, robust, fma32)
from refs_elementwise import rand_int, s8, u8, u16, u32, s64, u64

CATEGORY = "math"


def F(x):
    """Round a double to float32."""
    return np.float32(x)


def no_cancel(*terms):
    s = sum(float(t) for t in terms)
    mag = sum(abs(float(t)) for t in terms)
    return mag == 0 or abs(s) >= 0.5 * mag


def ok_all(values, ulps):
    return all(robust(v, "float", ulps) for v in values)


def pick(make, outs, ulps, extra=lambda v: True, tries=400):
    """search() over inputs make(k) until all float outputs outs(v) are
    robust to +-ulps and extra(v) holds."""
    return search(make, lambda v: extra(v) and ok_all(outs(v), ulps), tries)


# ---------------------------------------------------------------- exp/log
EXP_LOG = [  # (function, input range)
    (math.exp, -10.0, 10.0), (lambda v: 2.0 ** v, -20.0, 20.0),
    (lambda v: 10.0 ** v, -5.0, 5.0), (math.expm1, -0.5, 0.5),
    (math.log, 0.01, 1000.0), (math.log2, 0.001, 5000.0),
    (math.log10, 0.01, 1e5), (math.log1p, -0.5, 2.0)]


def k_exp_log():
    n = 32
    xs = []
    for i in range(n):
        for j, (fn, lo, hi) in enumerate(EXP_LOG):
            def make(k):
                t = ((i * 37 + j * 11 + k * 13) % 101) / 100.0
                return F(round(lo + (hi - lo) * t + 0.00037 * k, 4))
            xs.append(pick(make, lambda v: [F(fn(float(v)))], 4,
                           extra=lambda v: fn(float(v)) != 0))
    res = [F(EXP_LOG[k % 8][0](float(v))) for k, v in enumerate(xs)]
    return Kernel("exp_log", "exp_log", (n,), (8,), [
        buf("x", "float", xs), out("res", "float", res)])


# ---------------------------------------------------------------- sqrt/cbrt
def sqrt_one(i, a):
    a = float(a)
    sq = float(F((i + 1) * (i + 1)))
    cb = float(F(sq * (i + 1)))
    c = float(F(a - 50.0))
    vx, vy = math.sqrt(a), math.sqrt(float(F(a * 4.0)))
    vz, vw = math.sqrt(float(F(a + 1.0))), math.sqrt(2.0)
    return [F(math.sqrt(a)), F(1.0 / math.sqrt(a)),
            F(math.copysign(abs(c) ** (1.0 / 3.0), c)),
            F(math.sqrt(sq)), F(round(cb ** (1.0 / 3.0))),
            F(vx + vy * 0.5 + vz * vw)]


def k_sqrt_cbrt():
    n = 32
    xs = []
    for i in range(n):
        xs.append(pick(lambda k: F(round(0.1 + ((i * 7919 + k * 613) % 100000) / 100.0, 3)),
                       lambda a: sqrt_one(i, a), 4,
                       extra=lambda a: abs(float(a) - 50.0) > 0.5, tries=2000))
    res = []
    for i, x in enumerate(xs):
        res += sqrt_one(i, x)
    return Kernel("sqrt_cbrt", "sqrt_cbrt", (n,), (8,), [
        buf("x", "float", xs), out("res", "float", res, ulps=4)])


# ---------------------------------------------------------------- trig
def sinpi_cospi(v):
    return math.sin(math.pi * v), math.cos(math.pi * float(F(v * 0.25)))


def sincos_sum(v):
    return float(F(math.sin(v))) * 2.0, float(F(math.cos(v)))


TRIG = [  # (function, input range)
    (math.sin, -6.0, 6.0), (math.cos, -6.0, 6.0), (math.tan, -1.4, 1.4),
    (math.asin, -0.95, 0.95), (math.acos, -0.95, 0.95), (math.atan, -20.0, 20.0),
    (lambda v: float(F(sinpi_cospi(v)[0])) * float(F(sinpi_cospi(v)[1])), -1.9, 1.9),
    (lambda v: sum(sincos_sum(v)), -3.0, 3.0)]


def k_trig():
    n = 32
    xs = []
    for i in range(n):
        for j, (fn, lo, hi) in enumerate(TRIG):
            def make(k):
                t = ((i * 29 + j * 7 + k * 17) % 103) / 102.0
                return F(round(lo + (hi - lo) * t + 0.00023 * k, 4))

            def extra(v):
                if j == 7 and not no_cancel(*sincos_sum(float(v))):
                    return False
                return abs(fn(float(v))) > 1e-3
            xs.append(pick(make, lambda v: [F(fn(float(v)))], 8, extra=extra))
    res = [F(TRIG[k % 8][0](float(v))) for k, v in enumerate(xs)]
    return Kernel("trig", "trig", (n,), (8,), [
        buf("x", "float", xs), out("res", "float", res, ulps=8)])


# ---------------------------------------------------------------- pow
def pow_one(a, b, k):
    a, b = float(a), float(b)
    c = float(F(a - 2.0))
    r = a if not (k & 1) else -a
    root = math.copysign(abs(r) ** (1.0 / k), r)
    return [F(a ** b), F((-a) ** k), F(a ** float(F(b * 0.5))), F(c ** k), F(root)]


def k_pow_family():
    n = 32
    ks = [v if v != 0 else 3 for v in rand_int(201, n, -5, 6)]
    xs, ys = [], []
    for i in range(n):
        def make(k):
            return (F(round(0.5 + 7.5 * ((i * 31 + k * 7) % 97) / 96.0 + 0.0007 * k, 4)),
                    F(round(-3.0 + 6.0 * ((i * 43 + k * 19) % 89) / 88.0 + 0.0003 * k, 4)))
        x, y = pick(make, lambda v: pow_one(v[0], v[1], ks[i]), 8,
                    extra=lambda v: abs(float(v[0]) - 2.0) > 0.2, tries=3000)
        xs.append(x)
        ys.append(y)
    res = []
    for x, y, k in zip(xs, ys, ks):
        res += pow_one(x, y, k)
    return Kernel("pow_family", "pow_family", (n,), (8,), [
        buf("x", "float", xs), buf("y", "float", ys), buf("n", "int", ks),
        out("res", "float", res, ulps=8)])


# ---------------------------------------------------------------- fma etc.
def fmax_(a, b):
    return a if a > b else b


def fmin_(a, b):
    return a if a < b else b


def k_fma_minmax():
    n = 32
    xs, ys, zs = [], [], []
    for i in range(n):
        if i % 2 == 0:
            # fma keeps the exact rounding error of x*y; a*b+c would give 0
            x = F(1.0 + (i + 1) * 2.0 ** -12)
            y = F(1.0 + (3 * i + 5) * 2.0 ** -13)
            z = -F(x * y)
        else:
            x = F(((i * 37) % 61 - 30) / 8.0)
            y = F(((i * 23) % 53 - 26) / 16.0)
            z = F(((i * 11) % 41 - 20) / 4.0)
        xs.append(x)
        ys.append(y)
        zs.append(z)
    zs[3] = F(-0.0)
    zs[5] = F(0.0)
    ys[7], zs[7] = F(2.0), F(-2.0)      # maxmag with equal magnitudes
    xs[9], ys[9] = F(1.5), F(1.5)       # minmag(x, -y) with equal magnitudes
    res = []
    for x, y, z in zip(xs, ys, zs):
        fx = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
        fm = F(float(fx))                 # exact here, so no double rounding
        assert Fraction(float(fm)) == fx
        mm = y if abs(y) > abs(z) else (z if abs(z) > abs(y) else fmax_(y, z))
        ny = -y
        mn = x if abs(x) < abs(ny) else (ny if abs(ny) < abs(x) else fmin_(x, ny))
        res += [fm, F(y * F(0.5) + z), F(fmin_(x, y) + F(2.0) * fmax_(y, z)),
                F(abs(z) - abs(x)), F(math.copysign(float(x), float(z))),
                F(x - y) if x > y else F(0.0), mm, mn]
    return Kernel("fma_minmax", "fma_minmax", (n,), (8,), [
        buf("a", "float", xs), buf("b", "float", ys), buf("c", "float", zs),
        out("res", "float", res, exact=True)])


# ---------------------------------------------------------------- rounding
def k_rounding():
    n = 32
    vals = [0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5, 0.25, -0.25, 0.75, -0.75,
            -0.0, 0.0, 4.875, -4.875, 8388607.5, -8388607.5, 8388609.0, 1e10,
            -1e10, 0.999, -0.999, -1e-10, 0.49999997, -0.49999997, 1.25, -1.25,
            123.456, -123.456, 7.0, -7.0]
    xs = [F(v) for v in vals]
    res = []
    for x in xs:
        fl = np.floor(x)
        fr = F(min(float(F(float(x) - float(fl))), float(np.float32(1.0) - np.float32(2.0 ** -24))))
        rd = F(math.copysign(math.floor(abs(float(x)) + 0.5), float(x)))
        frac, ip = np.modf(x)
        res += [fl, np.ceil(x), rd, np.rint(x), np.trunc(x),
                F(F(fr * F(8.0)) + fl), frac, ip]
    return Kernel("rounding", "rounding", (n,), (8,), [
        buf("x", "float", xs), out("res", "float", res, exact=True)])


# ---------------------------------------------------------------- fmod
def round_half_even(q):
    fl = math.floor(q)
    d = q - fl
    if d > Fraction(1, 2) or (d == Fraction(1, 2) and fl % 2 == 1):
        return fl + 1
    return fl


def k_fmod_remainder():
    n = 32
    pairs = [(-7, 2), (7, 2), (5, 2), (-5, 2), (5.5, -2), (-0.0, 3), (6, 3), (-6, 3),
             (1e10, 3), (7.25, 0.5), (-9.75, 2.5), (100, -7), (0.3, 0.1), (1, 1e-3),
             (-17.5, -4), (3, 7)]
    for v in rand_int(202, 2 * (n - len(pairs)), -4000, 4000)[::2]:
        pairs.append((v / 16.0, ((v * 7) % 97 + 1) / 8.0 * (1 if v % 3 else -1)))
    xs = [F(p[0]) for p in pairs]
    ys = [F(p[1]) for p in pairs]
    res, quo = [], []
    for x, y in zip(xs, ys):
        fx, fy = Fraction(float(x)), Fraction(float(y))
        t = fx / fy
        tq = math.floor(t) if t >= 0 else math.ceil(t)
        r1 = fx - tq * fy
        nq = round_half_even(t)
        r2 = fx - nq * fy
        sx = math.copysign(1.0, float(x))
        v1 = F(float(r1)) if r1 != 0 else F(math.copysign(0.0, sx))
        v2 = F(float(r2)) if r2 != 0 else F(math.copysign(0.0, sx))
        assert Fraction(float(v1)) == r1 and Fraction(float(v2)) == r2
        res += [v1, v2, v2]
        if nq < 0:
            assert (-nq) % 128 != 0, "ambiguous remquo sign"
        mag = abs(nq) & 7
        quo.append(-mag if nq < 0 else mag)
    return Kernel("fmod_remainder", "fmod_remainder", (n,), (8,), [
        buf("x", "float", xs), buf("y", "float", ys),
        out("res", "float", res, exact=True), out("quo", "int", quo)])


# ---------------------------------------------------------------- atan2/hypot
def atan2_one(a, b):
    a, b = float(a), float(b)
    at = math.atan2(a, b)
    return [F(at), F(at / math.pi), F(math.hypot(a, b)),
            F(math.hypot(float(F(a * float(F(3e15)))), float(F(b * float(F(3e-15))))))]


def k_atan2_hypot():
    n = 32
    fixed = [(0.0, 1.0), (-0.0, 1.0), (0.0, -1.0), (-0.0, -1.0), (0.0, 0.0), (-0.0, -0.0),
             (1.0, 0.0), (-1.0, -0.0)]
    ys = [F(p[0]) for p in fixed]
    xs = [F(p[1]) for p in fixed]
    for i in range(len(fixed), n):
        sy = 1.0 if i % 4 in (0, 1) else -1.0      # all four quadrants
        sx = 1.0 if i % 4 in (0, 3) else -1.0
        scale = 10.0 ** (i % 7 - 3)                 # widely different magnitudes

        def make(k):
            return (F(sy * round(abs(math.sin(i * 1.7 + k * 0.013)) * 4.0 + 0.01, 4)),
                    F(sx * round((abs(math.cos(i * 2.3 + k * 0.017)) * 3.0 + 0.01) * scale, 4)))
        y, x = pick(make, lambda v: [t for t in atan2_one(*v) if t != 0], 8)
        ys.append(y)
        xs.append(x)
    res, exact = [], []
    for y, x in zip(ys, xs):
        r = atan2_one(y, x)
        res += r
        exact += [v == 0 or abs(float(v)) == 1.0 and k == 1 for k, v in enumerate(r)]
    for v, e in zip(res, exact):
        assert e or robust(v, "float", 8), v
    return Kernel("atan2_hypot", "atan2_hypot", (n,), (8,), [
        buf("y", "float", ys), buf("x", "float", xs),
        out("res", "float", res, exact=exact, ulps=8)])


# ---------------------------------------------------------------- native/half
QTOL = 1.5e-3   # relative error allowed for native_* / half_* results


def quant(v, scale):
    """(rounded value, ok) for convert_int_rte(v * scale) with a margin."""
    t = v * scale
    fr = t - math.floor(t)
    margin = QTOL * abs(t) + 0.02
    ok = abs(fr - 0.5) > margin
    return int(round(t)), ok


def native_one(a):
    a = float(a)
    vals = [(math.sin(a), 100), (math.cos(a), 100), (math.exp(a), 10), (math.log(a), 100),
            (math.sqrt(a), 100), (1.0 / a, 10), (1.5 / a, 10), (math.sin(a), 100),
            (1.0 / math.sqrt(a), 100), (a ** 1.5, 10), (2.0 ** a, 10)]
    q = [quant(v, s) for v, s in vals]
    res = [q[k][0] for k in range(9)] + [q[9][0] + 1000 * q[10][0]]
    return res, all(ok for _, ok in q)


def k_native_half():
    n = 24
    xs = []
    for i in range(n):
        xs.append(search(lambda k: F(round(0.5 + 1.5 * ((i * 13 + k * 7) % 47) / 46.0
                                           + 0.0003 * k, 4)),
                         lambda a: native_one(a)[1], 2000))
    res = []
    for x in xs:
        res += native_one(x)[0]
    return Kernel("native_half", "native_half", (n,), (8,), [
        buf("x", "float", xs), out("res", "int", res)])


# ---------------------------------------------------------------- geometric
def geo_one(a, b):
    a = [float(v) for v in a]
    b = [float(v) for v in b]
    c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0], 0.0]
    la = math.sqrt(sum(v * v for v in a))
    lb = math.sqrt(sum(v * v for v in b[:3]))
    dd = math.sqrt((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2)
    nb = [v / lb for v in b[:3]]
    r = [sum(x * y for x, y in zip(a, b)), a[0] * b[2] + a[1] * b[3]] + c + \
        [la, lb, dd, nb[0], nb[1] + 2.0 * nb[2], sum(v / la for v in a)]
    r = [F(v) for v in r]
    exact = [True] * 6 + [False] * 6
    if dd == int(dd):
        exact[8] = True
    return r, exact


def k_geometric():
    n = 16
    p, q = [], []
    for i in range(n):
        def make(k):
            return ([1 + (i * 5 + j * 3 + k * 7 + k * k * (j + 1)) % 29 for j in range(4)],
                    [1 + (i * 7 + j * 5 + k * 3 + k * k * (j + 2)) % 23 for j in range(4)])

        def ok(ab):
            r, ex = geo_one(*ab)
            return all(e or robust(v, "float", 6) for v, e in zip(r, ex))
        a, b = search(make, ok, 2000)
        p += a
        q += b
    res, exact = [], []
    for i in range(n):
        r, ex = geo_one(p[4 * i:4 * i + 4], q[4 * i:4 * i + 4])
        res += r
        exact += ex
    return Kernel("geometric", "geometric", (n,), (4,), [
        buf("p", "float", p), buf("q", "float", q),
        out("res", "float", res, exact=exact, ulps=6)])


# ---------------------------------------------------------------- common
def common_one(v):
    v = [float(t) for t in v]
    c = [min(max(t, -1.0), 2.5) for t in v]
    tgt = [8.0, -4.0, 2.0, 0.0]
    m = [v[k] + (tgt[k] - v[k]) * 0.25 for k in range(4)]
    edge = [0.0, 1.0, -1.0, 0.5]
    st = [0.0 if v[k] < edge[k] else 1.0 for k in range(4)]

    def sm(x):
        t = min(max(x / 2.0, 0.0), 1.0)
        return t * t * (3.0 - 2.0 * t)
    smv = [sm(t) for t in v]
    sg = [(1.0 if t > 0 else -1.0 if t < 0 else math.copysign(0.0, t)) for t in v]
    deg = math.degrees(v[0])
    rad = math.radians(float(F(v[1] * 100.0)))
    r = [c[0] + c[1] * 10, c[2] + c[3] * 10, m[0] + m[1] + m[2] + m[3],
         st[0] + 2 * st[1] + 4 * st[2] + 8 * st[3],
         smv[0] + smv[1] * 2 + smv[2] * 4 + smv[3] * 8,
         sg[0] + 10 * sg[1] + 100 * sg[2] + 1000 * sg[3],
         float(F(deg)) + float(F(rad)), max(v[0], v[1]) - min(v[2], v[3])]
    return [F(t) for t in r], no_cancel(F(deg), F(rad))


def k_common_fns():
    n = 32
    xs = []
    for i in range(n):
        def make(k):
            return [F(((i * 17 + j * 29 + k * 5) % 65 - 32) / 8.0) for j in range(4)]
        v = search(make, lambda v: common_one(v)[1] and
                   (common_one(v)[0][6] == 0 or robust(common_one(v)[0][6], "float", 8)))
        xs += v
    xs[0:4] = [F(-0.0), F(0.0), F(2.0), F(1.0)]   # signed zero for sign()
    res, exact = [], []
    for i in range(n):
        r = common_one(xs[4 * i:4 * i + 4])[0]
        res += r
        exact += [True] * 6 + [r[6] == 0, True]
    return Kernel("common_fns", "common_fns", (n,), (8,), [
        buf("x", "float", xs), out("res", "float", res, exact=exact, ulps=8)])


# ---------------------------------------------------------------- relational
def fbits(v):
    return int(np.array([v], np.float32).view(np.uint32)[0])


def k_relational():
    n = 16
    base = [0.0, -0.0, 1.5, -2.25, 3.0, 1e30, -1e-30, 7.5, 2.0, -4.0]
    a = [F(base[(i * 7 + 3) % len(base)] if i % 5 else (i % 7) - 3.0) for i in range(4 * n)]
    b = [F(base[(i * 3 + 1) % len(base)] if i % 3 else (i % 4) - 1.5) for i in range(4 * n)]
    nan, inf = float("nan"), float("inf")
    res, fres = [], []
    for i in range(n):
        x = [float(v) for v in a[4 * i:4 * i + 4]]
        y = [float(v) for v in b[4 * i:4 * i + 4]]
        xsb = [math.copysign(1.0, v) < 0 for v in x]   # sign bits of inputs
        ysb = [math.copysign(1.0, v) < 0 for v in y]
        bb = [fbits(v) for v in b[4 * i:4 * i + 4]]
        if i % 4 == 1:
            x[1] = nan
            xsb[1] = False
        if i % 4 == 2:
            x[2] = inf
            xsb[2] = False
        if i % 4 == 3:
            x[3] = -inf
            xsb[3] = True
            y[0] = nan
            ysb[0] = False
            bb[0] = 0x7fc00000
        for k in range(4):
            v = x[k]
            isn = math.isnan(v)
            isi = math.isinf(v)
            fin = not isn and not isi
            nor = fin and v != 0 and abs(v) >= 1.1754943508222875e-38
            res.append(-(int(isn) + 2 * int(isi) + 4 * int(fin) + 8 * int(nor) + 16 * int(xsb[k])))
        res.append(int(x[0] == y[0]) + 2 * int(x[1] != y[1]) + 4 * int(x[2] > y[2])
                   + 8 * int(x[3] >= y[3]) + 16 * int(x[0] < y[0]) + 32 * int(x[1] <= y[1])
                   + 64 * int(x[2] < y[2] or x[2] > y[2]))
        res.append(int(not (math.isnan(x[0]) or math.isnan(y[0])))
                   + 2 * int(math.isnan(x[1]) or math.isnan(y[1]))
                   + 4 * int(math.isnan(x[3])) + 8 * int(math.isinf(x[3])) + 16 * int(ysb[0]))
        lt = [x[k] < y[k] for k in range(4)]
        res.append(int(any(lt)) + 2 * int(all(lt)) + 4 * int(any(math.isnan(v) for v in x))
                   + 8 * int(all(math.isfinite(v) for v in y)) + 0)
        mask = [0xffff0000, 0x0000ffff, 0x80000000, 0x7fffffff]
        ones = [fbits(F(v)) for v in (1.0, 2.0, 3.0, 4.0)]
        sel = [(bb[k] & ~mask[k] | ones[k] & mask[k]) & 0xffffffff for k in range(4)]
        xr = sel[0] ^ sel[1] ^ sel[2] ^ sel[3]
        res.append(xr - (1 << 32) if xr >= 1 << 31 else xr)
        bf = [-abs(v) for v in y]         # sign bit forced on (b.y..b.w never NaN)
        fres.append(F(F(bf[1]) + F(bf[2]) * F(10.0)))
        fres.append(F((bf[3] if bf[2] > bf[3] else bf[2]) * 0.5))
    return Kernel("relational", "relational", (n,), (4,), [
        buf("x", "float", a), buf("y", "float", b),
        out("res", "int", res),
        out("fres", "float", fres, exact=[float(v) == 0 for v in fres])])


# ---------------------------------------------------------------- int min/max
def k_int_minmax():
    n = 16
    a = rand_int(205, 4 * n, -2**29, 2**29)
    b = rand_int(206, 4 * n, -2**29, 2**29)
    for k in range(8, 32):
        a[k] >>= 20
        b[k] >>= 18
    a[0], b[0] = 5, 5
    a[1], b[1] = -3, 200
    res, ures = [], []
    for i in range(n):
        x = a[4 * i:4 * i + 4]
        y = b[4 * i:4 * i + 4]
        res += [min(p, q) * 2 + max(p, q) for p, q in zip(x, y)]
        res += [min(max(p, -100), 100) for p in x]
        res += [min(max(p, min(q, 0)), max(q, 0)) for p, q in zip(x, y)]
        res += [max(p, 7) - min(q, -7) for p, q in zip(x, y)]
        ux = [u32(v) for v in x]
        uy = [u32(v) for v in y]
        m = [min(p, q) for p, q in zip(ux, uy)]
        ures.append(m[0] ^ m[1] ^ m[2] ^ m[3])
        ures.append(max(u8(x[0]), u8(y[0])) + 1000 * min(u16(x[1]), u16(y[1])))
        cz = min(max(s8(x[2]), -20), 20)
        ures.append(u32(u32(cz) + 256 * min(max(u16(y[2]), 1000), 2000)))
        lm = max(ux[3] * 3, uy[3] * 2)
        ures.append(u32(lm >> 1) ^ u32(min(max(x[3], -5000000), 5000000)))
    return Kernel("int_minmax", "int_minmax", (n,), (4,), [
        buf("a", "int", a), buf("b", "int", b),
        out("res", "int", res), out("ures", "uint", ures)])


# ---------------------------------------------------------------- double
def double_one(a, b):
    cb = math.copysign(abs(b) ** (1.0 / 3.0), b)
    t0 = (math.sqrt(a), cb)
    t1 = (math.exp(b), -math.log(a))
    t6 = (math.hypot(a, b), math.log10(a) * 2.0 ** b)
    fx = Fraction(a) * Fraction(b) + Fraction(1.0 / 3.0)
    r = [t0[0] + t0[1], t1[0] + t1[1], math.sin(a) * math.cos(b), math.atan2(b, a - 10.0),
         a ** b, float(fx), t6[0] + t6[1], math.fmod(a * 7.0, b + 5.0)]
    ok = no_cancel(*t0) and no_cancel(*t1) and no_cancel(*t6)
    return r, ok


def k_double_math():
    n = 32
    xs, ys = [], []
    for i in range(n):
        def make(k):
            return (round(0.05 + 19.95 * ((i * 61 + k * 7) % 101) / 100.0, 6),
                    round(-4.0 + 8.0 * ((i * 37 + k * 11) % 97) / 96.0 + 0.001 * k, 6))
        x, y = search(make, lambda v: double_one(*v)[1] and
                      all(robust(t, "double", 16) for t in double_one(*v)[0]) and
                      abs(v[1]) > 0.01)
        xs.append(x)
        ys.append(y)
    res = []
    for x, y in zip(xs, ys):
        res += double_one(x, y)[0]
    return Kernel("double_math", "double_math", (n,), (8,), [
        buf("x", "double", xs), buf("y", "double", ys),
        out("res", "double", res, ulps=16)])


# ---------------------------------------------------------------- ldexp/frexp
def k_ldexp_frexp():
    n = 32
    vals = [1.0, -0.75, 3e38, 1e-30, 12345.678, -2.5e-5, 0.1, 65536.0, 7.0, -1e20,
            0.5, -1.0, 2.0, 1.5, -3.0, 1e-3]
    vals += [round(math.sin(i) * 10 ** (i % 7 - 3), 5) + 0.5 for i in range(n - len(vals))]
    xs = [F(v) for v in vals]
    ks = rand_int(207, n, -20, 20)
    ks[2] = 1                          # 3e38 * 2 overflows to inf
    res, ires = [], []
    for x, k in zip(xs, ks):
        m, e = math.frexp(float(x))
        ld = float(x) * 2.0 ** k
        assert ld == 0 or abs(ld) >= 1.1754943508222875e-38 or math.isinf(F(ld))
        with np.errstate(over="ignore"):
            ldv = F(ld)
        nxt = np.nextafter(x, np.float32(0.0)) - x
        res += [F(m), ldv, F(e - 1), nxt]
        ires += [e, e - 1]
    return Kernel("ldexp_frexp", "ldexp_frexp", (n,), (8,), [
        buf("x", "float", xs), buf("k", "int", ks),
        out("res", "float", res, exact=True), out("ires", "int", ires)])


# ---------------------------------------------------------------- range edges
# The arguments where SLEEF (the SIMD engine's vector math) needs the
# builtin library's help, with results correctly rounded from mpmath at 300
# bits; the kernel checks them against the OpenCL ulp bounds itself.
def _round_mp(v, mant, emin, emax):
    """mpmath value -> nearest binary float with `mant` fraction bits (ties
    to even, subnormals, overflow to inf), as a Python float."""
    import mpmath as mp
    if mp.isnan(v):
        return math.nan
    if mp.isinf(v):
        return math.inf if v > 0 else -math.inf
    if v == 0:
        return 0.0
    e = max(int(mp.floor(mp.log(abs(v), 2))), emin)
    while mp.mpf(2) ** e > abs(v) and e > emin:
        e -= 1
    while mp.mpf(2) ** (e + 1) <= abs(v):
        e += 1
    place = mp.mpf(2) ** (e - mant)
    r = mp.nint(v / place) * place          # nint: ties to even
    if abs(r) >= mp.mpf(2) ** (emax + 1):
        return math.inf if r > 0 else -math.inf
    return float(r)


def _rd(v):
    return _round_mp(v, 52, -1022, 1023)


def _rf(v):
    return _round_mp(v, 23, -126, 127)


def _bits_d(v):
    return int(np.array([v], np.float64).view(np.uint64)[0])


def _bits_f(v):
    return int(np.array([v], np.float32).view(np.uint32)[0])


def _exact_mod(x, y, nearest):
    """fmod (truncated quotient) or remainder (nearest, ties even) of floats,
    exactly, and the quotient."""
    fx, fy = Fraction(x), Fraction(y)
    t = fx / fy
    k = round_half_even(t) if nearest else (math.floor(t) if t >= 0 else math.ceil(t))
    r = fx - k * fy
    v = float(r) if r != 0 else math.copysign(0.0, x)
    assert Fraction(v) == r
    return v, k


def k_range_edges():
    import mpmath as mp
    mp.mp.prec = 300
    rnd = np.random.default_rng(2023)
    n = 16
    MAXD = float.fromhex("0x1.fffffffffffffp+1023")
    MAXF = float.fromhex("0x1.fffffep+127")

    def hexes(*hs):
        return [float.fromhex(h) for h in hs]

    def logu(lo, hi, k, f32=False):
        vs = [2.0 ** rnd.uniform(lo, hi) for _ in range(k)]
        return [float(F(v)) for v in vs] if f32 else vs

    def unif(lo, hi, k, f32=False):
        vs = [rnd.uniform(lo, hi) for _ in range(k)]
        return [float(F(v)) for v in vs] if f32 else vs

    def pw(x, y):
        x, y = mp.mpf(x), mp.mpf(y)
        if x < 0:
            assert y == mp.floor(y)
            v = mp.power(-x, y)
            return -v if int(y) % 2 else v
        return mp.power(x, y)

    def gamma(x):
        return mp.gamma(mp.mpf(x))

    # The CTS failures first, then arguments spread over each edge.
    big_d = hexes("0x1p+961", "0x1p+897") + [MAXD, 2.0 ** 512 * 1.25, 2.0 ** 400 * 1.5, 3.0] + logu(500, 1024, 10)
    big_f = hexes("0x1p+121", "0x1p+113") + [MAXF, 2.0 ** 64 * 1.25, 2.0 ** 40 * 1.5, 3.0] + logu(60, 128, 10, True)
    l1p_d = hexes("0x1.c8p+1019") + [MAXD, 2.0 ** 600 * 1.25, 1e307, 0.5] + logu(590, 1024, 11)
    l1p_f = hexes("0x1.2ceep+126") + [MAXF, 2.0 ** 104 * 1.25, 1e38, 0.5] + logu(100, 128, 11, True)
    hyp_d = hexes("-0x1.63p+9") + [710.4758600739439, -710.475, 709.5, 709.78, -20.0] + unif(709.0, 710.47, 10)
    hyp_f = hexes("-0x1.62e6p+6") + [89.41598, -89.4, 88.5, 88.72, -10.0] + unif(88.0, 89.415, 10, True)
    # Below -178 (-39) the results are subnormal only next to the poles.
    gam_d = hexes("-0x1.5800000000200p+7") + [-171.5, -170.5, -175.25, -177.5, -172.0 - 2.0 ** -40,
                                              -180.0 - 2.0 ** -44, -182.0 - 2.0 ** -45, -2.5, 5.5] + unif(-178.0, -170.0, 6)
    gam_f = hexes("-0x1.17f4p+5") + [-33.5, -34.5, -36.25, -37.5, float(F(-35.0 - 2.0 ** -16)),
                                     float(F(-40.0 - 2.0 ** -18)), -2.5, 5.5] + unif(-39.0, -33.0, 7, True)
    band = 1024.0 - 2.0 ** -20              # log2 of a result in SLEEF's bad band
    pow_d = [(-MAXD, 1.0), (MAXD, 1.0), (MAXD, 0.5), (2.0, band), (1.5, band / math.log2(1.5)),
             (0.75, band / math.log2(0.75)), (2.0 ** -600, -band / 600), (2.0 ** -1074, -band / 1074),
             (-3.0, 646.0), (-(2.0 ** (band / 3)), 3.0), (1e300, 1.02), (7.5, 2.25),
             (2.0 ** 1023 * 1.5, 1.0), (0.5, -1023.5), (-0.5, -1023.0), (1.0 + 2.0 ** -40, band * 2.0 ** 40 * math.log(2))]
    pow_f = [(float(F(x)), float(F(y))) for x, y in
             [(MAXF, 1.0), (-MAXF, 1.0), (2.0, 127.99), (1.5, 218.0), (0.75, -307.0), (7.5, 2.25),
              (3.0, -4.0), (1e-20, -1.5), (0.5, 0.5), (10.0, 38.5), (-2.0, 127.0), (1.0001, 800000.0),
              (2.0 ** -149, -0.85), (123.0, 0.125), (0.9, 800.0), (2.0, -149.0)]]
    pown_d = [(-MAXD, 1), (MAXD, 1), (2.0 ** (band / 3), 3), (-(2.0 ** (band / 5)), 5), (2.0 ** -1022, -1),
              (1.5, 1750), (-1.5, 1749), (0.75, -2467), (1.0 + 2.0 ** -21, int((709.782712893384 - 5e-7) / math.log1p(2.0 ** -21))),
              (3.0, 646), (-3.0, 645), (0.5, 1074), (10.0, 308), (10.0, -308), (2.0, 1023),
              (-(2.0 ** -1023) * 1.5, -1)]
    pown_f = [(float(F(x)), k) for x, k in
              [(MAXF, 1), (-MAXF, 1), (2.0, 127), (-2.0, 127), (1.5, 218), (0.75, -307), (3.0, -4), (10.0, 38),
               (-10.0, 37), (1.0001, 880000), (0.5, 149), (2.0 ** -126 * 3, -1), (7.5, 5), (-1.5, 217), (0.9, 800), (2.0, -126)]]
    powr_d = [(x, y) for x, y in pow_d if x >= 0] + [(3.0, 2.5), (1e-300, -1.02), (0.25, -511.99), (9.0, 323.0)]
    powr_f = [(x, y) for x, y in pow_f if x >= 0] + [(3.0, 2.5), (0.25, -63.99)]
    assert len(powr_d) == n and len(powr_f) == n, (len(powr_d), len(powr_f))
    mod_d = [hexes("-0x1.e38587584452bp+922", "0x1.729547db372f1p-441"),
             hexes("0x1.571f370c5157ap+746", "0x1.d5aa34f44aef6p-570"),
             hexes("-0x1.cd000000004a3p+933", "0x1.7900000000690p-258"),
             [MAXD, 7 * 2.0 ** -1074], [-MAXD, 3 * 2.0 ** -1074], [2.0 ** -1022 * 1.75, 2.0 ** -1074 * 5],
             [7.5, 2.0], [-1e300, 3e-300]]
    mod_f = [hexes("-0x1.3132dep+84", "-0x1.a91dcep-110"), hexes("-0x1.881afcp+56", "-0x1.ded264p-89"),
             [MAXF, 11 * 2.0 ** -149], [-MAXF, 19 * 2.0 ** -149], [2.0 ** -126 * 1.75, 2.0 ** -149 * 5],
             [7.5, 2.0], [float(F(-1e30)), float(F(3e-30))]]
    while len(mod_d) < n:
        ex, ey = rnd.integers(-1074, 1024, 2)
        x = float(np.ldexp(rnd.uniform(1, 2), int(ex)))
        y = float(np.ldexp(rnd.uniform(1, 2), int(ey)))
        if math.isfinite(x) and math.isfinite(y) and x != 0 and y != 0 and abs(x) > abs(y) * 2.0 ** 900:
            mod_d.append([x * (1 if rnd.integers(2) else -1), y * (1 if rnd.integers(2) else -1)])
    while len(mod_f) < n:
        ex, ey = rnd.integers(-149, 128, 2)
        x = float(F(np.ldexp(rnd.uniform(1, 2), int(ex))))
        y = float(F(np.ldexp(rnd.uniform(1, 2), int(ey))))
        if math.isfinite(x) and math.isfinite(y) and x != 0 and y != 0 and abs(x) > abs(y) * 2.0 ** 100:
            mod_f.append([x * (1 if rnd.integers(2) else -1), y * (1 if rnd.integers(2) else -1)])

    # One list of (x bits, y bits, result bits, quotient) per kernel slot.
    # A result of 0 or inf would not test the edge: the cases near overflow
    # have finite results, those of tgamma nonzero ones.
    def checked(v):
        assert math.isfinite(v) and v != 0, v
        return v

    def unary(xs, fn, dbl):
        rd, bits, arg = (_rd, _bits_d, float) if dbl else (_rf, _bits_f, lambda v: float(F(v)))
        return [(bits(arg(x)), 0, bits(checked(rd(fn(mp.mpf(arg(x)))))), 0) for x in xs]

    def binary(pairs, fn, dbl, int_y=False):
        rd, bits, arg = (_rd, _bits_d, float) if dbl else (_rf, _bits_f, lambda v: float(F(v)))
        return [(bits(arg(x)), (y & 0xffffffffffffffff) if int_y else bits(arg(y)),
                 bits(checked(rd(fn(arg(x), y if int_y else arg(y))))), 0)
                for x, y in pairs]

    def modular(pairs, nearest, dbl):
        bits = _bits_d if dbl else _bits_f
        rows = []
        for x, y in pairs:
            v, k = _exact_mod(x, y, nearest)
            checked(v)
            mag = abs(k) % 128
            rows.append((bits(x), bits(y), bits(v), 0 if mag == 0 else (-mag if k < 0 else mag)))
        return rows

    slots = [
        unary(big_d, mp.acosh, True), unary(big_f, mp.acosh, False),
        unary([-v if i % 2 else v for i, v in enumerate(big_d)], mp.asinh, True),
        unary([-v if i % 2 else v for i, v in enumerate(big_f)], mp.asinh, False),
        unary(l1p_d, mp.log1p, True), unary(l1p_f, mp.log1p, False),
        unary(hyp_d, mp.cosh, True), unary(hyp_f, mp.cosh, False),
        unary(hyp_d, mp.sinh, True), unary(hyp_f, mp.sinh, False),
        unary(gam_d, gamma, True), unary(gam_f, gamma, False),
        binary(pow_d, pw, True), binary(pow_f, pw, False),
        binary(pown_d, pw, True, int_y=True), binary(powr_d, pw, True),
        modular(mod_d, False, True), modular(mod_f, False, False),
        modular(mod_d, True, True), modular(mod_f, True, False),
        modular(mod_d, True, True), modular(mod_f, True, False),
        binary(pown_f, pw, False, int_y=True), binary(powr_f, pw, False),
    ]
    assert len(slots) == 24 and all(len(s) == n for s in slots), [len(s) for s in slots]
    rows = [r for s in slots for r in s]
    return Kernel("range_edges", "range_edges", (n,), (8,), [
        buf("x", "ulong", [r[0] for r in rows], hexmode=True, per_line=4),
        buf("y", "ulong", [r[1] for r in rows], hexmode=True, per_line=4),
        buf("want", "ulong", [r[2] for r in rows], hexmode=True, per_line=4),
        buf("wantq", "int", [r[3] for r in rows], per_line=16),
        out("ok", "int", [1] * len(rows))])
