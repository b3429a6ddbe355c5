#!/usr/bin/env python3
"""Write the .ref files of the synchronisation / control-flow kernel categories
(control, barrier, local, atomics) from independent Python references.

    python3 tests/kernels/tools/gen_refs_sync.py            # write all .ref files
    python3 tests/kernels/tools/gen_refs_sync.py control    # one category
    python3 tests/kernels/tools/gen_refs_sync.py --pocl     # also run every kernel
                                                            # on PyOpenCL and compare
    python3 tests/kernels/tools/gen_refs_sync.py --only NAME ...

Each category has a module `refs_<category>.py` with one function per kernel,
`def NAME(a, nd)` (or `def NAME(a, nd, W)` for a kernel whose results depend
on the subgroup size W: its .ref then has a `WIDTH w` section per width),
where `a` maps every kernel argument name to its parsed .sim
value (a numpy array for buffers -- already initialised as the .sim says --, a
Python number for scalars, the byte size for __local arguments) and `nd` holds
the NDRange (`nd.gsize`, `nd.lsize`, `nd.groups`).  The function returns a dict
{argument name: numpy array} holding the final contents of every dumped buffer.
It must compute them from the algorithm's meaning (never from Lockstep's
output).  This script parses the .sim (the inputs), calls the function and
prints the buffers exactly as oclgrind-kernel does.
"""
import argparse
import importlib
import inspect
import os
import re
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
KDIR = os.path.dirname(HERE)
CATEGORIES = ["control", "barrier", "local", "atomics", "subgroups", "pipes"]
# Subgroup sizes: a reference function with a third parameter (the subgroup
# size W) gets a `WIDTH w` section of the .ref for each.
WIDTHS = (4, 8, 16, 32)

TYPES = {
    "char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
    "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
    "float": np.float32, "double": np.float64,
}
# OpenCL spellings that map onto the base types above
ALIASES = {"unsigned char": "uchar", "unsigned short": "ushort", "unsigned int": "uint",
           "unsigned long": "ulong", "unsigned": "uint", "size_t": "ulong",
           "atomic_int": "int", "atomic_uint": "uint", "atomic_long": "long",
           "atomic_ulong": "ulong", "atomic_float": "float"}


# --------------------------------------------------------------------------
# fixed-width integer helpers for the references
def i32(x):
    return ((int(x) + (1 << 31)) & 0xFFFFFFFF) - (1 << 31)


def u32(x):
    return int(x) & 0xFFFFFFFF


def i64(x):
    return ((int(x) + (1 << 63)) & 0xFFFFFFFFFFFFFFFF) - (1 << 63)


def u64(x):
    return int(x) & 0xFFFFFFFFFFFFFFFF


def cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def cmod(a, b):
    return a - b * cdiv(a, b)


def f32(x):
    return np.float32(x)


