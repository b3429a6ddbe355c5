"""Shared helpers for the Python reference implementations (refs_*.py).

A reference function builds a `Kernel` description: NDRange, the kernel
arguments (inputs given as numpy arrays or oclgrind ranges/fills) and, for
dumped arguments, the expected final contents computed independently in
Python/numpy.  gen_refs.py turns each description into NAME.sim and NAME.ref.

Float expectations are checked for robustness: the printed %g string of every
float/double value must not change when the value is moved by up to 4 ulp, so
that implementations with different (but conforming) rounding print the same
text.  Values declared `exact=True` (e.g. results of floor(), integer-valued
arithmetic, exact zeros) skip that check.
"""
import numpy as np

TYPE_NAMES = {
    np.int8: "char", np.uint8: "uchar", np.int16: "short", np.uint16: "ushort",
    np.int32: "int", np.uint32: "uint", np.int64: "long", np.uint64: "ulong",
    np.float32: "float", np.float64: "double",
}
BY_NAME = {v: k for k, v in TYPE_NAMES.items()}

ULPS = 4


def T(name):
    return BY_NAME[name]


# ------------------------------------------------------------------ integers
def wrap(v, bits, signed):
    """Wrap a Python int to a fixed-width two's complement integer."""
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def cmod(a, b):
    return a - cdiv(a, b) * b


def f32(x):
    return np.float32(x)


def f32bits(x):
    return int(np.array([x], np.float32).view(np.uint32)[0])


def bits2f32(u):
    return np.array([u], np.uint32).view(np.float32)[0]


# ------------------------------------------------------------------ formatting
def fmt_g(v):
    f = float(v)
    if np.isnan(f):
        raise AssertionError("NaN output is not allowed")
    if np.isinf(f):
        return "-inf" if f < 0 else "inf"
    return "%g" % f


def fmt_value(v, tname, hexmode=False):
    dt = BY_NAME[tname]
    size = np.dtype(dt).itemsize
    if tname in ("float", "double"):
        s = fmt_g(dt(v))
        return "0x" + s.rjust(2 * size, "0") if hexmode else s
    iv = int(v)
    if hexmode:
        u = iv & (0xFFFFFFFF if tname == "char" else (1 << (8 * size)) - 1)
        return "0x" + ("%x" % u).rjust(2 * size, "0")
    return str(iv)


def robust(v, tname, ulps=ULPS):
    """True if v prints the same %g string when perturbed by +-ulps ulp."""
    dt = BY_NAME[tname]
    v = dt(v)
    s = fmt_g(v)
    lo = hi = v
    for _ in range(ulps):
        lo = np.nextafter(lo, dt(-np.inf))
        hi = np.nextafter(hi, dt(np.inf))
        if fmt_g(lo) != s or fmt_g(hi) != s:
            return False
    return True


def fmt_input(v, tname):
    """Text for an explicit input value that parses back to exactly v."""
    dt = BY_NAME[tname]
    if tname == "float":
        s = np.format_float_positional(np.float32(v), unique=True, trim="-") \
            if abs(float(v)) >= 1e-4 and abs(float(v)) < 1e7 or v == 0 \
            else np.format_float_scientific(np.float32(v), unique=True, trim="-")
        assert np.float32(float(s)) == np.float32(v), (s, v)
        return s
    if tname == "double":
        s = repr(float(v))
        assert float(s) == float(v)
        return s
    return str(int(v))


# ------------------------------------------------------------------ arguments
class Arg:
    """One kernel argument of a .sim file.

    kind: 'buf' (global/constant buffer), 'scalar' (by-value argument),
          'local' (only a size), 'null'
    data: numpy array with the initial contents (buf/scalar)
    init: 'values' | 'range' | 'fill' | 'noinit'
    expect: expected final contents if dumped (numpy array, same length)
    """

    def __init__(self, name, kind, tname=None, data=None, init="values",
                 size=None, range_=None, fill=None, expect=None, hexmode=False,
                 explicit_type=False, flags=(), exact=False, per_line=8,
                 ulps=ULPS):
        self.name = name
        self.kind = kind
        self.tname = tname
        self.data = data
        self.init = init
        self.size = size
        self.range_ = range_
        self.fill = fill
        self.expect = expect
        self.hexmode = hexmode
        self.explicit_type = explicit_type
        self.flags = list(flags)
        self.exact = exact
        self.per_line = per_line
        self.ulps = ulps

    def header(self):
        if self.kind == "null":
            return "<null>"
        toks = ["size=%d" % self.size]
        if self.kind == "local":
            return "<%s>" % " ".join(toks)
        if self.explicit_type:
            toks.append(self.tname)
        if self.init == "range":
            toks.append("range=%s" % self.range_)
        elif self.init == "fill":
            toks.append("fill=%s" % self.fill)
        elif self.init == "noinit":
            toks.append("noinit")
        if self.hexmode:
            toks.append("hex")
        toks += self.flags
        if self.expect is not None:
            toks.append("dump")
        return "<%s>" % " ".join(toks)

    def sim_text(self):
        lines = [self.header()]
        if self.kind in ("buf", "scalar") and self.init == "values":
            vals = [("%x" % (int(v) & ((1 << (8 * np.dtype(BY_NAME[self.tname]).itemsize)) - 1)))
                    if self.hexmode else fmt_input(v, self.tname)
                    for v in np.asarray(self.data).ravel()]
            for i in range(0, len(vals), self.per_line):
                lines.append("  " + " ".join(vals[i:i + self.per_line]))
        return "\n".join(lines)


