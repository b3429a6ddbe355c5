"""Independent Python references for tests/kernels/barrier/.

Each work-group is simulated phase by phase: everything a work-item does
before a barrier is done for all work-items of the group (reading the
local-memory state of the previous phase), then the next phase starts.
"""
import numpy as np

from gen_refs_sync import cdiv, cmod, i32


def _groups1d(nd):
    L = nd.lsize[0]
    for grp in range(nd.groups[0]):
        yield grp, L, grp * L


def barrier_straight(a, nd):
    inp = a["in"]
    out = np.zeros(nd.gsize[0], np.int64)
    for grp, n, base in _groups1d(nd):
        buf = [int(inp[base + l]) * 3 for l in range(n)]
        for l in range(n):
            out[base + l] = buf[(l + 1) % n] - buf[n - 1 - l]
    return {"out": out}


def barrier_loop_uniform(a, nd):
    inp, steps = a["in"], a["steps"]
    out = np.zeros(nd.gsize[0], np.int64)
    for grp, n, base in _groups1d(nd):
        cur = [int(inp[base + l]) for l in range(n)]
        for s in range(steps):
            cur = [cdiv(cur[(l + n - 1) % n] + 2 * cur[l] + cur[(l + 1) % n], 4) + s for l in range(n)]
        out[base:base + n] = cur
    return {"out": out}


def barrier_uniform_cond(a, nd):
    inp, thresh = a["in"], a["thresh"]
    out = np.zeros(nd.gsize[0], np.int64)
    for grp, n, base in _groups1d(nd):
        v = [int(inp[base + l]) for l in range(n)]
        if grp % 2 == 0:
            buf = list(v)
            v = [v[l] + buf[n - 1 - l] for l in range(n)]
        elif thresh > grp:
            buf = [x * 2 for x in v]
            v = [buf[(l + 3) % n] - v[l] for l in range(n)]
        if thresh > 0:
            buf = list(v)
            v = [v[l] * 10 + buf[l - 1] if l & 1 else v[l] for l in range(n)]
        out[base:base + n] = v
    return {"out": out}


def barrier_multiple(a, nd):
    inp = a["in"]
    out = np.zeros(nd.gsize[0], np.int64)
    for grp, n, base in _groups1d(nd):
        A = [int(inp[base + l]) for l in range(n)]
        B = [A[l] + A[(l + 1) % n] for l in range(n)]
        A = [B[l] * B[(l + 2) % n] for l in range(n)]
        B = [A[n - 1 - l] - B[l] for l in range(n)]
        out[base:base + n] = [B[(l + 5) % n] + A[l] for l in range(n)]
    return {"out": out}


def barrier_early_return(a, nd):
    inp = a["in"]
    out = np.full(nd.gsize[0], -7, np.int64)
    for grp, n, base in _groups1d(nd):
        buf = [int(inp[base + l]) for l in range(n)]
        for l in range(n):
            s = buf[l] + buf[(l + 5) % n]
            if s % 3 == 0:
                out[base + l] = -s
                continue
            ret = False
            for k in range(0, n, 4):
                s += buf[k]
                if s > 250:
                    ret = True
                    break
            if not ret:
                out[base + l] = s
    return {"out": out}


def barrier_loop_inner_div(a, nd):
    inp = a["in"]
    out = np.zeros(nd.gsize[0], np.int64)
    for grp, n, base in _groups1d(nd):
        v = [int(inp[base + l]) for l in range(n)]
        for r in range(4):
            buf = list(v)
            nv = []
            for l in range(n):
                k = buf[l] & 7
                acc = sum(buf[(l + j) % n] for j in range(k + 1))
                nv.append((acc + r) % 1000)
            v = nv
        out[base:base + n] = v
    return {"out": out}


def barrier_live_divergent(a, nd):
    inp = a["in"]
    out = np.zeros(nd.gsize[0], np.int64)
    for grp, n, base in _groups1d(nd):
        buf = [int(inp[base + l]) for l in range(n)]
        for l in range(n):
            v = buf[l]
            sq = v * v - 7
            mine = v * 3 if v & 1 else cdiv(v, 2)
            if buf[(l + 1) % n] > v:
                r = sq + mine
            elif l & 2:
                r = mine - buf[0]
            else:
                r = sq
            out[base + l] = r
    return {"out": out}


