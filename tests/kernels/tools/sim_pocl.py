#!/usr/bin/env python3
"""Run oclgrind-kernel style .sim files on a real OpenCL implementation
(PyOpenCL, typically pocl) and print the result exactly as oclgrind-kernel
prints it, or check a directory of .sim files against their .ref files.

Usage:
    sim_pocl.py FILE.sim                 print printf output + dumped buffers
    sim_pocl.py --check DIR [--strict]   run every .sim under DIR, compare with
                                         the EXACT lines of NAME.ref
    sim_pocl.py --check FILE.sim ...     same, for individual files

.sim format (see /work/shared/ARCHITECTURE.md): program file, kernel name,
global size xyz, local size xyz, then one <...> header per kernel argument
(size=, element type, fill=V | range=START:INC:END | noinit | explicit values,
dump, hex, ro, wo, null; __local args: size only; scalar args: their values).
NAME.options beside the .sim holds build options (default -cl-std=CL3.0, the
Lockstep default, is added unless the options name a -cl-std).

Checking: by default every EXACT line must appear in the output in order
(extra output lines are allowed, as in oclgrind's test runner); with --strict
the non-blank output lines must equal the EXACT lines exactly.  .ref files
containing ERROR lines describe diagnostics pocl cannot reproduce; they are
reported as skipped.

Non-uniform work-groups (global size not a multiple of the local size) are not
supported by pocl 3.x, so they are emulated: the NDRange is split into up to
8 uniform launches using global offsets, and the work-item functions whose
value would differ (get_global_size, get_num_groups, get_group_id,
get_local_id, get_enqueued_local_size) are redefined by macros prepended to
the source so that the kernel sees the true non-uniform NDRange.
"""
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

os.environ.setdefault("PYOPENCL_NO_CACHE", "1")
import warnings  # noqa: E402

warnings.filterwarnings("ignore")

TYPES = {
    "char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16,
    "int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64,
    "float": np.float32, "double": np.float64,
}
# oclgrind's prefix order for default types from the kernel argument type name
PREFIX_ORDER = ["char", "uchar", "short", "ushort", "int", "uint", "long",
                "ulong", "float", "double"]

ADDR_GLOBAL, ADDR_LOCAL, ADDR_CONSTANT, ADDR_PRIVATE = 0x119B, 0x119C, 0x119D, 0x119E

SCALAR_SIZES = {"char": 1, "uchar": 1, "bool": 1, "short": 2, "ushort": 2,
                "half": 2, "int": 4, "uint": 4, "float": 4, "long": 8,
                "ulong": 8, "double": 8, "size_t": 8, "ptrdiff_t": 8,
                "intptr_t": 8, "uintptr_t": 8}


class SimError(Exception):
    pass


# ---------------------------------------------------------------- tokenizer
class Reader:
    """Line-based reader emulating oclgrind's Simulation::get()."""

    def __init__(self, text):
        self.lines = []
        for line in text.split("\n"):
            c = line.find("#")
            if c >= 0:
                line = line[:c]
            self.lines.append(line)
        self.li = 0
        self.col = 0

    def _skip_ws(self):
        while self.li < len(self.lines):
            line = self.lines[self.li]
            while self.col < len(line) and line[self.col].isspace():
                self.col += 1
            if self.col < len(line):
                return True
            self.li += 1
            self.col = 0
        return False

    def token(self, what):
        if not self._skip_ws():
            raise SimError("Unexpected EOF when parsing %s" % what)
        line = self.lines[self.li]
        start = self.col
        while self.col < len(line) and not line[self.col].isspace():
            self.col += 1
        return line[start:self.col]

    def header(self, what):
        if not self._skip_ws():
            raise SimError("Unexpected EOF when parsing %s" % what)
        line = self.lines[self.li]
        if line[self.col] != "<":
            raise SimError("Line %d: Expected argument header <...> (%s)"
                           % (self.li + 1, what))
        rest = line[self.col + 1:]
        end = rest.rfind(">")
        if end < 0:
            raise SimError("Line %d: Missing '>' at end of argument header"
                           % (self.li + 1))
        self.col += 1 + end + 1
        return rest[:end]

    def at_eof(self):
        return not self._skip_ws()


