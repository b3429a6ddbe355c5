"""Independent Python references for tests/kernels/atomics/.

Every dumped value is independent of the order in which the atomic
operations happen (sums, counts, min/max, and/or/xor, sorted views), so the
reference applies the operations in any order -- here, work-item order.
"""
import numpy as np

from gen_refs_sync import cmod, i32, i64, u32, u64


def _chunks(arr, n):
    return [list(arr[i:i + n]) for i in range(0, len(arr), n)]


def atomic_counter_global(a, nd):
    c = [int(x) for x in a["counters"]]
    t = a["thresh"]
    for v in (int(x) for x in a["in"]):
        if v > t:
            c[0] += 1
            c[1] += v
        else:
            c[2] -= v
            c[3] -= 1
        c[4] += 1
    return {"counters": [i32(x) for x in c]}


def atomic_counter_local(a, nd):
    per, tot = [], [0, 0]
    for ch in _chunks([int(x) for x in a["in"]], nd.lsize[0]):
        cnt = sum(1 for v in ch if v & 1)
        s = sum(v for v in ch if cmod(v, 5) == 0)
        per.append(cnt * 10000 + s)
        tot[0] += cnt
        tot[1] += s
    return {"per_group": per, "total": tot}


def histogram_local(a, nd):
    hist = [0] * 16
    gh = []
    for ch in _chunks([int(x) for x in a["data"]], nd.lsize[0]):
        b = [0] * 16
        for v in ch:
            b[v & 15] += 1
            if v >= 128:
                b[3] += 2
        gh.extend(b)
        hist = [x + y for x, y in zip(hist, b)]
    return {"hist": hist, "group_hist": gh}


def histogram_2d(a, nd):
    W = a["width"]
    img = np.asarray(a["img"], np.int64).reshape(-1, W)
    hist = [0] * 9
    for v in img.reshape(-1):
        hist[int(v) >> 5] += 1
    hist[8] = int((img[:, 1:] > img[:, :-1]).sum())
    return {"hist": hist}


def float_add_cmpxchg(a, nd):
    # every input is k/4 with |k| <= 32: all partial sums are exact in float32,
    # so exact rational arithmetic gives the float result
    from fractions import Fraction
    vals = [Fraction(float(x)) for x in a["in"]]
    g = [Fraction(float(x)) for x in a["gsum"]]
    for i, v in enumerate(vals):
        g[i % 4] += v
    L = nd.lsize[0]
    ls = [Fraction(1, 2) + sum(vals[k:k + L]) for k in range(0, len(vals), L)]
    for x in g + ls:
        assert x.denominator <= 4 and abs(x) < 2 ** 20
    return {"gsum": np.array([float(x) for x in g], np.float32),
            "lsum": np.array([float(x) for x in ls], np.float32)}


def atomic_max_cmpxchg(a, nd):
    vals = [int(x) for x in a["in"]]
    g = [int(x) for x in a["gres"]]
    g = [max([g[0]] + vals), min([g[1]] + vals), max([g[2]] + vals)]
    gm = [max(cmod(v, 1000) for v in ch) for ch in _chunks(vals, nd.lsize[0])]
    return {"gres": g, "group_max": gm}


def atomic_minmax_bits(a, nd):
    vals = [int(x) for x in a["in"]]
    ir = [int(x) for x in a["ires"]]
    ur = [int(x) for x in a["ures"]]
    for v in vals:
        ir[0] = min(ir[0], v)
        ir[1] = max(ir[1], v)
        ir[2] = i32(ir[2] & ~(1 << (v & 31)))
        ir[3] = i32(ir[3] | (1 << (v & 15)))
        ir[4] = i32(ir[4] ^ v)
        u = u32(v * 2654435761)
        ur[0] = min(ur[0], u)
        ur[1] = max(ur[1], u)
        ur[2] |= u & 0xF0F0F0F0
        ur[3] ^= u
        ur[4] &= u | 0x0F0F0F0F
    gres = []
    for ch in _chunks(vals, nd.lsize[0]):
        l0, l1, l2 = 2147483647, -1, 0
        for v in ch:
            l0 = min(l0, v)
            l1 = i32(l1 & (v | 0x10101))
            l2 = i32(l2 ^ i32(v << 3))
        gres.extend([l0, l1, l2])
    return {"ires": ir, "ures": ur, "gres": gres}


