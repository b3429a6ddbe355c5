"""Independent Python references for tests/kernels/control/.

One function per kernel: NAME(a, nd) -> {dumped buffer: final contents}.
`a` maps argument names to .sim inputs; `nd` is the NDRange. Every function
re-implements what the kernel means, one work-item at a time, with C integer
semantics made explicit (i32/u32 wraparound, cdiv/cmod truncation).
"""
import numpy as np

from gen_refs_sync import cdiv, cmod, i32, u32


def divergent_select(a, nd):
    A, B = a["a"], a["b"]
    r = np.zeros(len(A), np.float32)
    for i in range(nd.gsize[0]):
        x, y = np.float32(A[i]), np.float32(B[i])
        # inputs are halves in [-8, 8]: every product/difference is exact
        r[i] = x * x - y if x > y else y * y - x
    return {"result": r, "result2": r.copy()}


def nested_if3(a, nd):
    out = []
    for v in (int(x) for x in a["in"]):
        r = 0
        if v & 1:
            r += 1
            if v & 2:
                r += 10
                r += 100 if v & 4 else -100
            else:
                r += 20
                r = r * 3 if v > 50 else r * 2 + v
            r += v
        else:
            if v % 3 == 0:
                r = cdiv(v, 9) if v % 9 == 0 else -v
            else:
                r = 7
                if v < 20:
                    r = r + v * v
            r -= 1
        out.append(r)
    return {"out": out}


def collatz(a, nd):
    steps, peak = [], []
    for n in (int(x) for x in a["start"]):
        s, p = 0, n
        while n != 1:
            n = u32(3 * n + 1) if n & 1 else n >> 1
            p = max(p, n)
            s += 1
        steps.append(s)
        peak.append(p)
    return {"steps": steps, "peak": peak}


def gcd_while(a, nd):
    g, it = [], []
    for x, y in zip(a["a"], a["b"]):
        x, y, n = int(x), int(y), 0
        while x != y:
            if x > y:
                x -= y
            else:
                y -= x
            n += 1
        g.append(x)
        it.append(n)
    return {"g": g, "iters": it}


def break_continue(a, nd):
    data, limit = a["data"], a["limit"]
    out, count = [], []
    for i in range(nd.gsize[0]):
        lim = int(limit[i])
        s = n = 0
        for k in range(32):
            v = int(data[(i * 7 + k) & 127])
            if cmod(v, 3) == 0:
                continue
            if v < 0:
                s -= 1
                continue
            s += v
            n += 1
            if s > lim:
                break
            if v == 13:
                s *= 2
                break
        out.append(s)
        count.append(n)
    return {"out": out, "count": count}


def early_return(a, nd):
    out, where = [], []
    for v in (int(x) for x in a["in"]):
        o, w = -1, 0

        def body(v):
            if v < 0:
                return -v, 1
            if v == 0:
                return -1, 0
            for aa in range(2, 8):
                for bb in range(aa, 10):
                    if aa * bb == v:
                        return aa * 10 + bb, 2
                    if aa * bb > v:
                        break
                if aa + v % 11 == 12:
                    return aa, 4
            return v * 2, 3
        o, w = body(v)
        out.append(o)
        where.append(w)
    return {"out": out, "where": where}


def switch_fallthrough(a, nd):
    out, out2 = [], []
    for v in (int(x) for x in a["in"]):
        c = cmod(v, 8)
        r = 0
        # emulate the case chain with explicit fall-through
        if c == 0:
            r = 1 + 2
        elif c == 1:
            r = 2
        elif c in (2, 3, 4):
            if c in (2, 3):
                r += 4
            r += 8
            if not v > 40:
                r += 16
                r *= 3
        elif c == 6:
            r *= 3
        elif c == 7:
            r += 100
        else:  # default, falls into case 7
            r = -v + 100
        out.append(r)
        s = {3: 30, 17: 170, 42: 990, 99: 990, 1000: -1}.get(v, v & 5)
        out2.append(s)
    return {"out": out, "out2": out2}


def switch_uniform(a, nd):
    mode = a["mode"]
    L = nd.lsize[0]
    out = []
    for i, v in enumerate(int(x) for x in a["in"]):
        g, lid = i // L, i % L
        sel = (g + mode) % 5
        if sel == 0:
            r = 3 * v if v & 1 else v
        elif sel in (1, 2):
            r = 0
            if sel == 1:
                r = sum(range(v & 7))
            r = -v if sel == 2 else r + 1000
        elif sel == 3:
            r = v - 30 if v > 30 else 30 - v
        else:
            r = lid * 100 + v
        out.append(r)
    return {"out": out}


def goto_fwd_back(a, nd):
    out, tries = [], []
    for v in (int(x) for x in a["in"]):
        t = acc = 0
        while True:
            t += 1
            acc += v
            if acc % 7 == 3:
                break
            v = (v * 5 + 1) % 23
            if t < 6 and (acc & 3) != 0:
                continue
            acc = -acc
            break
        out.append(acc)
        tries.append(t)
    return {"out": out, "tries": tries}