# ---------------------------------------------------------------- values
def parse_int(tok, T, hexmode):
    base = 16 if hexmode else 10
    try:
        v = int(tok, base)
    except ValueError:
        raise SimError("Failed to parse integer value '%s'" % tok)
    info = np.iinfo(T)
    if np.dtype(T).itemsize == 1:
        # oclgrind reads an int and checks that it fits the (u)char
        if v < info.min or v > info.max:
            raise SimError("Invalid char value '%s'" % tok)
        return T(v)
    if info.min == 0 and v < 0 and v >= -(info.max):
        # istream >> unsigned accepts a minus sign (strtoul semantics)
        return T(v & int(info.max))
    if v < info.min or v > info.max:
        raise SimError("Integer value out of range '%s'" % tok)
    return T(v)


def parse_value(tok, T, hexmode):
    if T in (np.float32, np.float64):
        try:
            if T == np.float32:
                return np.float32(float(tok))
            return np.float64(float(tok))
        except ValueError:
            raise SimError("Failed to parse float value '%s'" % tok)
    return parse_int(tok, T, hexmode)


def make_range(spec, T, size, hexmode):
    parts = spec.split(":")
    if len(parts) != 3:
        raise SimError("Invalid range format")
    start, inc, end = (parse_value(p, T, hexmode) for p in parts)
    with np.errstate(all="ignore"):
        if np.dtype(T).itemsize < 4 and np.issubdtype(T, np.integer):
            span = int(end) - int(start) + int(inc)   # integer promotion
        else:
            span = T(T(end - start) + inc)
        num = float(span) / float(inc)
    n = size // np.dtype(T).itemsize
    if num != np.ceil(num) or num * np.dtype(T).itemsize != size:
        raise SimError("Range doesn't produce correct buffer size")
    out = np.zeros(n, T)
    v = start
    with np.errstate(all="ignore"):
        for i in range(n):
            out[i] = v
            v = T(v + inc)
    return out


def format_value(v, T, hexmode):
    T = np.dtype(T).type
    size = np.dtype(T).itemsize
    if T in (np.float32, np.float64):
        f = float(v)
        if np.isnan(f):
            s = "-nan" if np.signbit(v) else "nan"
        elif np.isinf(f):
            s = "-inf" if f < 0 else "inf"
        else:
            s = "%g" % f
        if hexmode:  # setw(2*size) setfill('0') applies, hex does not
            return "0x" + s.rjust(2 * size, "0")
        return s
    iv = int(v)
    if hexmode:
        if size == 1 and T == np.int8:
            u = iv & 0xFFFFFFFF         # (int)char printed as unsigned int
        else:
            u = iv & ((1 << (8 * size)) - 1)
        return "0x" + ("%x" % u).rjust(2 * size, "0")
    return str(iv)


# ---------------------------------------------------------------- running
_ctx = None
_queue = None


def get_queue():
    global _ctx, _queue
    if _ctx is None:
        import pyopencl as cl
        plats = cl.get_platforms()
        dev = None
        for p in plats:
            if "Portable" in p.name or "pocl" in p.name.lower():
                dev = p.get_devices()[0]
        if dev is None:
            dev = plats[0].get_devices()[0]
        _ctx = cl.Context([dev])
        _queue = cl.CommandQueue(_ctx)
    return _ctx, _queue


NONUNIFORM_PRELUDE = r"""
#define __SIM_SEL(d, a, b, c) ((size_t)((d) == 0 ? (a) : (d) == 1 ? (b) : (d) == 2 ? (c) : 1))
#define get_global_size(d) __SIM_SEL(d, __SIM_G0, __SIM_G1, __SIM_G2)
#define get_enqueued_local_size(d) __SIM_SEL(d, __SIM_L0, __SIM_L1, __SIM_L2)
#define get_num_groups(d) __SIM_SEL(d, (__SIM_G0 + __SIM_L0 - 1) / __SIM_L0, \
    (__SIM_G1 + __SIM_L1 - 1) / __SIM_L1, (__SIM_G2 + __SIM_L2 - 1) / __SIM_L2)
#define get_group_id(d) ((size_t)(get_global_id(d) / get_enqueued_local_size(d)))
#define get_local_id(d) ((size_t)(get_global_id(d) % get_enqueued_local_size(d)))
#line 1
"""


