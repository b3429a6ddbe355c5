"""Independent Python references for tests/kernels/subgroups/.

A subgroup is W consecutive work-items of a work-group by local linear id
(the last one smaller when W does not divide the group's size); every
function takes W as its third argument, and gen_refs_sync.py writes a
`WIDTH w` section of the .ref for each W in 4, 8, 16, 32.

Work-groups may be smaller at the end of the NDRange (OpenCL 2.0
non-uniform groups): `get_local_size` and the local linear id use the
actual size, `get_enqueued_local_size` the requested one.

Reductions and scans are computed from their definitions (a fold in lane
order; scans as prefix folds); the kernels' float inputs are multiples of
0.25 small enough that every sum is exact, so the order of operations does
not matter.
"""
import numpy as np

from gen_refs_sync import i32, u32, i64, u64

M32 = 0xFFFFFFFF


def _ceil(a, b):
    return -(-a // b)


def items(nd):
    """Every work-item as (global linear index, group, local linear id, group
    items, enqueued group items), the global linear index x-fastest."""
    g, l = nd.gsize, nd.lsize
    groups = [_ceil(g[d], l[d]) for d in range(3)]
    enq = l[0] * l[1] * l[2]
    for gz in range(g[2]):
        for gy in range(g[1]):
            for gx in range(g[0]):
                gid = (gx, gy, gz)
                grp = tuple(gid[d] // l[d] for d in range(3))
                lid = tuple(gid[d] % l[d] for d in range(3))
                size = [min(l[d], g[d] - grp[d] * l[d]) for d in range(3)]
                lin = lid[0] + size[0] * (lid[1] + size[1] * lid[2])
                n = size[0] * size[1] * size[2]
                glin = gx + g[0] * (gy + g[1] * gz)
                yield glin, grp, lin, n, enq
    del groups


def subgroups(nd, W):
    """Each subgroup as a list of global linear indices in lane order."""
    by_group = {}
    for glin, grp, lin, n, enq in items(nd):
        by_group.setdefault(grp, {})[lin] = glin
    out = []
    for grp in sorted(by_group, key=lambda t: (t[2], t[1], t[0])):
        lins = by_group[grp]
        n = len(lins)
        for s0 in range(0, n, W):
            out.append([lins[k] for k in range(s0, min(n, s0 + W))])
    return out


# ------------------------------------------------------------------ combines
INT_TYPES = {
    "int": (32, True), "uint": (32, False), "long": (64, True), "ulong": (64, False),
    "char": (8, True), "uchar": (8, False), "short": (16, True), "ushort": (16, False),
}


def wrap(v, t):
    bits, signed = INT_TYPES[t]
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def identity(op, t):
    if t in ("float", "double"):
        dt = np.float32 if t == "float" else np.float64
        return {"add": dt(0), "mul": dt(1), "min": dt(np.inf), "max": dt(-np.inf)}[op]
    bits, signed = INT_TYPES[t]
    lo = -(1 << (bits - 1)) if signed else 0
    hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    return {"add": 0, "mul": 1, "min": hi, "max": lo, "and": wrap(-1, t), "or": 0,
            "xor": 0}[op]


def combine(op, t, a, b):
    if t in ("float", "double"):
        dt = np.float32 if t == "float" else np.float64
        a, b = dt(a), dt(b)
        return {"add": lambda: dt(a + b), "mul": lambda: dt(a * b),
                "min": lambda: min(a, b), "max": lambda: max(a, b)}[op]()
    r = {"add": a + b, "mul": a * b, "min": min(a, b), "max": max(a, b),
         "and": a & b, "or": a | b, "xor": a ^ b}[op]
    return wrap(r, t)


def reduce_(op, t, vals):
    acc = identity(op, t)
    for v in vals:
        acc = combine(op, t, acc, v)
    return acc


def scan(op, t, vals, inclusive):
    """Prefix folds: out[i] over vals[:i+1] (inclusive) or vals[:i]."""
    return [reduce_(op, t, vals[:i + 1] if inclusive else vals[:i]) for i in range(len(vals))]


def typed_inputs(x, g):
    """The per-work-item values the reduce and scan kernels derive from x."""
    v = int(x[g])
    u = u32(v * 2654435761)
    l = i64(v * 1000000007)
    ul = u64((u << 20) | g)
    return {"int": v, "uint": u, "long": l, "ulong": ul,
            "float": np.float32(v) * np.float32(0.5), "double": np.float64(v) * 0.25}


# Float results are written as integers, 4 times the value (exact).
OUT_NAMES = {"int": "oi", "uint": "ou", "long": "ol", "ulong": "oul", "float": "of",
             "double": "od"}


def _outputs(nd, k):
    n = nd.gsize[0]
    return {name: [0] * (k * n) for name in OUT_NAMES.values()}


# ------------------------------------------------------------------ kernels
def sg_queries(a, nd, W):
    out = [0] * len(a["out"])
    for glin, grp, lin, n, enq in items(nd):
        sg = lin // W
        o = [min(W, n - sg * W), min(W, enq), _ceil(n, W), _ceil(enq, W), sg, lin % W]
        out[6 * glin:6 * glin + 6] = o
    return {"out": np.array(out, np.uint32)}


sg_queries_tail = sg_queries


def sg_reduce(a, nd, W):
    out = _outputs(nd, 3)
    for lanes in subgroups(nd, W):
        vals = {g: typed_inputs(a["x"], g) for g in lanes}
        for t, name in OUT_NAMES.items():
            xs = [vals[g][t] for g in lanes]
            r = [reduce_(op, t, xs) for op in ("add", "min", "max")]
            if t in ("float", "double"):
                r = [int(4 * v) for v in r]
            for g in lanes:
                out[name][3 * g:3 * g + 3] = r
    return {"oi": out["oi"], "ou": out["ou"], "ol": out["ol"], "oul": out["oul"],
            "of": out["of"], "od": out["od"]}


def sg_scan(a, nd, W):
    out = _outputs(nd, 6)
    for lanes in subgroups(nd, W):
        vals = {g: typed_inputs(a["x"], g) for g in lanes}
        for t, name in OUT_NAMES.items():
            xs = [vals[g][t] for g in lanes]
            cols = [scan(op, t, xs, incl) for incl in (True, False) for op in ("add", "min", "max")]
            for k, g in enumerate(lanes):
                r = [c[k] for c in cols]
                if t in ("float", "double"):
                    r = [0 if np.isinf(v) else int(4 * v) for v in r]
                out[name][6 * g:6 * g + 6] = r
    return {"oi": out["oi"], "ou": out["ou"], "ol": out["ol"], "oul": out["oul"],
            "of": out["of"], "od": out["od"]}


def sg_vote(a, nd, W):
    x = a["x"]
    out = [0] * len(a["out"])
    for lanes in subgroups(nd, W):
        n = len(lanes)
        vs = [int(x[g]) for g in lanes]
        last = n - 1
        one = 1 if last >= 1 else 0
        part = [k for k in range(n) if vs[k] % 3 == 0]
        for k, g in enumerate(lanes):
            v = vs[k]
            o = [0] * 16
            o[0] = int(all(w > -800 for w in vs))
            o[1] = int(any(w > 850 for w in vs))
            o[2] = vs[one]
            o[3] = u32(vs[last] * 7)
            o[4] = vs[last] * 100000000000
            o[5] = i64(u64(vs[0]) << 40)
            o[6] = vs[last]
            o[7] = vs[one]
            o[8:16] = [-1] * 8
            if v % 3 == 0:
                pv = [vs[m] for m in part]
                o[8] = int(all(w > 0 for w in pv))
                o[9] = int(any(w > 600 for w in pv))
                o[10] = int(k == part[0])
                o[11] = int(len(set(int(w / 1000) for w in pv)) == 1)
                o[12] = int(len(set(pv)) == 1)
                o[13] = vs[part[0]]
                o[14] = int(vs[part[0]] * 0.5) * 2
                o[15] = vs[part[-1]] * 2
            out[16 * g:16 * g + 16] = o
    return {"out": np.array(out, np.int64)}


def _popcount(b):
    return bin(b).count("1")


def sg_ballot(a, nd, W):
    x = a["x"]
    out = [0] * len(a["out"])
    for lanes in subgroups(nd, W):
        n = len(lanes)
        vs = [int(x[g]) for g in lanes]
        full = (1 << n) - 1
        b = sum(1 << k for k in range(n) if vs[k] & 1)
        part = [k for k in range(n) if vs[k] % 4 == 0]
        d = sum(1 << k for k in part if vs[k] > 0)
        for k, g in enumerate(lanes):
            eq = 1 << k
            lt = eq - 1
            o = [b, 0, (b >> k) & 1, (b >> 2) & 1, _popcount(b),
                 _popcount(b & (lt | eq)), _popcount(b & lt),
                 (b & -b).bit_length() - 1 if b else 99, b.bit_length() - 1 if b else 99,
                 eq, ~lt & full, ~(lt | eq) & full, lt | eq, lt, 7, 7]
            if vs[k] % 4 == 0:
                o[14] = d
                o[15] = len(part)
            out[16 * g:16 * g + 16] = [u32(v) for v in o]
    return {"out": np.array(out, np.uint32)}


def sg_shuffle(a, nd, W):
    x = a["x"]
    out = [0] * len(a["out"])
    # The Intel shuffles' subgroup size: get_max_sub_group_size().
    w = min(W, nd.lsize[0] * nd.lsize[1] * nd.lsize[2])
    for lanes in subgroups(nd, W):
        n = len(lanes)
        full = n == w
        vs = [int(x[g]) for g in lanes]
        for k, g in enumerate(lanes):
            v = vs[k]
            o = [0] * 16
            o[0] = vs[(v & 0x7FFFFFFF) % n]
            o[1] = vs[k ^ 1] if k ^ 1 < n else -1
            o[2] = vs[k - 2] if k >= 2 else -1
            o[3] = vs[k + 3] if k + 3 < n else -1
            o[4] = vs[k ^ 2] if k ^ 2 < n else -1
            o[5] = vs[0] * 3
            o[6] = vs[k ^ 1] if k ^ 1 < n else -1
            o[7] = (vs[k + 1] if k + 1 < w else vs[0] + 10000) if full else -1
            o[8] = (vs[k - 1] if k >= 1 else vs[w - 1] - 10000) if full else -1
            o[9] = vs[1 % n]
            o[10] = vs[1 % n] + 3
            o[11] = vs[n - 1]
            o[12] = n - 1
            o[13] = vs[n - 1 - k] * 3
            o[14] = vs[0] & 0xFF
            o[15] = 0
            out[16 * g:16 * g + 16] = o
    return {"out": np.array(out, np.int32)}


def sg_rotate(a, nd, W):
    x = a["x"]
    out = [0] * len(a["out"])
    # Rotations are around get_max_sub_group_size() work-items.
    w = min(W, nd.lsize[0] * nd.lsize[1] * nd.lsize[2])

    def rot(vals, k, d, c):
        base = k - k % c
        src = base + (k % c + d) % c  # Python's % is never negative
        return vals[src] if src < len(vals) else None

    def c_rem(a, b):
        """C's % (truncating)."""
        return int(np.fmod(a, b))

    for lanes in subgroups(nd, W):
        vs = [int(x[g]) for g in lanes]
        d = c_rem(vs[0], 40)
        for k, g in enumerate(lanes):
            def pick(vals, d, c, f=lambda v: v):
                r = rot(vals, k, d, c)
                return -1 if r is None else f(r)
            o = [
                pick(vs, d, w),
                pick(vs, -3, w, lambda v: int(np.fix(v * 3000000000 / 1000000000))),
                pick(vs, w + 1, w),
                pick(vs, 2, w, lambda v: v & 0xFFFF),
                vs[k],
                pick(vs, 1, 2),
                pick(vs, d, 4),
                pick(vs, -1, 1 << (w.bit_length() - 1)),
            ]
            out[8 * g:8 * g + 8] = o
    return {"out": np.array(out, np.int32)}


def _ctrunc(f):
    """C's float-to-int conversion (toward zero)."""
    return int(f)


def sg_nonuniform(a, nd, W):
    x = a["x"]
    out = [0] * len(a["out"])
    for lanes in subgroups(nd, W):
        n = len(lanes)
        vs = [int(x[g]) for g in lanes]
        ms = [(v & 7) + 1 for v in vs]
        odd = [k for k in range(n) if vs[k] & 1]
        even = [k for k in range(n) if not vs[k] & 1]
        accs = [0] * n
        for j in range(4):
            part = [k for k in range(n) if (vs[k] & 3) > j]
            if not part:
                break
            total = i32(sum(j + vs[k] for k in part))
            for rank, k in enumerate(part):
                accs[k] = i32(accs[k] + total) ^ ((rank + 1) << 16)
        total_acc = i32(sum(accs))
        for k, g in enumerate(lanes):
            v = vs[k]
            o = [0] * 24
            if v & 1:
                P = odd
                pv = [vs[p] for p in P]
                below = [vs[p] for p in P if p <= k]
                pm = [ms[p] for p in P]
                bm = [ms[p] for p in P if p <= k]
                strict = [vs[p] for p in P if p < k]
                o[0] = reduce_("add", "int", pv)
                o[1] = reduce_("mul", "int", pm)
                o[2] = min(pv)
                o[3] = i32(max(u32(w) for w in pv))
                o[4] = reduce_("and", "int", [w | 0x100 for w in pv])
                o[5] = reduce_("or", "int", [w & 0xF0 for w in pv])
                o[6] = reduce_("xor", "int", pv)
                o[7] = int(all(w > -500 for w in pv))
                o[8] = int(any(w > 800 for w in pv))
                o[9] = sum(1 for w in pv if w > 0) & 1
                o[10] = reduce_("add", "int", below)
                o[11] = reduce_("mul", "int", bm)
                o[12] = min(below)
                o[13] = max(below)
                o[14] = reduce_("and", "int", strict)
                o[15] = reduce_("or", "int", [w & 0xFF for w in strict])
                o[16] = reduce_("xor", "int", strict)
                o[17] = int(any(w > 500 for w in strict))
            else:
                P = even
                pv = [vs[p] for p in P]
                below = [vs[p] for p in P if p <= k]
                strict = [vs[p] for p in P if p < k]
                sm = [ms[p] for p in P if p < k]
                o[0] = i32(sum(w * 1000000 for w in pv))
                prod = 1.0
                for w in pv:
                    prod *= ((w >> 1) & 1) + 1
                o[1] = int(prod)
                o[2] = _ctrunc(max(w * 0.5 for w in pv))
                o[3] = reduce_("add", "int", strict)
                o[4] = reduce_("mul", "int", sm)
                o[5] = i32(reduce_("min", "uint", [u32(w) for w in strict]))
                o[6] = reduce_("max", "int", strict)
                o[7] = reduce_("and", "int", [w | 3 for w in below])
                o[8] = reduce_("or", "int", [w & 0x1F for w in below])
                o[9] = reduce_("xor", "int", below)
                o[10] = int(all(w < 600 for w in below))
                o[11] = sum(1 for w in below if w < 0) & 1
                o[12:18] = [-7] * 6
            o[18] = accs[k]
            o[19] = total_acc
            o[20] = n
            out[24 * g:24 * g + 24] = o
    return {"out": np.array(out, np.int32)}


def sg_clustered(a, nd, W):
    x = a["x"]
    out = [0] * len(a["out"])
    for lanes in subgroups(nd, W):
        n = len(lanes)
        vs = [int(x[g]) for g in lanes]

        def cl(k, c, keep=lambda m: True):
            s = k // c * c
            return [vs[m] for m in range(s, min(n, s + c)) if keep(m)]
        for k, g in enumerate(lanes):
            v = vs[k]
            o = [0] * 16
            o[0] = reduce_("add", "int", cl(k, 2))
            o[1] = reduce_("mul", "int", [(w & 3) + 1 for w in cl(k, 4)])
            o[2] = min(cl(k, 4))
            o[3] = max(u32(w) for w in cl(k, 2))
            o[4] = reduce_("and", "int", cl(k, 4))
            o[5] = reduce_("or", "int", [w & 0xF0 for w in cl(k, 4)])
            o[6] = reduce_("xor", "int", cl(k, 2))
            o[7] = int(all(w > 0 for w in cl(k, 2)))
            o[8] = int(any(w > 700 for w in cl(k, 4)))
            o[9] = sum(1 for w in cl(k, 4) if w > 0) & 1
            o[10] = i64(sum(w * 3000000000 for w in cl(k, 4)))
            o[11] = _ctrunc(max(w * 0.5 for w in cl(k, 4)))
            o[12] = v
            o[13] = o[14] = -1
            if v % 3 != 0:
                keep = lambda m: vs[m] % 3 != 0
                o[13] = sum(cl(k, 4, keep))
                o[14] = min(cl(k, 2, keep))
            o[15] = sum(cl(k, min(16, W)))
            out[16 * g:16 * g + 16] = o
    return {"out": np.array(out, np.int64)}


def sg_extended(a, nd, W):
    x = a["x"]
    out = [0] * len(a["out"])
    for lanes in subgroups(nd, W):
        n = len(lanes)
        vs = [int(x[g]) for g in lanes]
        cs = [wrap(v, "char") for v in vs]
        ucs = [wrap(v, "uchar") for v in vs]
        ss = [wrap(v * 37, "short") for v in vs]
        uss = [wrap(v * 37, "ushort") for v in vs]
        last = n - 1
        odd = [k for k in range(n) if vs[k] & 1]
        for k, g in enumerate(lanes):
            o = [0] * 24
            o[0] = reduce_("add", "char", cs)
            o[1] = max(ucs)
            o[2] = reduce_("add", "short", ss[:k + 1])
            o[3] = reduce_("min", "ushort", uss[:k])
            o[4] = min(cs)
            o[5] = max(ucs[:k + 1])
            o[6] = reduce_("add", "ushort", uss)
            o[7] = reduce_("max", "short", ss[:k])
            vl = vs[last]
            o[8:12] = [vl, i32(vl * 2), i32(vl * 3), -vl]
            o[12] = vs[0]
            o[13] = vs[0]
            o[14] = ucs[last]
            o[15] = wrap(ucs[last] + 7, "uchar")
            o[16:19] = [vs[0], vs[0], -vs[0]]
            o[19] = o[20] = -1
            if vs[k] & 1:
                f = odd[0]
                o[19] = ss[f]
                o[20] = wrap(ss[f] + 3, "short")
            out[24 * g:24 * g + 24] = o
    return {"out": np.array(out, np.int32)}


def sg_barrier(a, nd, W):
    x = a["x"]
    out = [0] * len(a["out"])
    for lanes in subgroups(nd, W):
        n = len(lanes)
        av = [int(x[lanes[(k + 1) % n]]) for k in range(n)]
        for k, g in enumerate(lanes):
            p = (k + n - 1) % n
            out[2 * g] = av[k]
            out[2 * g + 1] = av[p] * 2 + p
    return {"out": np.array(out, np.int32)}


def sg_reqd_size(a, nd, W):
    # The kernel requires subgroups of 8: W does not matter.
    x = a["x"]
    out = [0] * len(a["out"])
    for lanes in subgroups(nd, 8):
        total = i32(sum(int(x[g]) for g in lanes))
        for k, g in enumerate(lanes):
            out[3 * g:3 * g + 3] = [len(lanes), k, total]
    return {"out": np.array(out, np.int32)}


def wg_collectives(a, nd):
    # Work-group results do not depend on the subgroup size.
    x = a["x"]
    groups = {}
    for glin, grp, lin, n, enq in items(nd):
        groups.setdefault(grp, {})[lin] = glin
    out = [0] * len(a["out"])
    for grp, members in groups.items():
        order = [members[k] for k in sorted(members)]
        vs = [int(x[g]) for g in order]
        us = [u32(v + 5000) for v in vs]
        ls = [v * 3000000 for v in vs]
        uls = [v + 1000 for v in vs]
        fs = [np.float32(v) * np.float32(0.5) for v in vs]
        if nd.gsize[1] == 1:
            src = min(3, len(order) - 1)
        else:
            src = 2 + 1 * nd.lsize[0]
        for k, g in enumerate(order):
            o = [0] * 12
            o[0] = i32(sum(vs))
            o[1] = min(us)
            o[2] = max(ls)
            o[3] = sum(ls[:k + 1])
            o[4] = i32(sum(vs[:k]))
            o[5] = min(vs[:k + 1])
            o[6] = max(uls[:k]) if k else 0
            o[7] = int(4 * sum(v * 0.25 for v in vs))
            o[8] = int(4 * float(sum(fs[:k + 1])))
            o[9] = int(all(v > -900 for v in vs)) * 2 + int(any(v > 995 for v in vs))
            o[10] = vs[src]
            o[11] = int(4 * float(min(fs[:k]))) if k else -1
            out[12 * g:12 * g + 12] = o
    return {"out": np.array(out, np.int64)}


wg_collectives_2d = wg_collectives
