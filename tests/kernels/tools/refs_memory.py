"""Python references for tests/kernels/memory/ (address spaces, structs,
private arrays, helper functions, NDRange shapes, non-uniform work-groups,
printf).  Computed independently of Lockstep."""
import zlib

import numpy as np

from simref import (Kernel, buf, rng, fill, scalar, local, null, out, inout, f32,
                    f32bits, bits2f32)
from refs_elementwise import rand_int, s8, u8, s16, u16, s32, u32

CATEGORY = "memory"


def k_constant_table():
    n = 32
    data = rand_int(301, 8 * n, 0, 255)
    weights = [0.5, 1.25, -2.0, 3.5, 0.125, -0.75, 8.0, 1.0]
    crc, wsum = [], []
    for i in range(n):
        chunk = bytes(data[8 * i:8 * i + 8])
        crc.append(zlib.crc32(chunk) & 0xFFFFFFFF)   # standard CRC-32
        acc = 0.0
        for k, b in enumerate(chunk):
            acc += weights[b & 7] * (k + 1)
        wsum.append(acc * weights[i & 7])
    return Kernel("constant_table", "constant_table", (n,), (8,), [
        buf("data", "uchar", data), out("crc", "uint", crc, hexmode=True),
        out("wsum", "float", wsum, exact=True)])


