"""Independent Python references for tests/kernels/local/.

These compute what each kernel means (a sum, a prefix sum, a transpose, a
product, a sorted sequence...) with numpy, not how the kernel computes it.
"""
import numpy as np

from gen_refs_sync import cmod, i32


def _chunks(arr, n):
    arr = np.asarray(arr, np.int64)
    return [arr[i:i + n] for i in range(0, len(arr), n)]


def reduce_tree(a, nd):
    ch = _chunks(a["in"], nd.lsize[0])
    return {"sums": [int(c.sum()) for c in ch], "maxs": [int(c.max()) for c in ch]}


def reduce_local_arg(a, nd):
    ch = _chunks(a["in"], nd.lsize[0])
    return {"sums": [i32(c.sum()) for c in ch], "sqsums": [int((c * c).sum()) for c in ch]}


def scan_hillis_steele(a, nd):
    return {"out": np.concatenate([np.cumsum(c) for c in _chunks(a["in"], nd.lsize[0])])}


def scan_blelloch(a, nd):
    n = 2 * nd.lsize[0]
    ch = _chunks(a["in"], n)
    out = np.concatenate([np.concatenate([[0], np.cumsum(c)[:-1]]) for c in ch])
    return {"out": out, "totals": [int(c.sum()) for c in ch]}


def transpose_tile(a, nd):
    w, h = a["width"], a["height"]
    m = np.asarray(a["in"], np.int64).reshape(h, w)
    return {"out": m.T.reshape(-1)}


def matmul_tile8(a, nd):
    M, N, K = a["M"], a["N"], a["K"]
    A = np.asarray(a["A"], np.int64).reshape(M, K)
    B = np.asarray(a["B"], np.int64).reshape(K, N)
    return {"C": (A @ B).reshape(-1)}


def matmul_tile16(a, nd):
    M, N, K = a["M"], a["N"], a["K"]
    A = np.asarray(a["A"], np.int64).reshape(M, K)
    B = np.asarray(a["B"], np.int64).reshape(K, N)
    C = A @ B
    return {"C_top": C[:16].reshape(-1), "C_bot": C[16:].reshape(-1)}


def stencil_halo(a, nd):
    x = np.asarray(a["in"], np.int64)
    n = a["n"]
    p = np.concatenate([[x[0]] * 2, x, [x[n - 1]] * 2])
    out = p[0:n] - 2 * p[1:n + 1] + 5 * p[2:n + 2] - 2 * p[3:n + 3] + p[4:n + 4]
    return {"out": out}


def bitonic_local(a, nd):
    out = []
    for g, c in enumerate(_chunks(a["in"], nd.lsize[0])):
        s = sorted(int(v) for v in c)
        out.extend(s if g % 2 == 0 else s[::-1])
    return {"out": out}


def local_args_mixed(a, nd):
    out = []
    for c in _chunks(a["in"], nd.lsize[0]):
        n = len(c)
        flags = [1 if cmod(int(v), 3) == 0 else 0 for v in c]
        total = sum(int(v) for v, f in zip(c, flags) if f)
        out.extend(int(c[(l + 1) % n]) + total * flags[l] for l in range(n))
    return {"out": out}


def local_2d_blur(a, nd):
    W, H = a["W"], a["H"]
    img = np.asarray(a["img"], np.int64).reshape(H, W)
    pad = np.pad(img, 1, mode="edge")
    out = np.zeros_like(img)
    for dy in range(3):
        for dx in range(3):
            wgt = 4 if (dx, dy) == (1, 1) else 1
            out += wgt * pad[dy:dy + H, dx:dx + W]
    return {"out": out.reshape(-1)}


def local_compact(a, nd):
    out, counts = [], []
    for c in _chunks(a["in"], nd.lsize[0]):
        kept = [int(v) for v in c if cmod(int(v), 4) == 1 or v > 80]
        counts.append(len(kept))
        out.extend(kept + [-1] * (len(c) - len(kept)))
    return {"out": out, "counts": counts}


def local_reverse_uchar(a, nd):
    out = []
    for c in _chunks(a["in"], nd.lsize[0]):
        n = len(c)
        out.extend((int(c[n - 1 - l]) + l * 7) % 256 for l in range(n))
    return {"out": out}
