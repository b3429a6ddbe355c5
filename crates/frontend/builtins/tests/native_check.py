#!/usr/bin/env python3
"""Numerical sanity tests of the builtin library, run natively.

Lockstep cannot run kernels yet, so this script imitates its pipeline with
stock LLVM tools: test kernels are compiled like user kernels (clang-19,
spir64, -O0, OpenCL C 1.2 and 3.0), linked with lockstep_builtins.bc,
internalized and optimized at O2 (opt-19), then retargeted to x86-64 (triple,
data layout, calling conventions rewritten in the IR text) and compiled into
a shared object together with tests/shim.c, which implements the core
work-item functions. The kernels run through ctypes, one work-item at a
time; results are compared with numpy or with mpmath at 100+ bits
(ULP errors against the OpenCL full-profile bounds).

What the library's own bitcode computes is what is tested - not a copy
compiled by another OpenCL implementation. Not testable this way: the
conversion hooks (one hook symbol serves several return types), so
rounding-mode and float->int saturating conversions, and vstore_half_rt[zpn].

Usage: native_check.py [--bc PATH] [-v]
"""

import argparse
import ctypes
import glob
import math
import os
import re
import subprocess
import sys
import tempfile
from fractions import Fraction

import numpy as np
import mpmath as mp

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(HERE))))
CLANG = os.environ.get("LOCKSTEP_CLANG", "clang-19")

mp.mp.prec = 160
RNG = np.random.default_rng(12345)
N = 4000

# ---------------------------------------------------------------------------
# Test kernels. Each kernel takes only global buffers; one work-item per
# element.
# ---------------------------------------------------------------------------