def beignet_cfg(a, nd):
    out = []
    for x in (int(v) for v in a["in"]):
        r = x
        if x & 1:
            r = r * 2 + (x >> 2)           # 1 -> 4 -> 5
        else:
            r = r * 3 + 1
            if not (x & 2):
                r = r - 7                  # 2 -> 3 -> 4 -> 5
                r = r * 2 + (x >> 2)
            # else 2 -> 5 directly
        out.append(r + 1000)
    return {"out": out}


def irreducible(a, nd):
    out, trace = [], []
    for v in (int(x) for x in a["in"]):
        n = t = 0
        at = "B" if v & 1 else "A"
        while True:
            if at == "A":
                v += 3
                n += 1
                t = t * 3 + 1
            v = cdiv(v, 2) + (v & 1) * 5
            n += 1
            t = t * 3 + 2
            if n < 12 and v > 4:
                at = "A"
                continue
            break
        out.append(v * 100 + n)
        trace.append(t)
    return {"out": out, "trace": trace}


def goto_into_loop(a, nd):
    out = []
    for v in (int(x) for x in a["in"]):
        s = 0
        k = v % 4
        entered_inside = v > 50
        if not entered_inside:
            k = 0
        while True:
            if not entered_inside:
                if not k < 10:
                    break
                s += k
            entered_inside = False
            s += v & 7
            if s > 60:
                break
            k += 1
        out.append(s * 100 + k)
    return {"out": out}


def mandel_fixed(a, nd):
    w, h = nd.gsize[0], nd.gsize[1]
    mi = a["max_iter"]
    res = np.zeros(w * h, np.int64)
    for py in range(h):
        for px in range(w):
            cx = -2 * 4096 + cdiv(px * 3 * 4096, w)
            cy = -(3 * 4096 // 2) + cdiv(py * 3 * 4096, h)
            x = y = n = 0
            while n < mi:
                xx, yy = i32(x * x) >> 12, i32(y * y) >> 12
                if xx + yy > 4 * 4096:
                    break
                xy = i32(x * y) >> 11
                x = i32(xx - yy + cx)
                y = i32(xy + cy)
                n += 1
            res[py * w + px] = n
    return {"iters": res}


def uniform_loop_divif(a, nd):
    iters = a["iters"]
    out = []
    for v in (int(x) for x in a["img"]):
        acc = 0
        for it in range(iters):
            if (v + it) % 3 == 0:
                acc += it * v
            elif v > it * 4:
                acc -= v
            else:
                acc ^= it
                if acc & 1:
                    acc += 5
            v = (v * 3 + 7) % 64
        out.append(i32(acc))
    return {"out": out}


def select_chain(a, nd):
    out, out2 = [], []
    for p, q in zip(a["a"], a["b"]):
        p, q = int(p), int(q)
        m, M = min(p, q), max(p, q)
        c = 3 if p > 50 else 2 if p > 25 else 1 if p > 10 else 0
        s = q if (p & 1) == (q & 1) else p
        cl = max(-10, min(10, p - q))
        v = [p, q, m, M]
        w = [-e if e > 30 else e for e in v]
        u = [e * 2 if (e & 3) == 1 else cdiv(e, 2) for e in v]
        out.append(m + 64 * M + 4096 * c + 16384 * s)
        out2.append((cl + 10) + 32 * (sum(w) + 300) + 65536 * (min(sum(u), 200) + max(p, 2 * q)))
    return {"out": out, "out2": out2}


def short_circuit(a, nd):
    out, hits = [], []
    for v in (int(x) for x in a["in"]):
        h = r = 0
        if v != 0 and cdiv(100, v) > 3:
            r |= 1
        if v < 10:
            r |= 2
        else:
            h += 1
            if v > 40:
                r |= 2
        if v & 1:
            h += 1
            if v * 2 < 50 and cmod(v, 5) != 0:
                r |= 4
        if 20 < v < 40:
            r |= 8
        out.append(r)
        hits.append(h)
    return {"out": out, "hits": hits}


def digits_dowhile(a, nd):
    rev, nd_ = [], []
    for v in (int(x) for x in a["in"]):
        s = str(v)
        rev.append(int(s[::-1]))
        nd_.append(len(s))
    return {"rev": rev, "ndig": nd_}


def loop_multi_exit(a, nd):
    hay, needle = a["hay"], a["needle"]
    pos, kind = [], []
    for i in range(nd.gsize[0]):
        n = int(needle[i])
        j = i % 8
        budget = 40
        while True:
            if hay[j] == n:
                k = 1
                break
            if hay[j] > n + 90:
                k = 2
                break
            j = (j + 5) & 63
            budget -= 1
            if budget == 0:
                k = 3
                break
        pos.append(j)
        kind.append(k)
    return {"pos": pos, "kind": kind}


def _classify(v):
    if v < 0:
        return -1
    d = 2
    while d * d <= v:
        if v % d == 0:
            return d
        d += 1
    return 0 if v < 2 else 1


def func_multi_return(a, nd):
    out = []
    for v in (int(x) for x in a["in"]):
        r = _classify(v)
        if r > 1:
            r = r * 1000 + _classify(v // r)
        out.append(r)
    return {"out": out}
