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