def run_sim(path):
    """Returns the output text (printf output followed by the dumps)."""
    import pyopencl as cl
    ctx, queue = get_queue()
    simdir = os.path.dirname(os.path.abspath(path))
    with open(path) as f:
        rd = Reader(f.read())
    clfile = rd.token("program file")
    kname = rd.token("kernel")
    gsize = [int(rd.token("NDRange")) for _ in range(3)]
    lsize = [int(rd.token("work-group size")) for _ in range(3)]
    with open(os.path.join(simdir, clfile)) as f:
        src = f.read()
    options = []
    optfile = os.path.splitext(path)[0] + ".options"
    if os.path.exists(optfile):
        with open(optfile) as f:
            options = f.read().split()
    if not any(o.startswith("-cl-std=") for o in options):
        options = ["-cl-std=CL3.0"] + options
    options = options + ["-cl-kernel-arg-info", "-I", simdir]

    nonuniform = any(g % l for g, l in zip(gsize, lsize))
    # sub-launches: per dimension the uniform part and the remainder
    launches = []
    if nonuniform:
        per_dim = []
        for g, l in zip(gsize, lsize):
            parts = []
            full = (g // l) * l
            if full:
                parts.append((0, full, l))
            if g - full:
                parts.append((full, g - full, g - full))
            per_dim.append(parts)
        for a in per_dim[0]:
            for b in per_dim[1]:
                for c in per_dim[2]:
                    launches.append(([a[0], b[0], c[0]], [a[1], b[1], c[1]],
                                     [a[2], b[2], c[2]]))
        defs = ["-D__SIM_G%d=%d" % (d, gsize[d]) for d in range(3)] + \
               ["-D__SIM_L%d=%d" % (d, lsize[d]) for d in range(3)]
        src = NONUNIFORM_PRELUDE + src
        options = options + defs
    else:
        launches.append((None, gsize, lsize))

    try:
        prog = cl.Program(ctx, src).build(options=options)
    except cl.RuntimeError as e:
        raise SimError("Build failure:\n%s" % e)
    try:
        kernel = getattr(prog, kname)
    except (AttributeError, cl.LogicError):
        raise SimError("Failed to create kernel %s" % kname)

    nargs = kernel.get_info(cl.kernel_info.NUM_ARGS)
    dumps = []
    keep = []  # buffers must stay alive until the kernel has run
    for i in range(nargs):
        name = kernel.get_arg_info(i, cl.kernel_arg_info.NAME)
        tname = kernel.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME)
        aq = kernel.get_arg_info(i, cl.kernel_arg_info.ADDRESS_QUALIFIER)
        what = "argument %d: %s" % (i, name)
        hdr = rd.header(what).split()
        size = None
        T = None
        fill = rng = None
        dump = hexmode = null = noinit = False
        flags = cl.mem_flags.READ_WRITE
        for tok in hdr:
            if tok in TYPES:
                if T is not None:
                    raise SimError("Argument type defined multiple times (%s)" % what)
                T = TYPES[tok]
            elif tok.startswith("dump"):
                dump = True
            elif tok.startswith("fill"):
                if len(tok) < 6 or tok[4] != "=":
                    raise SimError("Expected =VALUE after 'fill (%s)" % what)
                fill = tok[5:]
            elif tok == "hex":
                hexmode = True
            elif tok == "noinit":
                noinit = True
            elif tok == "null":
                null = True
            elif tok.startswith("range"):
                if len(tok) < 7 or tok[5] != "=":
                    raise SimError("Expected =START:INC:END after 'range (%s)" % what)
                rng = tok[6:]
            elif tok == "ro":
                flags = cl.mem_flags.READ_ONLY
            elif tok == "wo":
                flags = cl.mem_flags.WRITE_ONLY
            elif tok.startswith("size"):
                if not tok.startswith("size="):
                    raise SimError("Expected = after 'size' (%s)" % what)
                size = int(tok[5:])
            else:
                raise SimError("Unrecognised header token '%s' (%s)" % (tok, what))
        if null:
            kernel.set_arg(i, None)
            continue
        if size is None:
            raise SimError("size required (%s)" % what)
        if aq == ADDR_LOCAL:
            kernel.set_arg(i, cl.LocalMemory(size))
            continue
        if T is None:
            for p in PREFIX_ORDER:
                if tname.startswith(p):
                    T = TYPES[p]
                    break
            else:
                if tname.startswith("void*"):
                    T = np.uint8
                else:
                    raise SimError("Invalid default kernel argument type '%s' (%s)"
                                   % (tname, what))
        tsz = np.dtype(T).itemsize
        if size % tsz:
            raise SimError("Initialiser type must exactly divide argument size (%s)" % what)
        n = size // tsz
        if sum([noinit, fill is not None, rng is not None]) > 1:
            raise SimError("Multiple initializers present (%s)" % what)
        if noinit:
            data = np.zeros(n, T)  # contents are unspecified; zero is fine
        elif fill is not None:
            data = np.full(n, parse_value(fill, T, hexmode), T)
        elif rng is not None:
            data = make_range(rng, T, size, hexmode)
        else:
            data = np.array([parse_value(rd.token(what), T, hexmode)
                             for _ in range(n)], T)
        if aq == ADDR_PRIVATE:
            kernel.set_arg(i, data.tobytes())
        else:
            buf = cl.Buffer(ctx, flags | cl.mem_flags.COPY_HOST_PTR, hostbuf=data)
            kernel.set_arg(i, buf)
            keep.append(buf)
            if dump:
                dumps.append((name, buf, T, size, hexmode))
    if not rd.at_eof():
        raise SimError("Unexpected token '%s' (expected EOF)" % rd.token("EOF"))

    # run, capturing the C-level stdout (printf) into a temporary file
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    libc.fflush(None)
    saved = os.dup(1)
    tmp = tempfile.TemporaryFile()
    os.dup2(tmp.fileno(), 1)
    try:
        for off, g, l in launches:
            cl.enqueue_nd_range_kernel(queue, kernel, g, l, global_work_offset=off)
        queue.finish()
    finally:
        libc.fflush(None)
        os.dup2(saved, 1)
        os.close(saved)
    tmp.seek(0)
    out = tmp.read().decode("utf-8", "replace")

    for name, buf, T, size, hexmode in dumps:
        host = np.zeros(size // np.dtype(T).itemsize, T)
        cl.enqueue_copy(queue, host, buf)
        out += "\nArgument '%s': %d bytes\n" % (name, size)
        for j, v in enumerate(host):
            out += "  %s[%d] = %s\n" % (name, j, format_value(v, T, hexmode))
        out += "\n"
    return out


# ---------------------------------------------------------------- checking
def read_ref(path):
    exact, errors = [], []
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("EXACT "):
                exact.append(line[6:])
            elif line.startswith("ERROR "):
                errors.append(line[6:])
    return exact, errors


def compare(output, exact, strict):
    lines = [l for l in output.split("\n") if l.strip() != ""]
    if strict:
        for k in range(max(len(lines), len(exact))):
            a = lines[k] if k < len(lines) else "<missing>"
            e = exact[k] if k < len(exact) else "<none>"
            if a != e:
                return "line %d: expected %r, got %r" % (k + 1, e, a)
        return None
    pos = 0
    for e in exact:
        while pos < len(lines) and lines[pos] != e:
            pos += 1
        if pos == len(lines):
            return "expected line not found (in order): %r" % e
        pos += 1
    return None


def check(paths, strict):
    sims = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                sims += [os.path.join(root, f) for f in files if f.endswith(".sim")]
        else:
            sims.append(p)
    sims.sort()
    npass = nfail = nskip = 0
    for sim in sims:
        ref = os.path.splitext(sim)[0] + ".ref"
        if not os.path.exists(ref):
            print("SKIP %s (no .ref)" % sim)
            nskip += 1
            continue
        exact, errors = read_ref(ref)
        if errors:
            print("SKIP %s (.ref expects ERROR diagnostics)" % sim)
            nskip += 1
            continue
        try:
            r = subprocess.run([sys.executable, os.path.abspath(__file__), sim],
                               capture_output=True, text=True, timeout=300)
            output, err, rc = r.stdout, r.stderr, r.returncode
        except subprocess.TimeoutExpired:
            output, err, rc = "", "timeout", -1
        msg = None
        if rc != 0:
            msg = "runner failed (rc=%d): %s" % (rc, err.strip()[-600:])
        else:
            msg = compare(output, exact, strict)
        if msg:
            print("FAIL %s: %s" % (sim, msg))
            nfail += 1
        else:
            print("PASS %s" % sim)
            npass += 1
        sys.stdout.flush()
    print("%d passed, %d failed, %d skipped" % (npass, nfail, nskip))
    return nfail == 0


def main(argv):
    if len(argv) >= 2 and argv[1] == "--check":
        strict = "--strict" in argv
        paths = [a for a in argv[2:] if a != "--strict"]
        return 0 if check(paths, strict) else 1
    if len(argv) != 2:
        print(__doc__)
        return 2
    try:
        out = run_sim(argv[1])
    except SimError as e:
        sys.stdout.flush()
        print(str(e), file=sys.stderr)
        return 1
    sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