def k_constant_arg():
    n = 64
    x = [v / 4.0 for v in rand_int(302, n, -8, 8)]
    coeffs = [0.5, -1.25, 0.375, 2.0, -0.125, 3.0]
    remap = [3, 14, 0, 9, 7, 12, 1, 15, 5, 10, 2, 8, 13, 4, 11, 6]
    degree = 4
    y, idx = [], []
    for i in range(n):
        v = x[remap[i % 16] + 16 * (i // 16)]
        acc = coeffs[degree]
        for k in range(degree - 1, -1, -1):
            acc = acc * v + coeffs[k]
        y.append(acc)
        idx.append(remap[(i * 7) % 16] * 100 + remap[remap[i % 16]])
    return Kernel("constant_arg", "constant_arg", (n,), (16,), [
        buf("x", "float", x), buf("coeffs", "float", coeffs), buf("remap", "int", remap),
        scalar("degree", "int", degree), out("y", "float", y, exact=True),
        out("idx", "int", idx)])


def k_struct_by_value():
    n = 48
    xs = [v / 8.0 for v in rand_int(303, n, -100, 100)]
    scale, offset, mode, count = 1.5, -0.25, 0, 40
    params = [f32bits(f32(scale)), f32bits(f32(offset)), mode, count]
    tag, sv, v = 7, -300, 123456
    tagged = [tag, 0, sv & 0xFF, (sv >> 8) & 0xFF] + [(v >> (8 * k)) & 0xFF for k in range(4)]
    o, info = [], []
    for i, x in enumerate(xs):
        r = x * scale + offset if mode == 0 else (x - offset) * scale
        o.append(r if i < count else -1.0)
        info.append(tag * 1000000 + sv * 100 + v + i)
    return Kernel("struct_by_value", "struct_by_value", (n,), (16,), [
        buf("in", "float", xs),
        scalar("p", "uint", params, explicit_type=True, hexmode=True),
        scalar("t", "uchar", tagged, explicit_type=True),
        out("out", "float", o, exact=True), out("info", "int", info)],
        comment="p = {scale 1.5f, offset -0.25f, mode 0, count 40} as raw words;\n"
                "t = {tag 7, (pad), s -300, v 123456} as bytes")


def k_struct_array():
    n = 16
    ids = rand_int(304, n, 1, 500)
    pos = [v / 4.0 for v in rand_int(305, 4 * n, -32, 32)]
    tag_a = rand_int(306, n, -30000, 30000)
    tag_b = rand_int(307, n, -5, 5)
    words = []
    for i in range(n):
        w = [ids[i], 0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF]
        w += [f32bits(f32(p)) for p in pos[4 * i:4 * i + 4]]
        w.append(u16(tag_a[i]) | (u8(tag_b[i]) << 16) | (0xAB << 24))
        w += [0x01234567, 0x89ABCDEF, 0xCAFEF00D]
        words += w
    dt = 0.5
    after = list(words)
    dist, meta = [], []
    for i in range(n):
        b = tag_b[i]
        vel = [1.0 * b, -0.5 * b, 0.25 * b, 0.0 * b]
        p = [pos[4 * i + k] + vel[k] * dt for k in range(4)]
        for k in range(4):
            after[12 * i + 4 + k] = f32bits(f32(p[k]))
        a_new = s16(tag_a[i] + ids[i])
        after[12 * i + 8] = (words[12 * i + 8] & 0xFFFF0000) | u16(a_new)
        dist.append(p[0] * p[0] + p[1] * p[1] + p[2] * p[2])
        meta += [48 * 100 + 4, ids[i] * 10 + b]
    return Kernel("struct_array", "struct_array", (n,), (4,), [
        inout("bodies", "uint", words, after, explicit_type=True, hexmode=True, per_line=12),
        scalar("dt", "float", dt),
        out("dist", "float", dist, exact=True), out("meta", "int", meta)],
        comment="bodies: 16 x Body{int id; float4 pos; Tag{short a; char b;} tag;}\n"
                "as 12 raw words each (words 1-3 and the tail are padding)")


def k_private_array():
    n = 32
    m = 8
    data = rand_int(308, m * n, -1000, 1000)
    srt, stats = [], []
    for i in range(n):
        v = data[m * i:m * i + m]
        hist = [0, 0, 0, 0]
        for x in v:
            hist[x & 3] += 1
        pick = [(k + 1) * (i + 1) for k in range(8)]
        s = sorted(v)
        srt += s
        stats += [s[m // 2] + s[m // 2 - 1],
                  hist[0] + 10 * hist[1] + 100 * hist[2] + 1000 * hist[3],
                  pick[i % 8] - pick[(i + 3) & 7], s[-1] - s[0]]
    return Kernel("private_array", "private_array", (n,), (8,), [
        buf("in", "int", data), out("sorted", "int", srt), out("stats", "int", stats)])


def k_helper_functions():
    n = 32
    data = rand_int(309, 6 * n, -50, 50)

    def poly(x):
        return x * x - 3 * x + 7

    o, fo = [], []
    for i in range(n):
        row = data[6 * i:6 * i + 6]
        mn, mx = min(row), max(row)
        a, b = row[0], row[1]
        if a > b:
            a, b = b, a
        loc = [row[5], row[3], row[4], row[2]]
        lo, hi = min(-500, 20 * i), max(-500, 20 * i)
        s = poly(row[0]) * 2 + poly(2) + row[1]
        o += [lo if s < lo else (hi if s > hi else s), mx - mn, a * 1000 + b,
              sum(v * (k + 1) for k, v in enumerate(loc)), lo + hi]
        src = [a, b, mn, mx]
        tgt = [0.0, 8.0, -8.0, 16.0]
        fo += [src[k] + (tgt[k] - src[k]) * 0.25 for k in range(4)]
    return Kernel("helper_functions", "helper_functions", (n,), (8,), [
        buf("in", "int", data), out("out", "int", o), out("fout", "float", fo, exact=True)])


def k_ndrange_2d():
    w = 16
    A = rand_int(310, w * w, -20, 20)
    B = rand_int(311, w * w, -20, 20)
    C, ids = [0] * (w * w), [0] * (w * w)
    for row in range(w):
        for col in range(w):
            C[row * w + col] = sum(A[row * w + k] * B[k * w + col] for k in range(w))
            ids[row * w + col] = (row // 4) * 1000 + (col // 4) * 100 + (row % 4) * 10 \
                + (col % 4) + 4 * 100000 + 4 * 10000000
    return Kernel("ndrange_2d", "ndrange_2d", (w, w), (4, 4), [
        buf("A", "int", A), buf("B", "int", B), out("C", "int", C), out("ids", "int", ids)])


def k_ndrange_3d():
    gs = (8, 4, 4)
    ls = (2, 2, 2)
    total = gs[0] * gs[1] * gs[2]
    gid, grp = [0] * total, [0] * total
    for z in range(gs[2]):
        for y in range(gs[1]):
            for x in range(gs[0]):
                lin = (z * gs[1] + y) * gs[0] + x
                gid[lin] = x * 10000 + y * 100 + z
                grp[lin] = (z // 2) * 10000 + (y // 2) * 1000 + (x // 2) * 100 + \
                    (z % 2) * 16 + (y % 2) * 4 + (x % 2)
    dims = [3, 8 * 10000 + 4 * 100 + 4, 2 * 100 + 2 * 10 + 2, 4 * 100 + 2 * 10 + 2]
    return Kernel("ndrange_3d", "ndrange_3d", gs, ls, [
        out("gid", "int", gid), out("grp", "int", grp), out("dims", "int", dims)])


def k_nonuniform_1d():
    n, lsz = 100, 16
    ngroups = (n + lsz - 1) // lsz
    xs = [0.5 * k for k in range(n)]
    o, info = [], [0] * (n + ngroups)
    for i in range(n):
        g = i // lsz
        actual = min(lsz, n - g * lsz)
        o.append(xs[i] * 2.0 + actual)
        info[i] = actual * 10000 + g * 100 + i % lsz
    for g in range(ngroups):
        info[n + g] = ngroups * 10000 + lsz * 100 + n % 100
    return Kernel("nonuniform_1d", "nonuniform_1d", (n,), (lsz,), [
        rng("in", "float", 0, 0.5, 49.5), out("out", "float", o, exact=True),
        out("info", "int", info)],
        comment="global size 100 is not a multiple of the local size 16 (OpenCL 2.0+\n"
                "non-uniform work-groups): the last group has 4 work-items")


def k_nonuniform_2d():
    gw, gh, lw, lh = 10, 7, 4, 4
    data = rand_int(312, gw * gh, -100, 100)
    ngx, ngy = (gw + lw - 1) // lw, (gh + lh - 1) // lh
    sums = [0] * (ngx * ngy)
    sizes = [0] * (gw * gh)
    for y in range(gh):
        for x in range(gw):
            gx, gy = x // lw, y // lh
            aw = min(lw, gw - gx * lw)
            ah = min(lh, gh - gy * lh)
            sums[gy * ngx + gx] += data[y * gw + x]
            sizes[y * gw + x] = aw * 10 + ah
    return Kernel("nonuniform_2d", "nonuniform_2d", (gw, gh), (lw, lh), [
        buf("in", "int", data), local("scratch", 4 * lw * lh),
        out("sums", "int", sums), out("sizes", "int", sizes)],
        comment="global 10x7 with local 4x4: 3x2 groups, partial groups on the\n"
                "right column (width 2) and the bottom row (height 3)")


def k_printf_basic():
    n = 32
    data = rand_int(313, n, -1000, 1000)
    data[5] = 1234
    lines = [
        "gid=%d lid=%d grp=%d" % (5, 5 % 4, 5 // 4),
        "int: %d %i %u %x %X %o [%5d] [%-5d] [%05d] [%+d]" % (
            -42, data[5], 4000000000, 255, 48879, 8, 7, 7, 7, 9),
        "float: %f %.3f %e %g %G [%10.4f] %.0f" % (
            float(f32(1.5)), float(f32(3.14159)), float(f32(12345.678)), float(f32(0.0001)),
            float(f32(1e-10)), float(f32(-2.5)), float(f32(2.5))),
        "char: %c%c%c str: %s [%8s]" % ("O", "K", "!", "hello", "pad"),
        "long: %d %d %x" % (-1234567890123, 18446744073709551615, 0xdeadbeefcafe),
        "percent: 100%",
        "vec: %s | %s | %s" % (",".join("%d" % v for v in (1, 2, 3, 4)),
                               ",".join("%f" % v for v in (0.5, -1.25)),
                               ",".join("%d" % v for v in (-1, 2, -3, 4))),
    ]
    return Kernel("printf_basic", "printf_basic", (n,), (4,), [
        buf("in", "int", data), out("out", "int", [v * 3 - 1 for v in data])],
        printf=lines)


def k_printf_size_t():
    n = 16
    big = 5 << 33
    lines = [
        "size_t: %d %d %x %X %o [%12d] [%-6d] [%06d]" % (big, 3, big, 0xABCDEF, 8, big, 3, 3),
        "ptrdiff_t: %d %i %+d [%5d] %u %x" % (-3, 7, 2, -3, 9, (1 << 64) - 1),
    ]
    return Kernel("printf_size_t", "printf_size_t", (n,), (4,), [
        fill("in", "int", 5, n), out("out", "long", [i - 7 for i in range(n)])],
        printf=lines)


def k_printf_loop():
    n = 24
    data = [0.25 * v for v in rand_int(314, n, -20, 40)]
    names = ["alpha", "beta", "gamma", "delta"]
    lines = []
    total = np.float32(0.0)
    for k in range(6):
        total = np.float32(total + np.float32(data[k]))
        lines.append("%d %s in=%.2f total=%.3f" % (k, names[k & 3][:3], data[k], float(total)))
    if total > 10.0:
        lines.append("big total %g" % float(total))
    else:
        lines.append("small total %g" % float(total))
    lines.append("done by %d of %d" % (n - 1, n))
    return Kernel("printf_loop", "printf_loop", (n,), (8,), [
        buf("in", "float", data), out("out", "float", [v * v for v in data], exact=True)],
        printf=lines)


def k_local_stencil():
    n, lsz = 64, 16
    data = [v / 4.0 for v in rand_int(315, n, -40, 40)]
    o = []
    for g in range(n):
        a = data[max(g - 1, 0)]
        c = data[min(g + 1, n - 1)]
        o.append(0.25 * a + 0.5 * data[g] + 0.25 * c)
    return Kernel("local_stencil", "local_stencil", (n,), (lsz,), [
        buf("in", "float", data), local("tile", 4 * (lsz + 2)),
        out("out", "float", o, exact=True), scalar("n", "int", n)])


def k_pointer_arith():
    n = 16
    words = rand_int(316, 4 * n, -2**31, 2**31 - 1)
    keys = rand_int(317, n, -100, 100)
    vals = rand_int(318, n, -1000, 1000)
    pairs = []
    for k, v in zip(keys, vals):
        pairs += [k, v]
    after = list(pairs)
    o = []
    for i in range(n):
        w = [u32(x) for x in words[4 * i:4 * i + 4]]
        b0 = w[0] & 0xFF
        b1 = (w[0] >> 8) & 0xFF
        b3 = (w[0] >> 24) & 0xFF
        after[2 * i + 1] = vals[i] + keys[i]
        o += [s32(b0 + (b1 << 8) + (b3 << 24)), s32(w[1] - w[0]), 2 * 100 + 4,
              s32(sum(w)), 4 + keys[i] * 10]
    return Kernel("pointer_arith", "pointer_arith", (n,), (4,), [
        buf("words", "int", words),
        inout("pairs", "int", pairs, after, explicit_type=True),
        out("out", "int", o)])


def k_constant_structs():
    n = 32
    mats = [(1.0, 2.5, 1, 100), (7.75, 0.5, 2, 101), (2.5, 10.0, 3, 102),
            (0.125, 4.0, 4, 103), (19.25, 64.0, 5, 104), (0.5, 1.0, 6, 105)]
    kind = rand_int(319, n, 0, 100)
    vol = [v / 4.0 for v in rand_int(320, n, 0, 200)]
    mass, tags = [], []
    for i in range(n):
        k = kind[i] % 6
        d, c, fl, mid = mats[k]
        v = vol[i] * 0.25
        mass += [d * v, c * v + mats[(k + 1) % 6][1]]
        tags.append(mid * 100 + (fl << 4) + k)
    return Kernel("constant_structs", "constant_structs", (n,), (8,), [
        buf("kind", "int", kind), buf("vol", "float", vol),
        out("mass", "float", mass, exact=True), out("tags", "int", tags)])


def k_build_options():
    n = 32
    taps, scale = 5, 3
    data = rand_int(321, n, -100, 100)
    bias = rand_int(322, n, -10, 10)
    o = []
    for i in range(n):
        acc = sum(data[(i + t) % n] * (t + 1) for t in range(taps))
        o.append((acc + bias[i]) * scale)
    return Kernel("build_options", "build_options", (n,), (8,), [
        buf("in", "int", data, flags=["ro"]), buf("bias", "int", bias, flags=["ro"]),
        null("extra"), out("out", "int", o, flags=["wo"])],
        options="-D TAPS=5 -D SCALE=3",
        comment="extra is a null buffer; TAPS and SCALE come from build_options.options")


def k_strided_access():
    n = 100
    pairs = rand_int(340, 2 * n, -1000, 1000)
    triples = [float(v) for v in rand_int(341, 3 * n, -100, 100)]
    quads = [float(v) for v in rand_int(342, 4 * n, -100, 100)]
    pair_out = [-1] * (2 * n)
    triple_out = [7.0] * (3 * n)
    quad_out = [9.0] * (4 * n)
    for i in range(n):
        if i % 5 == 3:
            continue
        a, b = pairs[2 * i], pairs[2 * i + 1]
        pair_out[2 * i], pair_out[2 * i + 1] = a + b, a - b
        x, y, z = triples[3 * i:3 * i + 3]
        triple_out[3 * i + 1] = x * y + z
        q = quads[4 * i:4 * i + 4]
        quad_out[4 * i + 2] = q[0] + 2 * q[1] + 3 * q[2] + 4 * q[3]
    return Kernel("strided_access", "strided_access", (n,), (20,), [
        buf("pairs", "int", pairs, explicit_type=True),
        buf("triples", "double", triples, explicit_type=True),
        buf("quads", "float", quads, explicit_type=True),
        out("pair_out", "int", pair_out, init="fill", fill_value=-1, explicit_type=True),
        out("triple_out", "double", triple_out, init="fill", fill_value=7.0,
            explicit_type=True, exact=True),
        out("quad_out", "float", quad_out, init="fill", fill_value=9.0,
            explicit_type=True, exact=True)])


def k_interleaved_after_barrier():
    n, group, rounds = 96, 32, 2
    pairs = rand_int(343, 2 * n, -1000, 1000)
    data = [pairs[2 * g] - pairs[2 * g + 1] for g in range(n)]
    out_ = [-1] * (2 * n)
    swapped = [-1] * (2 * n)
    for base in range(0, n, group):
        t = data[base:base + group]
        for _ in range(rounds):
            t = [t[l] + t[(l + 1) % group] for l in range(group)]
        for l in range(group):
            g = base + l
            x = t[l]
            y = t[l] - t[(l + 31) % group]
            if g % 4 != 3:
                out_[2 * g], out_[2 * g + 1] = x, y
                swapped[2 * g + 1], swapped[2 * g] = x, y
    return Kernel("interleaved_after_barrier", "interleaved_after_barrier", (n,), (group,), [
        buf("in", "int", pairs, explicit_type=True),
        out("out", "int", out_, init="fill", fill_value=-1, explicit_type=True),
        out("swapped", "int", swapped, init="fill", fill_value=-1, explicit_type=True),
        scalar("rounds", "int", rounds)])


def k_divergent_gather_scatter():
    n, dist, group = 45, 3, 16
    size = 2 * n + 2 * dist
    data = rand_int(344, size, 0, 1000)
    bytes_ = rand_int(345, 61, 0, 255)
    table = [v / 8.0 for v in rand_int(346, 32, -400, 400)]
    out_data = list(data)
    gathered, picked = [], []
    for t in range(n):
        lo = (t // dist) * 2 * dist + t % dist
        hi = lo + dist
        a, b = data[lo], data[hi]
        if a > b:
            out_data[lo], out_data[hi] = b, a
        g = -1.0
        if bytes_[t % 61] & 1:
            g = float(f32(table[bytes_[(t * 7) % 61] & 31] + bytes_[(t * 5) % 61]))
        gathered.append(g)
        slots = [100 + i for i in range(8)]
        if a & 1:
            slots[b & 7] = a
        picked.append(slots[a & 7] + slots[(a >> 3) & 7])
    padded = n + (-n) % group
    return Kernel("divergent_gather_scatter", "divergent_gather_scatter", (padded,), (group,), [
        inout("data", "uint", data, out_data),
        buf("bytes", "uchar", bytes_),
        buf("table", "float", table),
        out("gathered", "float", gathered + [7.0] * (padded - n), init="fill",
            fill_value=7.0, exact=True),
        out("picked", "uint", picked + [9] * (padded - n), init="fill", fill_value=9),
        scalar("dist", "uint", dist),
        scalar("n", "uint", n)])