def barrier_private_array(a, nd):
    inp = a["in"]
    out = np.zeros(nd.gsize[0], np.int64)
    for grp, n, base in _groups1d(nd):
        v = [int(inp[base + l]) for l in range(n)]
        p = [[v[l] * (k + 1) + k for k in range(6)] for l in range(n)]
        buf = list(v)
        idx = [cmod(buf[(l + 1) % n], 6) for l in range(n)]
        for l in range(n):
            p[l][idx[l]] += buf[n - 1 - l]
        buf = [p[l][(idx[l] + 1) % 6] for l in range(n)]
        for l in range(n):
            out[base + l] = p[l][idx[l]] + buf[(l + 3) % n] * 2 + p[l][5]
    return {"out": out}


def barrier_loop_return(a, nd):
    inp, iters = a["in"], a["iters"]
    out = np.full(nd.gsize[0], -1, np.int64)
    for grp, n, base in _groups1d(nd):
        v = [int(inp[base + l]) for l in range(n)]
        for it in range(iters):
            A = list(v)
            v = [max(v[l], A[(l + it + 1) % n]) - (it & 1) for l in range(n)]
        for l in range(n):
            if not v[l] > 90:
                out[base + l] = v[l] + l
    return {"out": out}


def barrier_3d(a, nd):
    inp = a["in"]
    GX, GY, GZ = nd.gsize
    out = np.zeros(GX * GY * GZ, np.int64)
    LX, LY, LZ = nd.lsize
    for (bx, by, bz) in nd.group_ids():
        def gi(lx, ly, lz):
            return ((bz * LZ + lz) * GY + (by * LY + ly)) * GX + (bx * LX + lx)
        t = {(lz, ly, lx): int(inp[gi(lx, ly, lz)]) for (lx, ly, lz) in nd.local_ids()}
        s = {}
        for (lx, ly, lz) in nd.local_ids():
            s[(lz, ly, lx)] = (t[(lz, ly, (lx + 1) % 4)] + t[(lz, (ly + 1) % 2, lx)] * 10
                               + t[((lz + 1) % 2, ly, lx)] * 100)
        for (lx, ly, lz) in nd.local_ids():
            out[gi(lx, ly, lz)] = (s[(1 - lz, 1 - ly, 3 - lx)] - s[(lz, ly, lx)]
                                   + bz * 1000 + by * 100 + bx * 10)
    return {"out": out}


def barrier_2d_sums(a, nd):
    W, H = nd.gsize[0], nd.gsize[1]
    img = np.array(a["in"], np.int64).reshape(H, W)
    out = np.zeros((H, W), np.int64)
    LX, LY = nd.lsize[0], nd.lsize[1]
    for by in range(nd.groups[1]):
        for bx in range(nd.groups[0]):
            t = img[by * LY:(by + 1) * LY, bx * LX:(bx + 1) * LX]
            rs = t.sum(axis=1)
            cs = t.sum(axis=0)
            out[by * LY:(by + 1) * LY, bx * LX:(bx + 1) * LX] = rs[:, None] * 100 + cs[None, :] - t
    return {"out": out.reshape(-1)}


def barrier_global_fence(a, nd):
    inp = [int(x) for x in a["in"]]
    out = np.zeros(nd.gsize[0], np.int64)
    for grp, n, base in _groups1d(nd):
        sc = [inp[base + l] ** 2 for l in range(n)]
        x = [sc[(l + 7) % n] for l in range(n)]
        sc = [x[l] - inp[base + l] for l in range(n)]
        for l in range(n):
            out[base + l] = sc[n - 1 - l] + l
    return {"out": out}


def barrier_in_function(a, nd):
    inp = a["in"]
    out = np.zeros(nd.gsize[0], np.int64)
    for grp, n, base in _groups1d(nd):
        buf = [int(inp[base + l]) for l in range(n)]
        acc = [0] * n
        for k in (1, 2, 3):
            buf = [buf[(l + k) % n] for l in range(n)]
            acc = [i32(acc[l] * 7 + buf[l]) for l in range(n)]
        out[base:base + n] = acc
    return {"out": out}


def barrier_dyn_uniform_loop(a, nd):
    out, rounds = [], []
    for grp, n, base in _groups1d(nd):
        x = [int(v) for v in a["in"][base:base + n]]
        done = 0
        while True:
            swaps = 0
            for p in (0, 1):
                for l in range(p, n - 1, 2):
                    if x[l] > x[l + 1]:
                        x[l], x[l + 1] = x[l + 1], x[l]
                        swaps += 1
            done += 1
            if not swaps:
                break
        assert x == sorted(x)
        out.extend(x)
        rounds.append(done)
    return {"out": out, "rounds": rounds}