def atomic_xchg_conserve(a, nd):
    vals = [int(x) for x in a["in"]]
    slots0 = sum(1000 * (l + 1) for l in range(4))
    totals = [slots0 + sum(ch) for ch in _chunks(vals, nd.lsize[0])]
    totals.append(sum(int(x) for x in a["gslot"]))     # the values xchg returned
    return {"totals": totals, "gslot": [2 * v for v in vals]}


def atom64_add(a, nd):
    vals = [int(x) for x in a["in"]]
    us = [int(x) for x in a["usum"]]
    rs = [int(x) for x in a["res"]]
    for v in vals:
        us[0] = u64(us[0] + u64(v) * 3000000000)
        us[1] = u64(us[1] + 1)
        us[2] ^= u64(u64(v) * 0x9E3779B97F4A7C15)
        rs[0] = i64(rs[0] + v)
        rs[1] = i64(rs[1] - (v >> 7))
        rs[2] = max(rs[2], v)
        rs[3] = min(rs[3], v)
    return {"usum": us, "res": rs}


def c11_atomics(a, nd):
    vals = [int(x) for x in a["in"]]
    gi = [int(x) for x in a["gi"]]
    gu = [int(x) for x in a["gu"]]
    for v in vals:
        gi[0] = i32(gi[0] + v)
        gi[1] = i32(gi[1] - v)
        gi[2] = min(gi[2], v)
        gi[3] = max(gi[3], v)
        gi[4] = i32(gi[4] + (v & 7))
        gu[0] |= 1 << (v & 31)
        gu[1] &= ~(1 << ((v >> 3) & 31)) & 0xFFFFFFFF
        gu[2] ^= u32(v * 40503)
    pg = []
    for ch in _chunks(vals, nd.lsize[0]):
        pg.extend([sum(ch), max(ch)])
    return {"gi": gi, "gu": gu, "per_group": pg}


def atomic_compact_sorted(a, nd):
    out, total = [], 0
    for ch in _chunks([int(x) for x in a["in"]], nd.lsize[0]):
        kept = sorted(v for v in ch if cmod(v, 3) != 0)
        total += len(kept)
        out.extend(kept + [0] * (len(ch) - len(kept)))
    return {"out": out, "count": [total]}


def atomic_dec_local(a, nd):
    left = []
    for ch in _chunks([int(x) for x in a["in"]], nd.lsize[0]):
        budget = 500 - sum(v & 3 for v in ch)
        drained = -sum(v - 50 for v in ch if v > 50)
        left.extend([budget, drained])
    return {"left": left}


def atomic_slots(a, nd):
    BINS, SLOTS = 8, 64
    n = nd.lsize[0]
    groups = _chunks([int(x) for x in a["in"]], n)
    marks = [0] * (len(groups) * BINS * SLOTS)
    tickets = [0] * (len(groups) * 4 * n)
    totals = []
    for g, ch in enumerate(groups):
        count = [0] * BINS
        nxt = 0
        for v in ch:
            b = 1 if v % 3 == 0 else (5 if v & 1 else v % BINS)
            if count[b] < SLOTS:
                marks[(g * BINS + b) * SLOTS + count[b]] += 1
            count[b] += 1
            w = (v & 3) + 1
            for t in range(nxt, nxt + w):
                tickets[g * 4 * n + t] += 1
            nxt += w
        totals.extend(count + [nxt])
    return {"marks": marks, "tickets": tickets, "totals": totals}