KERNELS = r"""
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#define GID size_t i = get_global_id(0)
#define F1(NAME, T, FN) kernel void NAME(global const T *a, global T *o) { GID; o[i] = FN(a[i]); }
#define F2(NAME, T, FN) kernel void NAME(global const T *a, global const T *b, global T *o) { GID; o[i] = FN(a[i], b[i]); }
#define FI(NAME, T, FN) kernel void NAME(global const T *a, global const int *b, global T *o) { GID; o[i] = FN(a[i], b[i]); }

F2(t_hypot_f, float, hypot)  F2(t_hypot_d, double, hypot)
FI(t_pown_f, float, pown)    FI(t_pown_d, double, pown)
FI(t_rootn_f, float, rootn)  FI(t_rootn_d, double, rootn)
F1(t_sinpi_f, float, sinpi)  F1(t_sinpi_d, double, sinpi)  F1(t_sinpi_h, half, sinpi)
F1(t_cospi_f, float, cospi)  F1(t_cospi_d, double, cospi)
F1(t_tanpi_f, float, tanpi)  F1(t_tanpi_d, double, tanpi)
F1(t_asinpi_f, float, asinpi) F1(t_asinpi_d, double, asinpi)
F1(t_acospi_f, float, acospi) F1(t_acospi_d, double, acospi)
F1(t_atanpi_f, float, atanpi) F1(t_atanpi_d, double, atanpi)
F2(t_atan2pi_f, float, atan2pi) F2(t_atan2pi_d, double, atan2pi)
F2(t_powr_f, float, powr)
F2(t_nextafter_f, float, nextafter) F2(t_nextafter_h, half, nextafter)
F2(t_fdim_f, float, fdim)
F2(t_maxmag_f, float, maxmag) F2(t_minmag_f, float, minmag)
F1(t_logb_f, float, logb) F1(t_logb_d, double, logb)
kernel void t_fma_h(global const half *a, global const half *b, global const half *c, global half *o) { GID; o[i] = fma(a[i], b[i], c[i]); }
kernel void t_ilogb_f(global const float *a, global int *o) { GID; o[i] = ilogb(a[i]); }
kernel void t_ilogb_d(global const double *a, global int *o) { GID; o[i] = ilogb(a[i]); }
kernel void t_ldexp_f(global const float *a, global const int *b, global float *o) { GID; o[i] = ldexp(a[i], b[i]); }
kernel void t_ldexp_d(global const double *a, global const int *b, global double *o) { GID; o[i] = ldexp(a[i], b[i]); }
kernel void t_frexp_f(global const float *a, global int *e, global float *o) { GID; int k; o[i] = frexp(a[i], &k); e[i] = k; }
kernel void t_frexp_d(global const double *a, global int *e, global double *o) { GID; o[i] = frexp(a[i], e + i); }
kernel void t_fract_f(global const float *a, global float *ip, global float *o) { GID; o[i] = fract(a[i], ip + i); }
kernel void t_modf_d(global const double *a, global double *ip, global double *o) { GID; double k; o[i] = modf(a[i], &k); ip[i] = k; }
kernel void t_remquo_f(global const float *a, global const float *b, global int *q, global float *o) { GID; o[i] = remquo(a[i], b[i], q + i); }
kernel void t_remquo_d(global const double *a, global const double *b, global int *q, global double *o) { GID; int k; o[i] = remquo(a[i], b[i], &k); q[i] = k; }
kernel void t_fract4_f(global const float4 *a, global float4 *ip, global float4 *o) { GID; float4 k; o[i] = fract(a[i], &k); ip[i] = k; }

kernel void t_mul_hi_l(global const long *a, global const long *b, global long *o) { GID; o[i] = mul_hi(a[i], b[i]); }
kernel void t_mul_hi_ul(global const ulong *a, global const ulong *b, global ulong *o) { GID; o[i] = mul_hi(a[i], b[i]); }
kernel void t_mad_sat_l(global const long *a, global const long *b, global const long *c, global long *o) { GID; o[i] = mad_sat(a[i], b[i], c[i]); }
kernel void t_mad_sat_ul(global const ulong *a, global const ulong *b, global const ulong *c, global ulong *o) { GID; o[i] = mad_sat(a[i], b[i], c[i]); }
kernel void t_mad_sat_i(global const int *a, global const int *b, global const int *c, global int *o) { GID; o[i] = mad_sat(a[i], b[i], c[i]); }
kernel void t_mul_hi_c16(global const char16 *a, global const char16 *b, global char16 *o) { GID; o[i] = mul_hi(a[i], b[i]); }
kernel void t_rotate_i(global const int *a, global const int *b, global int *o) { GID; o[i] = rotate(a[i], b[i]); }
kernel void t_rotate_uc4(global const uchar4 *a, global const uchar4 *b, global uchar4 *o) { GID; o[i] = rotate(a[i], b[i]); }
kernel void t_rotate_l(global const long *a, global const long *b, global long *o) { GID; o[i] = rotate(a[i], b[i]); }
kernel void t_upsample_s(global const short *a, global const ushort *b, global int *o) { GID; o[i] = upsample(a[i], b[i]); }
kernel void t_upsample_c3(global const char *a, global const uchar *b, global short *o) { GID; o[i] = upsample(vload3(i, a), vload3(i, b)).s2; }
kernel void t_add_sat_i(global const int *a, global const int *b, global int *o) { GID; o[i] = add_sat(a[i], b[i]); }
kernel void t_sub_sat_c(global const char *a, global const char *b, global char *o) { GID; o[i] = sub_sat(a[i], b[i]); }
kernel void t_sub_sat_ul(global const ulong *a, global const ulong *b, global ulong *o) { GID; o[i] = sub_sat(a[i], b[i]); }
kernel void t_hadd_i(global const int *a, global const int *b, global int *o) { GID; o[i] = hadd(a[i], b[i]); }
kernel void t_rhadd_ul(global const ulong *a, global const ulong *b, global ulong *o) { GID; o[i] = rhadd(a[i], b[i]); }
kernel void t_abs_diff_c(global const char *a, global const char *b, global uchar *o) { GID; o[i] = abs_diff(a[i], b[i]); }
kernel void t_clz_s(global const short *a, global short *o) { GID; o[i] = clz(a[i]); }
#if __OPENCL_C_VERSION__ >= 200
kernel void t_ctz_ul(global const ulong *a, global ulong *o) { GID; o[i] = ctz(a[i]); }
#endif
kernel void t_popcount_c(global const char *a, global char *o) { GID; o[i] = popcount(a[i]); }
#if __OPENCL_C_VERSION__ >= 200
kernel void t_bfx_s_i(global const int *a, global const uint *b, global const uint *c, global int *o) { GID; o[i] = bitfield_extract_signed(a[i], b[i], c[i]); }
#endif
#if __OPENCL_C_VERSION__ >= 200
kernel void t_bfi_us(global const ushort *a, global const ushort *b, global const uint *c, global const uint *d, global ushort *o) { GID; o[i] = bitfield_insert(a[i], b[i], c[i], d[i]); }
#endif
#if __OPENCL_C_VERSION__ >= 200
kernel void t_bitrev_c(global const uchar *a, global uchar *o) { GID; o[i] = bit_reverse(a[i]); }
#endif
#if __OPENCL_C_VERSION__ >= 200
kernel void t_dot_acc_sat(global const char4 *a, global const uchar4 *b, global const int *c, global int *o) { GID; o[i] = dot_acc_sat(a[i], b[i], c[i]); }
#endif

kernel void t_select_f4(global const float4 *a, global const float4 *b, global const uint4 *c, global float4 *o) { GID; o[i] = select(a[i], b[i], c[i]); }
kernel void t_select_s(global const int *a, global const int *b, global const int *c, global int *o) { GID; o[i] = select(a[i], b[i], c[i]); }
kernel void t_bitselect_d2(global const double2 *a, global const double2 *b, global const double2 *c, global double2 *o) { GID; o[i] = bitselect(a[i], b[i], c[i]); }
kernel void t_rel_f4(global const float4 *a, global const float4 *b, global int4 *o) {
  GID; float4 x = a[i], y = b[i];
  o[8*i+0] = isnan(x); o[8*i+1] = isinf(x); o[8*i+2] = isnormal(x); o[8*i+3] = signbit(x);
  o[8*i+4] = isfinite(x); o[8*i+5] = islessgreater(x, y); o[8*i+6] = isunordered(x, y); o[8*i+7] = isgreaterequal(x, y); }
kernel void t_rel_s(global const double *a, global int *o) { GID; double x = a[i]; o[4*i] = isnan(x); o[4*i+1] = isinf(x); o[4*i+2] = isnormal(x); o[4*i+3] = signbit(x); }
kernel void t_anyall(global const short3 *a, global int *o) { GID; o[2*i] = any(a[i]); o[2*i+1] = all(a[i]); }

kernel void t_vload_half(global const half *h, global float *o) { GID; vstore4(vload_half4(i, h), i, o); }
kernel void t_vloada_half3(global const half *h, global float *o) { GID; float3 v = vloada_half3(i, h); o[4*i] = v.x; o[4*i+1] = v.y; o[4*i+2] = v.z; }
kernel void t_vstore_half(global const float *f, global half *h) { GID; vstore_half2(vload2(i, f), i, h); }
kernel void t_vstore_half_d(global const double *f, global half *h) { GID; vstore_half_rte(f[i], i, h); }
kernel void t_vload3(global const int *a, global int *o) { GID; int3 v = vload3(i, a); vstore3(v.zxy, i, o); }

kernel void t_shuffle(global const int8 *a, global const uint4 *m, global int4 *o) { GID; o[i] = shuffle(a[i], m[i]); }
kernel void t_shuffle2(global const float4 *a, global const float4 *b, global const uint8 *m, global float8 *o) { GID; o[i] = shuffle2(a[i], b[i], m[i]); }

kernel void t_length_f4(global const float4 *a, global float *o) { GID; o[i] = length(a[i]); }
kernel void t_length_d3(global const double3 *a, global double *o) { GID; o[i] = length(a[i]); }
kernel void t_normalize_d4(global const double4 *a, global double4 *o) { GID; o[i] = normalize(a[i]); }
kernel void t_normalize_f3(global const float *a, global float *o) { GID; vstore3(normalize(vload3(i, a)), i, o); }
kernel void t_distance_f2(global const float2 *a, global const float2 *b, global float *o) { GID; o[i] = distance(a[i], b[i]); }
kernel void t_cross_f4(global const float4 *a, global const float4 *b, global float4 *o) { GID; o[i] = cross(a[i], b[i]); }

kernel void t_conv_sat_uc_i(global const int *a, global uchar *o) { GID; o[i] = convert_uchar_sat(a[i]); }
kernel void t_conv_sat_i_ul(global const ulong *a, global int *o) { GID; o[i] = convert_int_sat(a[i]); }
kernel void t_conv_sat_ul_l(global const long *a, global ulong *o) { GID; o[i] = convert_ulong_sat(a[i]); }
kernel void t_conv_sat_s8_ui8(global const uint8 *a, global short8 *o) { GID; o[i] = convert_short8_sat_rte(a[i]); }
kernel void t_conv_f_l(global const long *a, global float *o) { GID; o[i] = convert_float(a[i]); }
kernel void t_conv_i_f(global const float *a, global int *o) { GID; o[i] = convert_int(a[i]); }

kernel void t_clamp_f4s(global const float4 *a, global float4 *o) { GID; o[i] = clamp(a[i], -1.0f, 2.0f); }
kernel void t_smoothstep(global const float *a, global float *o) { GID; o[i] = smoothstep(0.25f, 0.75f, a[i]); }
kernel void t_sign_d(global const double *a, global double *o) { GID; o[i] = sign(a[i]); }
kernel void t_lgamma_r(global const float *a, global int *s, global float *o) { GID; o[i] = lgamma_r(a[i], s + i); }
kernel void t_async(global const int *src, global int *dst) {
  local int buf[64];
  event_t e = async_work_group_strided_copy(buf, src + 1000 * get_group_id(0), 64, 3, 0);
  wait_group_events(1, &e);
  for (int k = 0; k < 64; ++k) buf[k] += k;
  e = async_work_group_strided_copy(dst + 128 * get_group_id(0), buf, 64, 2, 0);
  wait_group_events(1, &e);
  event_t e2 = async_work_group_copy(buf, src, 64, 0);
  wait_group_events(1, &e2);
  prefetch(src, 64);
  dst[128 * get_group_id(0) + 1] = buf[63];
}
kernel void t_atomics(global int *c, global uint *m, global long *l, global float *f) {
  GID; atomic_inc(c); atomic_max(m, (uint)i * 2654435761u); atom_add(l, (long)i << 33); atomic_xchg(f, (float)i);
}
"""

# The same source again with the OpenCL 2.0 generic-address-space forms.
KERNELS_CL3 = r"""
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define GID size_t i = get_global_id(0)
kernel void g_fract(global const float *a, global float *ip, global float *o) { GID; float k; float *p = &k; o[i] = fract(a[i], p); ip[i] = k; }
kernel void g_remquo(global const double *a, global const double *b, global int *q, global double *o) { GID; int k; int *p = &k; o[i] = remquo(a[i], b[i], p); q[i] = k; }
kernel void g_vload(global const float *a, global float *o) { GID; const float *p = a; float *r = o; vstore4(vload4(i, p) * 2.0f, i, r); }
kernel void g_atomic(global atomic_int *c, global atomic_float *f, global int *o) {
  GID; int old = atomic_fetch_add(c, 1); atomic_fetch_add_explicit(f, 0.5f, memory_order_relaxed, memory_scope_device);
  int e = 7; atomic_compare_exchange_strong(c + 1, &e, (int)i); o[i] = old; }
"""


def find_library(path):
    if path:
        return path
    cands = glob.glob(os.path.join(REPO, "target", "*", "build", "lockstep-frontend-*", "out", "lockstep_builtins.bc"))
    if not cands:
        sys.exit("no lockstep_builtins.bc: run `cargo build -p lockstep-frontend` first or pass --bc")
    return max(cands, key=os.path.getmtime)


