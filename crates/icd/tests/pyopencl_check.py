"""PyOpenCL on the Lockstep platform (selected by name): array arithmetic,
reductions, scans, radix sort, elementwise kernels over complex and double
types, and a program binary round trip; every result compared with NumPy.
Prints "ALL OK" and exits 0 when every check passes."""

import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clmath as clmath
from pyopencl.algorithm import RadixSort
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import ExclusiveScanKernel, InclusiveScanKernel

N = 20000
failures = []


def check(name, got, want, rtol=1e-5, atol=1e-6):
    got = np.asarray(got)
    want = np.asarray(want)
    ok = got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=atol)
    if not ok:
        failures.append(name)
        print(f"FAIL {name}: got {got!r:.200} want {want!r:.200}", file=sys.stderr)
    else:
        print(f"ok   {name}")


def lockstep_context():
    platforms = [p for p in cl.get_platforms() if p.name == "Lockstep"]
    if not platforms:
        sys.exit("FAIL: no platform named Lockstep: " + str([p.name for p in cl.get_platforms()]))
    devices = platforms[0].get_devices()
    assert devices[0].type == cl.device_type.CPU
    return cl.Context(devices)


ctx = lockstep_context()
queue = cl.CommandQueue(ctx)
dev = ctx.devices[0]
print("device:", dev.name, "| OpenCL C:", dev.opencl_c_version, "| CUs:", dev.max_compute_units)

rng = np.random.default_rng(1234)
a = rng.standard_normal(N).astype(np.float32)
b = rng.standard_normal(N).astype(np.float32)
da, db = cla.to_device(queue, a), cla.to_device(queue, b)

# pyopencl.array arithmetic
check("a + b", (da + db).get(), a + b)
check("a * b - 2", (da * db - 2).get(), a * b - 2)
check("a / (|b| + 1)", (da / (abs(db) + 1)).get(), a / (np.abs(b) + 1))
check("exp(a/4)", clmath.exp(da / 4).get(), np.exp(a / 4), rtol=1e-5)
check("sqrt(|a|)", clmath.sqrt(abs(da)).get(), np.sqrt(np.abs(a)))
check("where(a > b)", cla.if_positive(da - db, da, db).get(), np.where(a - b > 0, a, b))

# reductions
check("sum", cla.sum(da).get(), a.sum(dtype=np.float64), rtol=1e-4, atol=1e-3)
check("dot", cla.dot(da, db).get(), np.dot(a.astype(np.float64), b), rtol=1e-4, atol=1e-3)
check("min", cla.min(da).get(), a.min())
check("max", cla.max(da).get(), a.max())
ints = rng.integers(-1000, 1000, N).astype(np.int32)
di = cla.to_device(queue, ints)
check("int sum", cla.sum(di).get(), ints.sum())
check("int max", cla.max(di).get(), ints.max())
sumsq = ReductionKernel(ctx, np.float64, neutral="0", reduce_expr="a+b",
                        map_expr="(double)x[i]*(double)x[i]", arguments="__global const float *x")
check("ReductionKernel sum of squares", sumsq(da).get(), np.sum(a.astype(np.float64) ** 2), rtol=1e-9)

# scans
small = rng.integers(0, 100, N).astype(np.int32)
ds = cla.to_device(queue, small)
inc = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
exc = ExclusiveScanKernel(ctx, np.int32, "a+b", "0")
out = ds.copy()
inc(out)
check("inclusive cumsum", out.get(), np.cumsum(small))
out = ds.copy()
exc(out)
check("exclusive cumsum", out.get(), np.concatenate([[0], np.cumsum(small)[:-1]]))
dsf = cla.to_device(queue, a.astype(np.float64))
incf = InclusiveScanKernel(ctx, np.float64, "a+b", neutral="0")
outf = dsf.copy()
incf(outf)
check("inclusive cumsum (double)", outf.get(), np.cumsum(a.astype(np.float64)), rtol=1e-9, atol=1e-9)

# radix sort
keys = rng.integers(0, 2**31 - 1, N).astype(np.uint32)
sort = RadixSort(ctx, "uint *keys", key_expr="keys[i]", sort_arg_names=["keys"],
                 key_dtype=np.uint32)
(sorted_keys,), _ = sort(cla.to_device(queue, keys), key_bits=32)
check("radix sort", sorted_keys.get(), np.sort(keys))

# elementwise kernels over complex and double
z1 = (rng.standard_normal(N) + 1j * rng.standard_normal(N)).astype(np.complex128)
z2 = (rng.standard_normal(N) + 1j * rng.standard_normal(N)).astype(np.complex128)
dz1, dz2 = cla.to_device(queue, z1), cla.to_device(queue, z2)
check("complex128 a * b", (dz1 * dz2).get(), z1 * z2, rtol=1e-12)
check("complex128 a + b", (dz1 + dz2).get(), z1 + z2, rtol=1e-12)
check("complex128 a / b", (dz1 / dz2).get(), z1 / z2, rtol=1e-10)
c64 = z1.astype(np.complex64)
dc64 = cla.to_device(queue, c64)
check("complex64 conj * 2", (dc64.conj() * 2).get(), np.conj(c64) * 2, rtol=1e-5)
cmul = ElementwiseKernel(ctx, "cdouble_t *out, const cdouble_t *x, const cdouble_t *y, double s",
                         "out[i] = cdouble_rmul(s, cdouble_mul(x[i], cdouble_conj(y[i])))",
                         "cmul", preamble="#include <pyopencl-complex.h>")
dout = cla.empty_like(dz1)
cmul(dout, dz1, dz2, np.float64(0.5))
check("ElementwiseKernel complex", dout.get(), 0.5 * z1 * np.conj(z2), rtol=1e-12)
x64 = rng.standard_normal(N)
dx64 = cla.to_device(queue, x64)
axpb = ElementwiseKernel(ctx, "double a, const double *x, double b, double *y",
                         "y[i] = a * x[i] + b", "axpb")
dy64 = cla.empty_like(dx64)
axpb(np.float64(3.0), dx64, np.float64(-1.5), dy64)
check("ElementwiseKernel double", dy64.get(), 3.0 * x64 - 1.5, rtol=1e-14)

# a program with local memory, and its binary loaded back without source
src = """
kernel void block_sum(global const float *x, global float *out, local float *tmp) {
    size_t l = get_local_id(0);
    tmp[l] = x[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) out[get_group_id(0)] = tmp[0];
}
"""
prg = cl.Program(ctx, src).build()
binary = prg.get_info(cl.program_info.BINARIES)[0]
prg2 = cl.Program(ctx, [dev], [binary]).build()
wg = 128
dblk = cla.empty(queue, N // wg * 0 + (N - N % wg) // wg, np.float32)
prg2.block_sum(queue, ((N - N % wg),), (wg,), da.data, dblk.data, cl.LocalMemory(wg * 4))
check("kernel from binary, local memory", dblk.get(),
      a[: N - N % wg].reshape(-1, wg).sum(axis=1), rtol=1e-4, atol=1e-4)

if failures:
    print(f"{len(failures)} checks failed: {failures}", file=sys.stderr)
    sys.exit(1)
print("ALL OK")