# --------------------------------------------------------------------------
class NDRange:
    def __init__(self, gsize, lsize):
        self.gsize = tuple(gsize)
        self.lsize = tuple(lsize)
        self.groups = tuple(g // l for g, l in zip(gsize, lsize))

    def items(self):
        """All work-items as (gid, lid, grp) triples of 3-tuples, x fastest."""
        for gz in range(self.gsize[2]):
            for gy in range(self.gsize[1]):
                for gx in range(self.gsize[0]):
                    g = (gx, gy, gz)
                    lid = tuple(g[d] % self.lsize[d] for d in range(3))
                    grp = tuple(g[d] // self.lsize[d] for d in range(3))
                    yield g, lid, grp

    def group_ids(self):
        for z in range(self.groups[2]):
            for y in range(self.groups[1]):
                for x in range(self.groups[0]):
                    yield (x, y, z)

    def local_ids(self):
        for z in range(self.lsize[2]):
            for y in range(self.lsize[1]):
                for x in range(self.lsize[0]):
                    yield (x, y, z)


# --------------------------------------------------------------------------
# .cl signature parsing (argument names, address spaces, element types)
class KArg:
    def __init__(self, name, base, space, pointer):
        self.name, self.base, self.space, self.pointer = name, base, space, pointer

    def __repr__(self):
        return "KArg(%s %s %s%s)" % (self.space, self.base, self.name, "*" if self.pointer else "")


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", " ", src)


def kernel_args(src, kname):
    src = strip_comments(src)
    m = re.search(r"(?:__kernel|\bkernel)\s+(?:__attribute__\s*\(\(.*?\)\)\s*)?void\s+" + re.escape(kname) + r"\s*\(([^)]*)\)", src, flags=re.S)
    if not m:
        raise ValueError("kernel %s not found" % kname)
    args = []
    body = m.group(1).strip()
    if body in ("", "void"):
        return args
    for part in body.split(","):
        toks = part.replace("*", " * ").split()
        pointer = "*" in toks
        name = toks[-1]
        if "pipe" in toks:
            # `read_only pipe int in`: its packets' type; holds packets
            words = [t for t in toks[:-1] if t not in ("pipe", "const", "read_only", "write_only",
                                                       "__read_only", "__write_only")]
            tname = " ".join(words)
            args.append(KArg(name, ALIASES.get(tname, tname), "pipe", False))
            continue
        space = "private"
        for t in toks:
            t2 = t.lstrip("_")
            if t2 in ("global", "local", "constant"):
                space = t2
        words = [t for t in toks[:-1] if t not in ("*", "const", "__const", "volatile", "restrict",
                                                     "__restrict", "__global", "global", "__local", "local",
                                                     "__constant", "constant", "__read_only", "__write_only")]
        tname = " ".join(words)
        tname = ALIASES.get(tname, tname)
        args.append(KArg(name, tname, space if pointer else "private", pointer))
    return args


# --------------------------------------------------------------------------
# .sim parsing (oclgrind-kernel format)
class SimArg:
    def __init__(self, karg):
        self.karg = karg
        self.name = karg.name
        self.size = None
        self.dtype = None
        self.dump = False
        self.hex = False
        self.null = False
        self.ro = self.wo = False
        self.same = None       # a pipe argument given again: the index of the first
        self.value = None      # np array (buffers), python scalar (scalars), int bytes (__local)


class Sim:
    pass


def _tokens(text):
    out = []
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        out.extend(line.split())
    return out


def _num(tok, dtype, hexmode=False):
    if np.issubdtype(dtype, np.floating):
        return dtype(float(tok))
    v = int(tok, 16) if hexmode else int(tok, 0) if tok.lower().startswith(("0x", "-0x")) else int(tok)
    info = np.iinfo(dtype)
    if not (info.min <= v <= info.max):
        # oclgrind reads with iostream: out-of-range ints are errors; wrap loudly
        raise ValueError("value %s out of range for %s" % (tok, dtype))
    return dtype(v)


def parse_sim(path):
    text = open(path).read()
    # headers may contain spaces: pull them out first
    pieces = re.split(r"(<[^>]*>)", "\n".join(l.split("#", 1)[0] for l in text.splitlines()))
    toks = []
    for p in pieces:
        if p.startswith("<"):
            toks.append(p)
        else:
            toks.extend(p.split())
    s = Sim()
    s.path = path
    s.dir = os.path.dirname(os.path.abspath(path))
    s.clfile = os.path.join(s.dir, toks[0])
    s.kernel = toks[1]
    s.gsize = tuple(int(t) for t in toks[2:5])
    s.lsize = tuple(int(t) for t in toks[5:8])
    s.src = open(s.clfile).read()
    optf = os.path.splitext(path)[0] + ".options"
    s.options = open(optf).read().strip() if os.path.exists(optf) else ""
    kargs = kernel_args(s.src, s.kernel)
    pos = 8
    s.args = []
    for ka in kargs:
        hdr = toks[pos]
        pos += 1
        if not hdr.startswith("<"):
            raise ValueError("%s: expected header for %s, got %s" % (path, ka.name, hdr))
        a = SimArg(ka)
        fill = rng = None
        noinit = False
        for t in hdr[1:-1].split():
            if t in TYPES:
                a.dtype = np.dtype(TYPES[t]).type
            elif t.startswith("size="):
                a.size = int(t[5:])
            elif t.startswith("fill="):
                fill = t[5:]
            elif t.startswith("range="):
                rng = t[6:]
            elif t == "dump":
                a.dump = True
            elif t == "hex":
                a.hex = True
            elif t == "null":
                a.null = True
            elif t == "noinit":
                noinit = True
            elif t == "ro":
                a.ro = True
            elif t == "wo":
                a.wo = True
            elif t.startswith(("capacity=", "packet=")):
                pass  # a pipe's shape: the references know it
            elif t.startswith("same="):
                a.same = int(t[5:])
            else:
                raise ValueError("%s: unknown header token %s" % (path, t))
        if a.same is not None:
            a.value = None
            s.args.append(a)
            continue
        if a.dtype is None:
            a.dtype = np.dtype(TYPES[ka.base.rstrip("0123456789")]).type
        if ka.space == "local":
            a.value = a.size
        elif a.null:
            a.value = None
        else:
            esz = np.dtype(a.dtype).itemsize
            n = a.size // esz
            assert n * esz == a.size, (path, ka.name)
            if fill is not None:
                arr = np.full(n, _num(fill, a.dtype, a.hex), dtype=a.dtype)
            elif rng is not None:
                st, inc, en = (_num(x, a.dtype, a.hex) for x in rng.split(":"))
                cnt = (float(en) - float(st) + float(inc)) / float(inc)
                assert cnt == int(cnt) and int(cnt) == n, "%s: range gives %s elements, size needs %d" % (path, cnt, n)
                arr = np.array([st + a.dtype(i) * inc for i in range(n)], dtype=a.dtype) if n else np.zeros(0, a.dtype)
            elif noinit:
                arr = np.zeros(n, dtype=a.dtype)
            else:
                vals = []
                for _ in range(n):
                    vals.append(_num(toks[pos], a.dtype, a.hex))
                    pos += 1
                arr = np.array(vals, dtype=a.dtype)
            if ka.pointer or ka.space == "pipe":
                a.value = arr
            else:
                a.value = arr[0].item() if n == 1 else arr
        s.args.append(a)
    if pos != len(toks):
        raise ValueError("%s: trailing tokens %s" % (path, toks[pos:pos + 5]))
    return s


# --------------------------------------------------------------------------
# output formatting (C++ iostream defaults)
def fmt_value(v, dtype, hexmode=False):
    dt = np.dtype(dtype)
    if hexmode and dt.kind in "iu":
        bits = dt.itemsize * 8
        return "0x%0*x" % (dt.itemsize * 2, int(v) & ((1 << bits) - 1))
    if dt.kind == "f":
        x = float(v)
        if x != x:
            raise ValueError("NaN output")
        s = "%g" % x
        return s
    return str(int(v))


def float_is_robust(v, dtype, ulps=4):
    """The %g string must not change when the value moves by +-ulps ulp."""
    dt = np.dtype(dtype)
    x = dt.type(v)
    s = fmt_value(x, dt)
    y = x
    z = x
    for _ in range(ulps):
        y = np.nextafter(y, dt.type(np.inf))
        z = np.nextafter(z, dt.type(-np.inf))
        if fmt_value(y, dt) != s or fmt_value(z, dt) != s:
            return False
    return True


def dump_lines(name, arr, dtype, hexmode=False):
    arr = np.asarray(arr)
    dt = np.dtype(dtype)
    out = ["Argument '%s': %d bytes" % (name, arr.size * dt.itemsize)]
    for i, v in enumerate(arr.reshape(-1)):
        out.append("  %s[%d] = %s" % (name, i, fmt_value(v, dt, hexmode)))
    return out


def takes_width(fn):
    return len(inspect.signature(fn).parameters) == 3


def reference_dumps(sim, module, width=None):
    fn = getattr(module, sim.kernel_func)
    a = {}
    for arg in sim.args:
        v = arg.value
        a[arg.name] = v.copy() if isinstance(v, np.ndarray) else v
    nd = NDRange(sim.gsize, sim.lsize)
    res = fn(a, nd) if width is None else fn(a, nd, width)
    lines = []
    for arg in sim.args:
        if not arg.dump:
            continue
        if arg.name not in res:
            raise ValueError("%s: reference did not return dumped buffer %s" % (sim.path, arg.name))
        r = res[arg.name]
        # never let numpy guess a dtype for Python ints (it falls back to float64)
        vals = r.reshape(-1).tolist() if isinstance(r, np.ndarray) else list(r)
        # a pipe prints the packets left in it, however many
        if arg.karg.space != "pipe" and len(vals) * np.dtype(arg.dtype).itemsize != arg.size:
            raise ValueError("%s: %s has %d elements, expected %d bytes" % (sim.path, arg.name, len(vals), arg.size))
        # convert with explicit range checks (references wrap explicitly)
        if np.dtype(arg.dtype).kind in "iu":
            info = np.iinfo(arg.dtype)
            for x in vals:
                if isinstance(x, float) or not (info.min <= int(x) <= info.max):
                    raise ValueError("%s: %s value %r is not an integer of %s" % (sim.path, arg.name, x, np.dtype(arg.dtype)))
            arr = np.array([int(x) for x in vals], dtype=arg.dtype)
        else:
            arr = np.array(vals, dtype=arg.dtype)
            for x in arr:
                if not float_is_robust(x, arg.dtype):
                    raise ValueError("%s: %s value %r is not robust under +-4 ulp" % (sim.path, arg.name, x))
        lines.append((arg.name, arr, arg.dtype, arg.hex))
    for name in res:
        if name not in [x[0] for x in lines]:
            raise ValueError("%s: reference returned %s which is not dumped" % (sim.path, name))
    return lines


def ref_text(dumps):
    out = []
    for name, arr, dt, hx in dumps:
        out.extend("EXACT " + l for l in dump_lines(name, arr, dt, hx))
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# optional: run on a real OpenCL implementation (PyOpenCL / pocl)
_ctx = None


def run_opencl(sim):
    global _ctx
    import pyopencl as cl
    if _ctx is None:
        _ctx = cl.create_some_context(interactive=False)
    ctx = _ctx
    q = cl.CommandQueue(ctx)
    if any(arg.karg.space == "pipe" for arg in sim.args):
        raise ValueError("pipe arguments are not run on PyOpenCL by this script")
    opts = sim.options.split() if sim.options else ["-cl-std=CL3.0"]
    prg = cl.Program(ctx, sim.src).build(options=opts)
    k = getattr(prg, sim.kernel)
    mf = cl.mem_flags
    bufs = []
    for i, arg in enumerate(sim.args):
        ka = arg.karg
        if ka.space == "local":
            k.set_arg(i, cl.LocalMemory(arg.size))
        elif ka.pointer:
            if arg.null:
                k.set_arg(i, None)
            else:
                host = np.array(arg.value, dtype=arg.dtype)
                b = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host) if host.size else cl.Buffer(ctx, mf.READ_WRITE, 4)
                k.set_arg(i, b)
                bufs.append((arg, host, b))
        else:
            k.set_arg(i, arg.dtype(arg.value))
    cl.enqueue_nd_range_kernel(q, k, sim.gsize, sim.lsize)
    out = []
    for arg, host, b in bufs:
        if arg.dump:
            cl.enqueue_copy(q, host, b)
            out.append((arg.name, host.copy(), arg.dtype, arg.hex))
    q.finish()
    return out


def sims_of(cat):
    d = os.path.join(KDIR, cat)
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".sim"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("categories", nargs="*", default=CATEGORIES)
    ap.add_argument("--pocl", action="store_true", help="also run on PyOpenCL and compare")
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    sys.path.insert(0, HERE)
    nfail = 0
    nok = 0
    for cat in args.categories:
        mod = importlib.import_module("refs_" + cat)
        for sp in sims_of(cat):
            name = os.path.splitext(os.path.basename(sp))[0]
            if args.only and name not in args.only:
                continue
            sim = parse_sim(sp)
            sim.kernel_func = name if hasattr(mod, name) else sim.kernel
            try:
                if takes_width(getattr(mod, sim.kernel_func)):
                    text = "".join("WIDTH %d\n" % w + ref_text(reference_dumps(sim, mod, w))
                                   for w in WIDTHS)
                    dumps = None
                else:
                    dumps = reference_dumps(sim, mod)
                    text = ref_text(dumps)
            except Exception as e:
                print("REFERR %s/%s: %s" % (cat, name, e))
                nfail += 1
                continue
            if not args.no_write:
                with open(os.path.splitext(sp)[0] + ".ref", "w") as f:
                    f.write(text)
            status = "ref"
            if args.pocl and dumps is not None:
                try:
                    got = ref_text(run_opencl(sim))
                except Exception as e:
                    got = "ERROR %s" % str(e)[-2000:]
                if got == text:
                    status = "pocl-ok"
                else:
                    status = "POCL-MISMATCH"
                    nfail += 1
                    exp_l = text.splitlines()
                    got_l = got.splitlines()
                    for i in range(max(len(exp_l), len(got_l))):
                        e = exp_l[i] if i < len(exp_l) else "<none>"
                        g = got_l[i] if i < len(got_l) else "<none>"
                        if e != g:
                            print("   first diff line %d: ref %r  pocl %r" % (i, e, g))
                            break
            if status != "POCL-MISMATCH":
                nok += 1
            print("%-14s %s/%s" % (status, cat, name))
    print("%d ok, %d failed" % (nok, nfail))
    sys.exit(1 if nfail else 0)


if __name__ == "__main__":
    main()