def build(lib, src, std, workdir, tag):
    """Kernel source -> shared object, the way described in the module doc."""
    cl = os.path.join(workdir, f"{tag}.cl")
    with open(cl, "w") as f:
        f.write(src)
    bc = os.path.join(workdir, f"{tag}.bc")
    subprocess.run([CLANG, "-x", "cl", "-target", "spir64", "-emit-llvm", "-c", "-O0", "-Xclang",
                    "-disable-O0-optnone", "-Xclang", "-finclude-default-header", "-cl-kernel-arg-info",
                    f"-cl-std={std}", cl, "-o", bc], check=True)
    kernel_ir = subprocess.run(["llvm-dis-19", bc, "-o", "-"], check=True, capture_output=True, text=True).stdout
    kernels = re.findall(r"^define [^@]*spir_kernel [^@]*@(\w+)\(", kernel_ir, re.M)
    linked = os.path.join(workdir, f"{tag}_linked.bc")
    subprocess.run(["llvm-link-19", bc, lib, "-o", linked], check=True)
    opt = os.path.join(workdir, f"{tag}_opt.ll")
    subprocess.run(["opt-19", "-S", "-passes=internalize,globaldce,default<O2>",
                    "-internalize-public-api-list=" + ",".join(kernels), linked, "-o", opt],
                   check=True, stderr=subprocess.DEVNULL)
    ir = open(opt).read()
    x86_dl = 'target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"'
    ir = re.sub(r"^target triple = .*$", 'target triple = "x86_64-pc-linux-gnu"', ir, flags=re.M)
    ir = re.sub(r"^target datalayout = .*$", x86_dl, ir, flags=re.M)
    ir = ir.replace("spir_func ", "").replace("spir_kernel ", "")
    x86 = os.path.join(workdir, f"{tag}_x86.ll")
    with open(x86, "w") as f:
        f.write(ir)
    so = os.path.join(workdir, f"{tag}.so")
    subprocess.run([CLANG, "-shared", "-fPIC", "-O2", "-Wno-override-module", x86,
                    os.path.join(HERE, "shim.c"), "-lm", "-o", so], check=True)
    return ctypes.CDLL(so)


class Runner:
    def __init__(self, so, std):
        self.so = so
        self.std = std
        self.so.lockstep_run.argtypes = [ctypes.c_void_p, ctypes.c_size_t] + [ctypes.c_void_p] * 5

    def has(self, kernel):
        return hasattr(self.so, kernel)

    def __call__(self, kernel, n, *arrays):
        ptrs = [a.ctypes.data for a in arrays] + [None] * (5 - len(arrays))
        fn = ctypes.cast(getattr(self.so, kernel), ctypes.c_void_p)
        self.so.lockstep_run(fn, n, *ptrs)


# ---------------------------------------------------------------------------
# ULP measurement
# ---------------------------------------------------------------------------

FORMATS = {np.float32: (24, -126, 127), np.float64: (53, -1022, 1023), np.float16: (11, -14, 15)}


def ulp_error(got, ref, dtype):
    """|got - ref| in ulps of ref's format; special values must match."""
    p, emin, emax = FORMATS[dtype]
    got = float(got)
    if mp.isnan(ref):
        return 0.0 if math.isnan(got) else math.inf
    if mp.isinf(ref):
        return 0.0 if got == float(ref) else math.inf
    if math.isnan(got) or math.isinf(got):
        # A finite reference at or above the overflow threshold rounds to inf.
        limit = (2 - mp.mpf(2) ** -p) * mp.mpf(2) ** emax
        return 0.0 if math.isinf(got) and abs(ref) >= limit and (ref > 0) == (got > 0) else math.inf
    if ref == 0:
        return 0.0 if got == 0 else abs(got) / 2.0 ** (emin - p + 1)
    e = max(int(mp.floor(mp.log(abs(ref), 2))), emin)
    return float(abs(mp.mpf(got) - ref) / mp.mpf(2) ** (e - p + 1))


class Report:
    def __init__(self, verbose):
        self.verbose = verbose
        self.failures = 0
        self.lines = []

    def ulps(self, name, got, refs, dtype, bound, inputs=None):
        errs = [ulp_error(g, r, dtype) for g, r in zip(got, refs)]
        worst = int(np.argmax(errs))
        ok = errs[worst] <= bound
        where = f" at {tuple(float(x[worst]) for x in inputs)}" if inputs is not None and not ok else ""
        self.record(ok, f"{name}: max {errs[worst]:.3g} ulp (bound {bound}) over {len(errs)} values{where}")

    def exact(self, name, got, want, inputs=None):
        got = np.asarray(got)
        want = np.asarray(want)
        if got.dtype.kind == "f":
            same = (got.view(np.uint8).reshape(len(got), -1) == want.astype(got.dtype).view(np.uint8).reshape(len(got), -1)).all(axis=1) | (np.isnan(got) & np.isnan(want))
        else:
            same = got == want.astype(got.dtype)
        bad = np.flatnonzero(~same)
        msg = f"{name}: {len(got) - len(bad)}/{len(got)} exact"
        if len(bad):
            k = bad[0]
            at = f" in={tuple(x[k] for x in inputs)}" if inputs is not None else ""
            msg += f"; first mismatch #{k}{at}: got {got[k]!r}, want {want[k]!r}"
        self.record(len(bad) == 0, msg)

    def record(self, ok, msg):
        msg = f"[{self.std}] {msg}" if getattr(self, "std", None) else msg
        if not ok:
            self.failures += 1
        line = ("ok    " if ok else "FAIL  ") + msg
        self.lines.append(line)
        print(line)


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------

def wide_floats(dtype, n, lo_exp, hi_exp, signed=True):
    """Log-uniform magnitudes plus some specials."""
    m = 2.0 ** RNG.uniform(lo_exp, hi_exp, n)
    if signed:
        m *= RNG.choice([-1.0, 1.0], n)
    return m.astype(dtype)


def with_specials(x, specials):
    x = x.copy()
    x[: len(specials)] = np.array(specials, dtype=x.dtype)
    return x


def mpf(x):
    return mp.mpf(float(x))


def run_tests(lib, verbose):
    rep = Report(verbose)
    with tempfile.TemporaryDirectory(prefix="lockstep-native-") as workdir:
        for std in ("CL1.2", "CL3.0"):
            print(f"--- test kernels compiled as {std}")
            run = Runner(build(lib, KERNELS, std, workdir, std), std)
            rep.std = std
            float_tests(run, rep)
            integer_tests(run, rep)
            misc_tests(run, rep)
        print("--- OpenCL 2.0+ forms (generic pointers, C11 atomics)")
        rep.std = "CL3.0"
        generic_tests(Runner(build(lib, KERNELS_CL3, "CL3.0", workdir, "generic"), "CL3.0"), rep)
    print(f"\n{len(rep.lines) - rep.failures} passed, {rep.failures} failed")
    return rep.failures == 0