def _np(data, tname):
    return np.asarray(data, dtype=BY_NAME[tname])


def buf(name, tname, data, explicit_type=False, hexmode=False, flags=(), per_line=8):
    """Input buffer with explicit values."""
    a = _np(data, tname).ravel()
    return Arg(name, "buf", tname, a, "values", size=a.nbytes,
               explicit_type=explicit_type, hexmode=hexmode, flags=flags,
               per_line=per_line)


def rng(name, tname, start, inc, end, explicit_type=False, flags=()):
    """Input buffer initialised with range=START:INC:END (end inclusive)."""
    dt = BY_NAME[tname]
    n = int(round((float(end) - float(start) + float(inc)) / float(inc)))
    a = np.zeros(n, dt)
    v = dt(start)
    with np.errstate(all="ignore"):
        for i in range(n):
            a[i] = v
            v = dt(v + dt(inc))
    spec = "%s:%s:%s" % (fmt_input(start, tname), fmt_input(inc, tname),
                         fmt_input(end, tname))
    return Arg(name, "buf", tname, a, "range", size=a.nbytes, range_=spec,
               explicit_type=explicit_type, flags=flags)


def fill(name, tname, value, count, explicit_type=False, flags=()):
    dt = BY_NAME[tname]
    a = np.full(count, dt(value), dt)
    return Arg(name, "buf", tname, a, "fill", size=a.nbytes,
               fill=fmt_input(value, tname), explicit_type=explicit_type,
               flags=flags)


def scalar(name, tname, values, explicit_type=False, hexmode=False):
    a = _np(np.atleast_1d(values), tname)
    return Arg(name, "scalar", tname, a, "values", size=a.nbytes,
               explicit_type=explicit_type, hexmode=hexmode)


def local(name, size):
    return Arg(name, "local", size=size)


def null(name):
    return Arg(name, "null")


def out(name, tname, expect, init="noinit", fill_value=0, explicit_type=False,
        hexmode=False, exact=False, flags=(), ulps=ULPS):
    """Dumped output buffer with its expected final contents."""
    e = _np(expect, tname).ravel()
    a = Arg(name, "buf", tname, None, init, size=e.nbytes, expect=e,
            explicit_type=explicit_type, hexmode=hexmode, exact=exact,
            flags=flags, ulps=ulps)
    if init == "fill":
        a.fill = fmt_input(fill_value, tname)
    return a


def inout(name, tname, data, expect, explicit_type=False, hexmode=False,
          exact=False, per_line=8):
    """Buffer with explicit initial values that is also dumped."""
    a = buf(name, tname, data, explicit_type=explicit_type, hexmode=hexmode,
            per_line=per_line)
    a.expect = _np(expect, tname).ravel()
    assert a.expect.nbytes == a.size
    a.exact = exact
    return a


class Kernel:
    def __init__(self, name, kernel, gsize, lsize, args, printf=(), clfile=None,
                 options=None, comment=None):
        self.name = name
        self.kernel = kernel
        self.gsize = tuple(gsize) + (1,) * (3 - len(gsize))
        self.lsize = tuple(lsize) + (1,) * (3 - len(lsize))
        self.args = args
        self.printf = list(printf)
        self.clfile = clfile or name + ".cl"
        self.options = options
        self.comment = comment

    def sim_text(self):
        lines = []
        if self.comment:
            lines += ["# " + l for l in self.comment.split("\n")]
        lines += [self.clfile, self.kernel,
                  "%d %d %d" % self.gsize, "%d %d %d" % self.lsize]
        for a in self.args:
            lines.append(a.sim_text())
        return "\n".join(lines) + "\n"

    def ref_lines(self):
        lines = ["EXACT " + l for l in self.printf]
        for a in self.args:
            if a.expect is None:
                continue
            lines.append("EXACT Argument '%s': %d bytes" % (a.name, a.size))
            exact = np.broadcast_to(np.asarray(a.exact, bool), a.expect.shape)
            for i, v in enumerate(a.expect):
                if a.tname in ("float", "double") and not exact[i]:
                    assert robust(v, a.tname, a.ulps), \
                        "%s: %s[%d] = %r is not robust to +-%d ulp (%s)" % (
                            self.name, a.name, i, v, a.ulps, fmt_g(v))
                lines.append("EXACT   %s[%d] = %s" % (
                    a.name, i, fmt_value(v, a.tname, a.hexmode)))
        return lines


def all_robust(values, tname="float", ulps=ULPS):
    return all(robust(v, tname, ulps) for v in values)


def search(make, check, tries=200):
    """Return make(k) for the first k = 0, 1, 2, ... for which check(make(k))
    is true.  Used to nudge inputs until every float output prints robustly."""
    for k in range(tries):
        v = make(k)
        if check(v):
            return v
    raise AssertionError("no robust input found")


def fma32(a, b, c):
    """float32 fused multiply-add (product exact in double; the final double
    rounding can be off by one ulp in rare cases, well inside the tolerance)."""
    return np.float32(np.float64(np.float32(a)) * np.float64(np.float32(b))
                      + np.float64(np.float32(c)))


def same_print(values, tname="float"):
    """All values robust and printing the same string (e.g. the results of
    contracted and uncontracted evaluations of the same expression)."""
    from_first = fmt_g(BY_NAME[tname](values[0]))
    return all(robust(v, tname) and fmt_g(BY_NAME[tname](v)) == from_first
               for v in values)