def float_tests(run, rep):
    for dt, suf in ((np.float32, "f"), (np.float64, "d")):
        big = 120 if dt == np.float32 else 1000
        # hypot: wide range incl. overflow-prone and subnormal-prone pairs.
        a = wide_floats(dt, N, -big, big)
        with np.errstate(all="ignore"):
            b = (a * wide_floats(dt, N, -30, 30)).astype(dt)
        a = with_specials(a, [np.inf, 0.0, 3.0, np.nan])
        b = with_specials(b, [np.nan, 0.0, 4.0, np.inf])
        o = np.zeros(N, dt)
        run(f"t_hypot_{suf}", N, a, b, o)
        rep.ulps(f"hypot({dt.__name__})", o, [mp.hypot(mpf(x), mpf(y)) if not (math.isinf(x) or math.isinf(y)) else mp.inf
                                             for x, y in zip(a, b)], dt, 4, (a, b))

        # pown: |n| up to 40 and some large n near overflow/underflow.
        x = wide_floats(dt, N, -4, 4)
        n = RNG.integers(-40, 41, N).astype(np.int32)
        n[:200] = RNG.integers(-2000, 2000, 200)
        x[:200] = (1 + RNG.uniform(-0.05, 0.05, 200)).astype(dt)
        x = with_specials(x, [0.0, -0.0, -0.0, np.inf, -np.inf, np.nan, -2.0])
        n[:7] = [-3, -3, -2, -1, 3, 0, 5]
        o = np.zeros(N, dt)
        run(f"t_pown_{suf}", N, x, n, o)
        refs = []
        for xv, nv in zip(x, n):
            if math.isnan(xv):
                refs.append(mp.mpf(1) if nv == 0 else mp.nan)
            elif xv == 0 or math.isinf(xv):
                refs.append(mp.mpf(float(np.power(np.float64(xv), float(nv)))))
            else:
                refs.append(mpf(xv) ** int(nv))
        rep.ulps(f"pown({dt.__name__})", o, refs, dt, 16, (x, n))
        rep.exact(f"pown({dt.__name__}) signed zeros/infs", o[:7],
                  np.array([np.inf, -np.inf, np.inf, 0.0, -np.inf, 1.0, -32.0], dt))

        # rootn: positive and negative n, negative x with odd n.
        x = wide_floats(dt, N, -big, big)
        n = RNG.integers(-12, 13, N).astype(np.int32)
        n[n == 0] = 5
        n[:300] = RNG.integers(-3000, 3000, 300)
        n[n == 0] = 7
        x = np.where((x < 0) & (n % 2 == 0), -x, x).astype(dt)
        specials = [(0.0, -3, np.inf), (-0.0, -3, -np.inf), (-0.0, -2, np.inf), (-0.0, 3, -0.0),
                    (-8.0, 3, -2.0), (-8.0, 2, np.nan), (5.0, 0, np.nan), (np.inf, -2, 0.0), (-np.inf, 3, -np.inf)]
        for k, (xv, nv, _) in enumerate(specials):
            x[k], n[k] = xv, nv
        o = np.zeros(N, dt)
        run(f"t_rootn_{suf}", N, x, n, o)
        refs = []
        for xv, nv in zip(x, n):
            if xv == 0 or math.isinf(xv):
                refs.append(mp.nan)  # checked exactly below
            else:
                r = mp.root(abs(mpf(xv)), abs(int(nv)))
                if nv < 0:
                    r = 1 / r
                refs.append(-r if xv < 0 else r)
        k = len(specials)
        rep.ulps(f"rootn({dt.__name__})", o[k:], refs[k:], dt, 16, (x[k:], n[k:]))
        rep.exact(f"rootn({dt.__name__}) special cases", o[:k], np.array([s[2] for s in specials], dt))

        # sinpi/cospi/tanpi: small, moderate, huge, half-integers, integers.
        x = wide_floats(dt, N, -10, 30 if dt == np.float32 else 60)
        x[: N // 4] = (np.round(x[: N // 4] * 4) / 4).astype(dt)  # exact quarter points
        x = with_specials(x, [0.0, -0.0, 1.0, -1.0, 2.0, -3.0, 0.5, 1.5, -0.5, 2.5, 1e30, np.inf, np.nan])
        for fn, mpfn, bound in (("sinpi", mp.sinpi, 4), ("cospi", mp.cospi, 4),
                                ("tanpi", lambda v: mp.sinpi(v) / mp.cospi(v) if mp.cospi(v) != 0 else mp.sign(mp.sinpi(v)) * mp.inf, 6)):
            o = np.zeros(N, dt)
            run(f"t_{fn}_{suf}", N, x, o)
            refs = [mpfn(mpf(v)) if math.isfinite(v) else mp.nan for v in x]
            rep.ulps(f"{fn}({dt.__name__})", o[13:], refs[13:], dt, bound, (x[13:],))
            want = {"sinpi": [0.0, -0.0, 0.0, -0.0, 0.0, -0.0, 1.0, -1.0, -1.0, 1.0, 0.0, np.nan, np.nan],
                    "cospi": [1.0, 1.0, -1.0, -1.0, 1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, np.nan, np.nan],
                    "tanpi": [0.0, -0.0, -0.0, 0.0, 0.0, 0.0, np.inf, -np.inf, -np.inf, np.inf, 0.0, np.nan, np.nan]}[fn]
            rep.exact(f"{fn}({dt.__name__}) special cases", o[:13], np.array(want, dt))

        # inverse *pi functions
        x = RNG.uniform(-1, 1, N).astype(dt)
        x[:100] = wide_floats(dt, 100, -100, -1)
        for fn, mpfn in (("asinpi", mp.asin), ("acospi", mp.acos), ("atanpi", mp.atan)):
            o = np.zeros(N, dt)
            xx = x if fn != "atanpi" else wide_floats(dt, N, -60, 60)
            run(f"t_{fn}_{suf}", N, xx, o)
            rep.ulps(f"{fn}({dt.__name__})", o, [mpfn(mpf(v)) / mp.pi for v in xx], dt, 5, (xx,))
        y = wide_floats(dt, N, -60, 60)
        x = wide_floats(dt, N, -60, 60)
        o = np.zeros(N, dt)
        run(f"t_atan2pi_{suf}", N, y, x, o)
        rep.ulps(f"atan2pi({dt.__name__})", o, [mp.atan2(mpf(a), mpf(b)) / mp.pi for a, b in zip(y, x)], dt, 6, (y, x))

        # exact bit-level functions
        x = wide_floats(dt, N, -160 if dt == np.float32 else -1100, 120 if dt == np.float32 else 1000)
        x = with_specials(x, [0.0, -0.0, np.inf, -np.inf, np.nan])
        e = np.zeros(N, np.int32)
        o = np.zeros(N, dt)
        run(f"t_frexp_{suf}", N, x, e, o)
        m_ref, e_ref = np.frexp(x)
        e_ref = np.where(np.isfinite(x), e_ref, 0)
        rep.exact(f"frexp({dt.__name__}) mantissa", o, m_ref, (x,))
        rep.exact(f"frexp({dt.__name__}) exponent", e, e_ref, (x,))
        ie = np.zeros(N, np.int32)
        run(f"t_ilogb_{suf}", N, x, ie)
        with np.errstate(all="ignore"):
            ilog = np.where(np.isfinite(x) & (x != 0), np.frexp(x)[1] - 1, 0).astype(np.int64)
            lref = ilog.astype(dt)
        ilog = np.where(x == 0, -2**31, np.where(np.isfinite(x) | np.isnan(x), ilog, 2**31 - 1))
        ilog = np.where(np.isnan(x), 2**31 - 1, ilog)
        rep.exact(f"ilogb({dt.__name__})", ie, ilog, (x,))
        lb = np.zeros(N, dt)
        run(f"t_logb_{suf}", N, x, lb)
        lref = np.where(x == 0, -np.inf, np.where(np.isinf(x), np.inf, np.where(np.isnan(x), np.nan, lref))).astype(dt)
        rep.exact(f"logb({dt.__name__})", lb, lref, (x,))
        k = RNG.integers(-400 if dt == np.float32 else -2200, 400 if dt == np.float32 else 2200, N).astype(np.int32)
        run(f"t_ldexp_{suf}", N, x, k, o)
        with np.errstate(all="ignore"):
            rep.exact(f"ldexp({dt.__name__})", o, np.ldexp(x, k), (x, k))

        # remquo: exact remainder and 7 low quotient bits with the sign of x/y.
        x = wide_floats(dt, N, -20, 60 if dt == np.float32 else 500)
        y = wide_floats(dt, N, -20, 20)
        x[:200] = (np.round(x[:200]) + 0.5).astype(dt)
        y[:200] = 1.0
        x = with_specials(x, [5.0, -5.0, 7.0, 1.0, np.inf, 3.0, 0.0, -0.0])
        y = with_specials(y, [2.0, 2.0, 2.0, np.inf, 1.0, 0.0, 3.0, 3.0])
        q = np.zeros(N, np.int32)
        o = np.zeros(N, dt)
        run(f"t_remquo_{suf}", N, x, y, q, o)
        rr, qr = [], []
        for a, b in zip(x, y):
            if math.isnan(a) or math.isnan(b) or math.isinf(a) or b == 0:
                rr.append(np.nan)
                qr.append(0)
                continue
            if math.isinf(b):
                rr.append(a)
                qr.append(0)
                continue
            fa, fb = Fraction(float(a)), Fraction(float(b))
            k = round(fa / fb)  # exact, ties to even
            r = fa - k * fb
            rr.append(float(r) if r != 0 else math.copysign(0.0, a))
            kk = abs(k) % 128
            qr.append(-kk if (a < 0) != (b < 0) else kk)
        rep.exact(f"remquo({dt.__name__}) remainder", o, np.array(rr, dt), (x, y))
        qmask = np.array([not (math.isnan(v)) for v in rr])
        rep.exact(f"remquo({dt.__name__}) quotient bits", q[qmask], np.array(qr)[qmask], (x[qmask], y[qmask]))

    # float-only helpers
    x = wide_floats(np.float32, N, -30, 30)
    y = with_specials(wide_floats(np.float32, N, -30, 30), [np.nan, 0.0, -0.0, 1.0])
    x = with_specials(x, [1.0, -0.0, 0.0, 1.0])
    o = np.zeros(N, np.float32)
    run("t_nextafter_f", N, x, y, o)
    rep.exact("nextafter(float)", o, np.nextafter(x, y), (x, y))
    run("t_fdim_f", N, x, y, o)
    with np.errstate(all="ignore"):
        rep.exact("fdim(float)", o, np.where(np.isnan(x) | np.isnan(y), np.nan, np.where(x > y, x - y, 0)).astype(np.float32), (x, y))
    run("t_maxmag_f", N, x, y, o)
    # (fmax/fmin may return either zero for (-0, +0): compare by value)
    want = np.where(abs(x) > abs(y), x, np.where(abs(y) > abs(x), y, np.fmax(x, y)))
    rep.exact("maxmag(float)", o + np.float32(0), want + np.float32(0), (x, y))
    run("t_minmag_f", N, x, y, o)
    want = np.where(abs(x) < abs(y), x, np.where(abs(y) < abs(x), y, np.fmin(x, y)))
    rep.exact("minmag(float)", o + np.float32(0), want + np.float32(0), (x, y))
    xp = wide_floats(np.float32, N, -10, 10, signed=False)
    yp = RNG.uniform(-20, 20, N).astype(np.float32)
    xp = with_specials(xp, [-1.0, 0.0, np.inf, 1.0, 0.0])
    yp = with_specials(yp, [2.0, 0.0, 0.0, np.inf, -1.0])
    run("t_powr_f", N, xp, yp, o)
    rep.exact("powr(float) special cases", o[:5], np.array([np.nan, np.nan, np.nan, np.nan, np.inf], np.float32))
    rep.ulps("powr(float)", o[5:], [mpf(a) ** mpf(b) for a, b in zip(xp[5:], yp[5:])], np.float32, 16, (xp[5:], yp[5:]))

    # fract / modf
    x = with_specials(wide_floats(np.float32, N, -30, 30), [-1e-10, np.inf, -np.inf, np.nan, -0.0, 3.0])
    ip = np.zeros(N, np.float32)
    run("t_fract_f", N, x, ip, o)
    fl = np.floor(x)
    with np.errstate(all="ignore"):
        fr = np.minimum(x - fl, np.float32(float.fromhex('0x1.fffffep-1')))
    fr = np.where(np.isinf(x), np.copysign(0.0, x), np.where(np.isnan(x), np.nan, fr)).astype(np.float32)
    rep.exact("fract(float)", o, fr, (x,))
    rep.exact("fract(float) floor", ip, fl, (x,))
    xd = with_specials(wide_floats(np.float64, N, -60, 60), [-0.5, np.inf, -np.inf, np.nan, -0.0])
    ipd = np.zeros(N, np.float64)
    od = np.zeros(N, np.float64)
    run("t_modf_d", N, xd, ipd, od)
    fr_ref, ip_ref = np.modf(xd)
    rep.exact("modf(double)", od, fr_ref, (xd,))
    rep.exact("modf(double) integral", ipd, ip_ref, (xd,))
    x4 = wide_floats(np.float32, 4 * N, -20, 20)
    ip4 = np.zeros(4 * N, np.float32)
    o4 = np.zeros(4 * N, np.float32)
    run("t_fract4_f", N, x4, ip4, o4)
    rep.exact("fract(float4)", o4, np.minimum(x4 - np.floor(x4), np.float32(float.fromhex('0x1.fffffep-1'))), (x4,))

    # half: sinpi and fma (correctly rounded: compare with exact rational arithmetic)
    xh = (RNG.uniform(-100, 100, N)).astype(np.float16)
    oh = np.zeros(N, np.float16)
    run("t_sinpi_h", N, xh, oh)
    rep.ulps("sinpi(half)", oh, [mp.sinpi(mpf(v)) for v in xh], np.float16, 2, (xh,))
    ah = wide_floats(np.float16, N, -12, 7)
    bh = wide_floats(np.float16, N, -12, 7)
    ch = wide_floats(np.float16, N, -20, 14)
    run("t_fma_h", N, ah, bh, ch, oh)

    want = []
    for a, b, c in zip(ah, bh, ch):
        exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
        want.append(round_fraction_to_half(exact))
    rep.exact("fma(half) correctly rounded", oh, np.array(want, np.float16), (ah, bh, ch))
    yh = with_specials(wide_floats(np.float16, N, -20, 10), [np.inf, 0.0])
    xh2 = with_specials(wide_floats(np.float16, N, -20, 10), [65504.0, -0.0])
    run("t_nextafter_h", N, xh2, yh, oh)
    with np.errstate(all="ignore"):
        want = np.where(xh2 == yh, yh, np.nextafter(xh2, yh))  # C: y when x == y
    rep.exact("nextafter(half)", oh, want, (xh2, yh))


def round_fraction_to_half(q):
    """Round a Fraction to the nearest float16 (ties to even), with overflow."""

    if q == 0:
        return 0.0
    cands = np.float16(float(q))  # float(q) is correctly rounded to double
    # Fix double rounding: check neighbours exactly.
    best = None
    for c in (np.nextafter(cands, np.float16(-np.inf)), cands, np.nextafter(cands, np.float16(np.inf))):
        if not np.isfinite(c):
            continue
        d = abs(Fraction(float(c)) - q)
        if best is None or d < best[0] or (d == best[0] and (int(np.float16(c).view(np.uint16)) & 1) == 0):
            best = (d, c)
    if abs(q) >= Fraction(65520):
        return math.copysign(math.inf, q)
    return float(best[1])


def integer_tests(run, rep):
    def rnd(dtype, n=N):
        info = np.iinfo(dtype)
        v = RNG.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        v[:6] = np.array([info.min, info.max, 0, 1, info.max // 2, info.min // 2 if info.min else 7], dtype)
        return v

    a, b = rnd(np.int64), rnd(np.int64)
    b[6:12] = a[6:12] = [-1, 1, -(2**62), 2**40, -3, 12345678901]
    o = np.zeros(N, np.int64)
    run("t_mul_hi_l", N, a, b, o)
    rep.exact("mul_hi(long)", o, np.array([(int(x) * int(y)) >> 64 for x, y in zip(a, b)], np.int64), (a, b))
    ua, ub = rnd(np.uint64), rnd(np.uint64)
    uo = np.zeros(N, np.uint64)
    run("t_mul_hi_ul", N, ua, ub, uo)
    rep.exact("mul_hi(ulong)", uo, np.array([(int(x) * int(y)) >> 64 for x, y in zip(ua, ub)], np.uint64), (ua, ub))
    c = rnd(np.int64)
    a[20:200] = RNG.integers(-2**31, 2**31, 180)
    b[20:200] = RNG.integers(-2**31, 2**31, 180)
    run("t_mad_sat_l", N, a, b, c, o)
    clampl = lambda v: max(-(2**63), min(2**63 - 1, v))
    rep.exact("mad_sat(long)", o, np.array([clampl(int(x) * int(y) + int(z)) for x, y, z in zip(a, b, c)], np.int64), (a, b, c))
    uc = rnd(np.uint64)
    ua[20:200] = RNG.integers(0, 2**32, 180)
    ub[20:200] = RNG.integers(0, 2**32, 180)
    run("t_mad_sat_ul", N, ua, ub, uc, uo)
    rep.exact("mad_sat(ulong)", uo, np.array([min(2**64 - 1, int(x) * int(y) + int(z)) for x, y, z in zip(ua, ub, uc)], np.uint64), (ua, ub, uc))
    ia, ib, ic = rnd(np.int32), rnd(np.int32), rnd(np.int32)
    io = np.zeros(N, np.int32)
    run("t_mad_sat_i", N, ia, ib, ic, io)
    rep.exact("mad_sat(int)", io, np.array([max(-(2**31), min(2**31 - 1, int(x) * int(y) + int(z))) for x, y, z in zip(ia, ib, ic)], np.int32), (ia, ib, ic))
    ca, cb = rnd(np.int8, 16 * N), rnd(np.int8, 16 * N)
    co = np.zeros(16 * N, np.int8)
    run("t_mul_hi_c16", N, ca, cb, co)
    rep.exact("mul_hi(char16)", co, (ca.astype(np.int32) * cb.astype(np.int32)) >> 8)

    # rotate
    rb = RNG.integers(-100, 100, N).astype(np.int32)
    run("t_rotate_i", N, ia, rb, io)
    rot = lambda v, s, w: ((v << (s % w)) | (v >> ((w - s % w) % w))) & ((1 << w) - 1)
    rep.exact("rotate(int)", io, np.array([rot(int(x) & 0xffffffff, int(s), 32) for x, s in zip(ia, rb)], np.uint32).view(np.int32), (ia, rb))
    u4a, u4b = rnd(np.uint8, 4 * N), rnd(np.uint8, 4 * N)
    u4o = np.zeros(4 * N, np.uint8)
    run("t_rotate_uc4", N, u4a, u4b, u4o)
    rep.exact("rotate(uchar4)", u4o, np.array([rot(int(x), int(s), 8) for x, s in zip(u4a, u4b)], np.uint8))
    lb = RNG.integers(-200, 200, N).astype(np.int64)
    run("t_rotate_l", N, a, lb, o)
    rep.exact("rotate(long)", o, np.array([rot(int(x) & (2**64 - 1), int(s), 64) for x, s in zip(a, lb)], np.uint64).view(np.int64), (a, lb))

    # upsample
    sa, sb = rnd(np.int16), rnd(np.uint16)
    run("t_upsample_s", N, sa, sb, io)
    rep.exact("upsample(short, ushort)", io, (sa.astype(np.int32) << 16) | sb.astype(np.int32))
    c3a, c3b = rnd(np.int8, 3 * N), rnd(np.uint8, 3 * N)
    so = np.zeros(N, np.int16)
    run("t_upsample_c3", N, c3a, c3b, so)
    rep.exact("upsample(char3, uchar3).s2", so, ((c3a[2::3].astype(np.int16) << 8) | c3b[2::3].astype(np.int16)))

    # saturating add/sub, hadd/rhadd, abs_diff
    run("t_add_sat_i", N, ia, ib, io)
    rep.exact("add_sat(int)", io, np.clip(ia.astype(np.int64) + ib, -(2**31), 2**31 - 1), (ia, ib))
    c1, c2 = rnd(np.int8), rnd(np.int8)
    co1 = np.zeros(N, np.int8)
    run("t_sub_sat_c", N, c1, c2, co1)
    rep.exact("sub_sat(char)", co1, np.clip(c1.astype(np.int32) - c2, -128, 127), (c1, c2))
    run("t_sub_sat_ul", N, ua, ub, uo)
    rep.exact("sub_sat(ulong)", uo, np.array([max(0, int(x) - int(y)) for x, y in zip(ua, ub)], np.uint64), (ua, ub))
    run("t_hadd_i", N, ia, ib, io)
    rep.exact("hadd(int)", io, (ia.astype(np.int64) + ib) >> 1, (ia, ib))
    run("t_rhadd_ul", N, ua, ub, uo)
    rep.exact("rhadd(ulong)", uo, np.array([(int(x) + int(y) + 1) >> 1 for x, y in zip(ua, ub)], np.uint64), (ua, ub))
    uco = np.zeros(N, np.uint8)
    run("t_abs_diff_c", N, c1, c2, uco)
    rep.exact("abs_diff(char)", uco, np.abs(c1.astype(np.int32) - c2), (c1, c2))

    # bit counting
    s = rnd(np.int16)
    so = np.zeros(N, np.int16)
    run("t_clz_s", N, s, so)
    rep.exact("clz(short)", so, np.array([16 - (int(v) & 0xffff).bit_length() for v in s]), (s,))
    run("t_popcount_c", N, c1, co1)
    rep.exact("popcount(char)", co1, np.array([bin(int(v) & 0xff).count("1") for v in c1]), (c1,))

    if not run.has("t_bfx_s_i"):
        return
    u = rnd(np.uint64)
    u[7] = 0
    uo = np.zeros(N, np.uint64)
    run("t_ctz_ul", N, u, uo)
    rep.exact("ctz(ulong)", uo, np.array([64 if v == 0 else (int(v) & -int(v)).bit_length() - 1 for v in u]), (u,))

    # extended bit ops
    off = RNG.integers(0, 33, N).astype(np.uint32)
    cnt = np.array([RNG.integers(0, 33 - o_) for o_ in off], np.uint32)
    run("t_bfx_s_i", N, ia, off, cnt, io)
    def bfx(v, o_, c_):
        if c_ == 0:
            return 0
        f = ((int(v) & 0xffffffff) >> int(o_)) & ((1 << int(c_)) - 1)
        return f - (1 << int(c_)) if f >> (int(c_) - 1) else f
    rep.exact("bitfield_extract_signed(int)", io, np.array([bfx(v, o_, c_) for v, o_, c_ in zip(ia, off, cnt)]), (ia, off, cnt))
    us1, us2 = rnd(np.uint16), rnd(np.uint16)
    off16 = RNG.integers(0, 17, N).astype(np.uint32)
    cnt16 = np.array([RNG.integers(0, 17 - o_) for o_ in off16], np.uint32)
    uso = np.zeros(N, np.uint16)
    run("t_bfi_us", N, us1, us2, off16, cnt16, uso)
    def bfi(b_, ins, o_, c_):
        m = ((1 << int(c_)) - 1) << int(o_)
        return (int(b_) & ~m & 0xffff) | ((int(ins) << int(o_)) & m)
    rep.exact("bitfield_insert(ushort)", uso, np.array([bfi(*t) for t in zip(us1, us2, off16, cnt16)]), (us1, us2, off16, cnt16))
    ub8 = rnd(np.uint8)
    run("t_bitrev_c", N, ub8, uco)
    rep.exact("bit_reverse(uchar)", uco, np.array([int(f"{int(v):08b}"[::-1], 2) for v in ub8]), (ub8,))
    d4a, d4b = rnd(np.int8, 4 * N), rnd(np.uint8, 4 * N)
    acc = rnd(np.int32)
    run("t_dot_acc_sat", N, d4a, d4b, acc, io)
    dots = (d4a.astype(np.int64) * d4b).reshape(N, 4).sum(axis=1)
    rep.exact("dot_acc_sat(char4, uchar4, int)", io, np.clip(dots + acc, -(2**31), 2**31 - 1))


def misc_tests(run, rep):
    # select / bitselect / relational
    a4 = RNG.normal(size=4 * N).astype(np.float32)
    b4 = RNG.normal(size=4 * N).astype(np.float32)
    c4 = RNG.integers(0, 2**32, 4 * N, dtype=np.uint64).astype(np.uint32)
    o4 = np.zeros(4 * N, np.float32)
    run("t_select_f4", N, a4, b4, c4, o4)
    rep.exact("select(float4, float4, uint4) tests the MSB", o4, np.where(c4 >> 31, b4, a4))
    ia, ib = RNG.integers(-9, 9, N).astype(np.int32), RNG.integers(-9, 9, N).astype(np.int32)
    ic = RNG.integers(-2, 3, N).astype(np.int32)
    io = np.zeros(N, np.int32)
    run("t_select_s", N, ia, ib, ic, io)
    rep.exact("select(int, int, int) tests != 0", io, np.where(ic != 0, ib, ia))
    d2a, d2b, d2c = (RNG.normal(size=2 * N) for _ in range(3))
    d2o = np.zeros(2 * N)
    run("t_bitselect_d2", N, d2a, d2b, d2c, d2o)
    va, vb, vc = (v.view(np.uint64) for v in (d2a, d2b, d2c))
    rep.exact("bitselect(double2)", d2o.view(np.uint64), (va & ~vc) | (vb & vc))
    x = RNG.normal(size=4 * N).astype(np.float32) * np.float32(1e-37)
    x[:8] = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-45, -1.0, 3.4e38]
    y = RNG.normal(size=4 * N).astype(np.float32) * np.float32(1e-37)
    y[:8] = [1.0, np.inf, 0.0, -0.0, np.nan, 0.0, -1.0, -3.4e38]
    ro = np.zeros(8 * 4 * N, np.int32)
    run("t_rel_f4", N, x, y, ro)
    ro = ro.reshape(N, 8, 4)
    xs, ys = x.reshape(N, 4), y.reshape(N, 4)
    with np.errstate(all="ignore"):
        tests = [np.isnan(xs), np.isinf(xs), np.isfinite(xs) & (np.abs(xs) >= np.finfo(np.float32).tiny), np.signbit(xs),
                 np.isfinite(xs), (xs < ys) | (xs > ys), np.isnan(xs) | np.isnan(ys), xs >= ys]
    names = ["isnan", "isinf", "isnormal", "signbit", "isfinite", "islessgreater", "isunordered", "isgreaterequal"]
    for k, (nm, t) in enumerate(zip(names, tests)):
        rep.exact(f"{nm}(float4) -> -1/0", ro[:, k, :].ravel(), np.where(t, -1, 0).ravel())
    xd = np.array([np.nan, np.inf, 1e-310, -0.0, 1.0, -2.0] * (N // 6 + 1))[:N]
    rs = np.zeros(4 * N, np.int32)
    run("t_rel_s", N, xd, rs)
    rs = rs.reshape(N, 4)
    want = np.stack([np.isnan(xd), np.isinf(xd), np.isfinite(xd) & (np.abs(xd) >= 2.2250738585072014e-308), np.signbit(xd)], axis=1)
    rep.exact("isnan/isinf/isnormal/signbit(double) -> 1/0", rs.ravel(), want.astype(np.int32).ravel())
    s3 = RNG.integers(-3, 3, 4 * N).astype(np.int16)
    aa = np.zeros(2 * N, np.int32)
    run("t_anyall", N, s3, aa)
    s3v = s3.reshape(N, 4)[:, :3]
    rep.exact("any/all(short3) use the MSB", aa, np.stack([(s3v < 0).any(axis=1), (s3v < 0).all(axis=1)], axis=1).astype(np.int32).ravel())

    # vload_half / vstore_half
    h = RNG.normal(size=4 * N).astype(np.float16) * np.float16(100)
    h[:6] = [np.inf, -np.inf, np.nan, 6e-8, -0.0, 65504]
    f = np.zeros(4 * N, np.float32)
    run("t_vload_half", N, h, f)
    rep.exact("vload_half4", f, h.astype(np.float32))
    f4 = np.zeros(4 * N, np.float32)
    run("t_vloada_half3", N, h, f4)
    want = h.astype(np.float32).reshape(N, 4).copy()
    rep.exact("vloada_half3 (stride 4)", f4.reshape(N, 4)[:, :3].ravel(), want[:, :3].ravel())
    src = (RNG.normal(size=2 * N) * 1000).astype(np.float32)
    src[:4] = [65519.0, 65520.0, 1e-8, 2.9802322e-08]
    hs = np.zeros(2 * N, np.float16)
    run("t_vstore_half", N, src, hs)
    rep.exact("vstore_half2 (round to nearest even)", hs, src.astype(np.float16))
    srcd = RNG.normal(size=N) * 1000
    srcd[:3] = [1.0 + 2.0**-11 + 2.0**-40, 65519.99, 2.0**-25]
    hd = np.zeros(N, np.float16)
    run("t_vstore_half_d", N, srcd, hd)
    rep.exact("vstore_half_rte(double) (single rounding)", hd, srcd.astype(np.float16))
    v3 = RNG.integers(-100, 100, 3 * N).astype(np.int32)
    v3o = np.zeros(3 * N, np.int32)
    run("t_vload3", N, v3, v3o)
    rep.exact("vload3/vstore3 (stride 3)", v3o, v3.reshape(N, 3)[:, [2, 0, 1]].ravel())

    # shuffle
    s8 = RNG.integers(-1000, 1000, 8 * N).astype(np.int32)
    m4 = RNG.integers(0, 2**32, 4 * N, dtype=np.uint64).astype(np.uint32)
    so = np.zeros(4 * N, np.int32)
    run("t_shuffle", N, s8, m4, so)
    rep.exact("shuffle(int8, uint4)", so, np.take_along_axis(s8.reshape(N, 8), (m4 & 7).reshape(N, 4).astype(np.int64), axis=1).ravel())
    fa, fb = RNG.normal(size=4 * N).astype(np.float32), RNG.normal(size=4 * N).astype(np.float32)
    m8 = RNG.integers(0, 2**32, 8 * N, dtype=np.uint64).astype(np.uint32)
    fo = np.zeros(8 * N, np.float32)
    run("t_shuffle2", N, fa, fb, m8, fo)
    both = np.concatenate([fa.reshape(N, 4), fb.reshape(N, 4)], axis=1)
    rep.exact("shuffle2(float4, float4, uint8)", fo, np.take_along_axis(both, (m8 & 7).reshape(N, 8).astype(np.int64), axis=1).ravel())

    # geometric: no overflow/underflow in intermediates
    v = wide_floats(np.float32, 4 * N, -140, 127)
    v.reshape(N, 4)[:, 1:] *= np.float32(2.0 ** -10)
    lo = np.zeros(N, np.float32)
    run("t_length_f4", N, v, lo)
    rep.ulps("length(float4) over the whole range", lo, [mp.sqrt(sum(mpf(c) ** 2 for c in row)) for row in v.reshape(N, 4)], np.float32, 3)
    vd = np.zeros(4 * N)
    vd.reshape(N, 4)[:, :3] = wide_floats(np.float64, 3 * N, -1070, 1020).reshape(N, 3)
    ld = np.zeros(N)
    run("t_length_d3", N, vd, ld)
    rep.ulps("length(double3) over the whole range", ld, [mp.sqrt(sum(mpf(c) ** 2 for c in row[:3])) for row in vd.reshape(N, 4)], np.float64, 3)
    v4 = wide_floats(np.float64, 4 * N, -1000, 1000)
    v4[:4] = [np.inf, 1.0, -np.inf, 0.0]
    v4[4:8] = [0.0, 0.0, 0.0, -0.0]
    n4 = np.zeros(4 * N)
    run("t_normalize_d4", N, v4, n4)
    refs = []
    for row in v4.reshape(N, 4):
        if np.isinf(row).any():
            row = np.where(np.isinf(row), np.copysign(1.0, row), 0.0 * row)
        l = mp.sqrt(sum(mpf(c) ** 2 for c in row))
        refs.extend([mpf(c) / l if l != 0 else mpf(c) for c in row])
    rep.ulps("normalize(double4) incl. inf and zero vectors", n4, refs, np.float64, 3)
    v3f = wide_floats(np.float32, 3 * N, -140, 120)
    n3 = np.zeros(3 * N, np.float32)
    run("t_normalize_f3", N, v3f, n3)
    refs = []
    for row in v3f.reshape(N, 3):
        l = mp.sqrt(sum(mpf(c) ** 2 for c in row))
        refs.extend([mpf(c) / l for c in row])
    rep.ulps("normalize(float3) over the whole range", n3, refs, np.float32, 3)
    p0 = wide_floats(np.float32, 2 * N, 100, 127)
    p1 = (-p0).astype(np.float32)
    do = np.zeros(N, np.float32)
    run("t_distance_f2", N, p0, p1, do)
    rep.ulps("distance(float2) without overflow of p0-p1", do, [2 * mp.sqrt(mpf(r[0]) ** 2 + mpf(r[1]) ** 2) for r in p0.reshape(N, 2)], np.float32, 3)
    ca, cb = RNG.normal(size=4 * N).astype(np.float32), RNG.normal(size=4 * N).astype(np.float32)
    cr = np.zeros(4 * N, np.float32)
    run("t_cross_f4", N, ca, cb, cr)
    want = np.zeros((N, 4), np.float32)
    want[:, :3] = np.cross(ca.reshape(N, 4)[:, :3].astype(np.float64), cb.reshape(N, 4)[:, :3].astype(np.float64))
    assert np.allclose(cr.reshape(N, 4), want, rtol=1e-5, atol=1e-5)
    rep.record(True, "cross(float4) (w = 0)")

    # integer conversions with saturation (no hooks involved)
    i32 = RNG.integers(-2**31, 2**31, N).astype(np.int32)
    i32[:300] = RNG.integers(-300, 300, 300)
    ucs = np.zeros(N, np.uint8)
    run("t_conv_sat_uc_i", N, i32, ucs)
    rep.exact("convert_uchar_sat(int)", ucs, np.clip(i32, 0, 255))
    u64 = RNG.integers(0, 2**64, N, dtype=np.uint64)
    u64[:300] = RNG.integers(0, 2**31, 300)
    i32o = np.zeros(N, np.int32)
    run("t_conv_sat_i_ul", N, u64, i32o)
    rep.exact("convert_int_sat(ulong)", i32o, np.array([min(int(v), 2**31 - 1) for v in u64]))
    l64 = RNG.integers(-2**63, 2**63, N, dtype=np.int64)
    u64o = np.zeros(N, np.uint64)
    run("t_conv_sat_ul_l", N, l64, u64o)
    rep.exact("convert_ulong_sat(long)", u64o, np.array([max(int(v), 0) for v in l64], np.uint64))
    u8v = RNG.integers(0, 2**32, 8 * N, dtype=np.uint64).astype(np.uint32)
    u8v[:3000] = RNG.integers(0, 40000, 3000)
    s8o = np.zeros(8 * N, np.int16)
    run("t_conv_sat_s8_ui8", N, u8v, s8o)
    rep.exact("convert_short8_sat_rte(uint8)", s8o, np.minimum(u8v, 32767))
    l64b = RNG.integers(-2**63, 2**63, N, dtype=np.int64)
    fo1 = np.zeros(N, np.float32)
    run("t_conv_f_l", N, l64b, fo1)
    rep.exact("convert_float(long) (round to nearest even)", fo1, l64b.astype(np.float32))
    ff = RNG.uniform(-2e9, 2e9, N).astype(np.float32)
    run("t_conv_i_f", N, ff, i32o)
    rep.exact("convert_int(float) (truncation)", i32o, np.trunc(ff).astype(np.int64))

    # common
    c4 = RNG.normal(size=4 * N).astype(np.float32) * 3
    c4o = np.zeros(4 * N, np.float32)
    run("t_clamp_f4s", N, c4, c4o)
    rep.exact("clamp(float4, float, float)", c4o, np.clip(c4, -1, 2))
    sx = RNG.uniform(0, 1, N).astype(np.float32)
    so1 = np.zeros(N, np.float32)
    run("t_smoothstep", N, sx, so1)
    t = np.clip((sx.astype(np.float64) - 0.25) / 0.5, 0, 1)
    assert np.allclose(so1, t * t * (3 - 2 * t), atol=1e-6)
    rep.record(True, "smoothstep(float, float, float)")
    sd = np.array([np.nan, -0.0, 0.0, -3.0, 5.0, -np.inf] * (N // 6))
    sdo = np.zeros(len(sd))
    run("t_sign_d", len(sd), sd, sdo)
    rep.exact("sign(double)", sdo, np.array([0.0, -0.0, 0.0, -1.0, 1.0, -1.0] * (N // 6)))

    # lgamma_r: the sign of gamma(x)
    xg = RNG.uniform(-30, 30, N).astype(np.float32)
    xg[:4] = [0.5, -0.5, -1.5, -2.5]
    sg = np.zeros(N, np.int32)
    og = np.zeros(N, np.float32)
    run("t_lgamma_r", N, xg, sg, og)
    keep = xg != np.round(xg)
    want = np.array([1 if mp.gamma(mpf(v)) > 0 else -1 for v in xg[keep]])
    rep.exact("lgamma_r(float) sign of gamma", sg[keep], want, (xg[keep],))
    rep.ulps("lgamma_r(float) value away from its zeros", og[keep & (np.abs(xg) > 3)],
             [mp.log(abs(mp.gamma(mpf(v)))) for v in xg[keep & (np.abs(xg) > 3)]], np.float32, 16)

    # async copies: each work-group (of one work-item here) copies strided
    src = RNG.integers(-1000, 1000, 1000 * 8).astype(np.int32)
    dst = np.zeros(128 * 8, np.int32)
    run("t_async", 8, src, dst)
    want = np.zeros((8, 128), np.int32)
    for g in range(8):
        want[g, 0::2] = src[1000 * g: 1000 * g + 192: 3] + np.arange(64)
    want[:, 1] = src[63]
    rep.exact("async_work_group_strided_copy both ways, async_work_group_copy, wait_group_events", dst, want.ravel())

    # OpenCL 1.x atomics (one work-item at a time: checks the operation, not atomicity)
    cnt = np.zeros(1, np.int32)
    mx = np.zeros(1, np.uint32)
    lg = np.zeros(1, np.int64)
    fx = np.zeros(1, np.float32)
    run("t_atomics", 1000, cnt, mx, lg, fx)
    want_max = max((i * 2654435761) & 0xffffffff for i in range(1000))
    ok = cnt[0] == 1000 and mx[0] == want_max and lg[0] == sum(i << 33 for i in range(1000)) and fx[0] == 999.0
    rep.record(ok, f"atomic_inc/atomic_max(uint)/atom_add(long)/atomic_xchg(float): {cnt[0]}, {mx[0]}, {lg[0]}, {fx[0]}")


def generic_tests(run, rep):
    x = wide_floats(np.float32, N, -20, 20)
    ip, o = np.zeros(N, np.float32), np.zeros(N, np.float32)
    run("g_fract", N, x, ip, o)
    rep.exact("fract(float, generic float*) [CL3.0]", o, np.minimum(x - np.floor(x), np.float32(float.fromhex('0x1.fffffep-1'))))
    a = wide_floats(np.float64, N, -5, 40)
    b = wide_floats(np.float64, N, -5, 5)
    q, od = np.zeros(N, np.int32), np.zeros(N)
    run("g_remquo", N, a, b, q, od)
    rep.exact("remquo(double, double, generic int*) [CL3.0]", od, np.array([math.remainder(u, v) for u, v in zip(a, b)]))
    v = RNG.normal(size=4 * N).astype(np.float32)
    vo = np.zeros(4 * N, np.float32)
    run("g_vload", N, v, vo)
    rep.exact("vload4/vstore4 through generic pointers [CL3.0]", vo, v * 2)
    c = np.array([0, 7], np.int32)
    f = np.zeros(1, np.float32)
    old = np.zeros(100, np.int32)
    run("g_atomic", 100, c, f, old)
    ok = c[0] == 100 and f[0] == 50.0 and (old == np.arange(100)).all() and c[1] == 0
    rep.record(ok, f"atomic_fetch_add(int, float)/compare_exchange_strong [CL3.0]: {c}, {f[0]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bc")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    lib = find_library(args.bc)
    print(f"library: {lib}")
    return 0 if run_tests(lib, args.verbose) else 1


if __name__ == "__main__":
    sys.exit(main())
