"""Subgroups through PyOpenCL on the Lockstep platform: the device's
subgroup extensions and limits, clGetKernelSubGroupInfo (every query),
and kernels using ballots, shuffles, reductions and scans whose results
are checked against NumPy with the subgroup size the queries report; a
kernel with intel_reqd_sub_group_size runs at the size it asks for.
Prints "ALL OK" and exits 0 when every check passes."""

import ctypes
import ctypes.util
import sys

import numpy as np
import pyopencl as cl

failures = []


def check(name, got, want):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape == want.shape and np.array_equal(got, want):
        print(f"ok   {name}")
    else:
        failures.append(name)
        print(f"FAIL {name}: got {got!r:.300} want {want!r:.300}", file=sys.stderr)


platforms = [p for p in cl.get_platforms() if p.name == "Lockstep"]
if not platforms:
    sys.exit("FAIL: no platform named Lockstep")
dev = platforms[0].get_devices()[0]
ctx = cl.Context([dev])
queue = cl.CommandQueue(ctx)

exts = dev.extensions.split()
for e in ["cl_khr_subgroup_ballot", "cl_khr_subgroup_shuffle",
          "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_non_uniform_vote",
          "cl_khr_subgroup_non_uniform_arithmetic", "cl_khr_subgroup_clustered_reduce",
          "cl_khr_subgroup_extended_types", "cl_khr_subgroup_rotate", "cl_intel_subgroups",
          "cl_intel_required_subgroup_size"]:
    check(f"extension {e}", e in exts, True)
# Not cl_khr_subgroups: it promises independent forward progress.
check("extension cl_khr_subgroups", "cl_khr_subgroups" in exts, False)
features = [f.name for f in dev.opencl_c_features]
check("feature __opencl_c_subgroups", "__opencl_c_subgroups" in features, True)
check("CL_DEVICE_MAX_NUM_SUB_GROUPS", dev.max_num_sub_groups, dev.max_work_group_size // 4)
check("CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS",
      bool(dev.sub_group_independent_forward_progress), False)
# Queries PyOpenCL does not know, through the loader directly.
libcl = ctypes.CDLL(ctypes.util.find_library("OpenCL") or "libOpenCL.so.1")


def raw_size_t_list(fn, *args):
    size = ctypes.c_size_t()
    assert fn(*args, 0, None, ctypes.byref(size)) == 0
    out = (ctypes.c_size_t * (size.value // ctypes.sizeof(ctypes.c_size_t)))()
    assert fn(*args, size, out, None) == 0
    return list(out)


CL_DEVICE_SUB_GROUP_SIZES_INTEL = 0x4108
check("CL_DEVICE_SUB_GROUP_SIZES_INTEL",
      raw_size_t_list(libcl.clGetDeviceInfo, ctypes.c_void_p(dev.int_ptr),
                      ctypes.c_uint(CL_DEVICE_SUB_GROUP_SIZES_INTEL)),
      [4, 8, 16, 32])


def compile_sub_group_size(kernel):
    return raw_size_t_list(libcl.clGetKernelSubGroupInfo, ctypes.c_void_p(kernel.int_ptr),
                           ctypes.c_void_p(dev.int_ptr), ctypes.c_uint(0x410A),
                           ctypes.c_size_t(0), None)[0]

SRC = r"""
kernel void sg(global const int *x, global int *out) {
  size_t g = get_global_id(0);
  int v = x[g];
  global int *o = out + 8 * g;
  uint lid = get_sub_group_local_id();
  uint n = get_sub_group_size();
  o[0] = get_max_sub_group_size();
  o[1] = get_sub_group_id();
  o[2] = sub_group_ballot(v > 0).x;
  o[3] = sub_group_shuffle(v, n - 1 - lid);
  o[4] = sub_group_reduce_add(v);
  o[5] = sub_group_scan_exclusive_max(v);
  o[6] = sub_group_reduce_min(v);
  o[7] = (lid ^ 1u) < n ? sub_group_shuffle_xor(v, 1u) : -1;
}

__attribute__((intel_reqd_sub_group_size(8)))
kernel void sg8(global int *out) {
  out[get_global_id(0)] = get_sub_group_size() * 100 + get_sub_group_local_id();
}
"""
# The khr subgroup functions are OpenCL C 2.0 and later (clBuildProgram
# defaults to OpenCL C 1.2).
prg = cl.Program(ctx, SRC).build(options=["-cl-std=CL3.0"])
k = prg.sg
info = cl.kernel_sub_group_info
LOCAL = 48
W = k.get_sub_group_info(dev, info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, (LOCAL,))
print("subgroup size:", W)
check("W is a gang width", W in (4, 8, 16, 32), True)
check("MAX_SUB_GROUP_SIZE_FOR_NDRANGE (3, 1, 1)",
      k.get_sub_group_info(dev, info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, (3, 1, 1)), 3)
check("SUB_GROUP_COUNT_FOR_NDRANGE",
      k.get_sub_group_info(dev, info.SUB_GROUP_COUNT_FOR_NDRANGE, (LOCAL,)), -(-LOCAL // W))
check("SUB_GROUP_COUNT_FOR_NDRANGE (8, 8)",
      k.get_sub_group_info(dev, info.SUB_GROUP_COUNT_FOR_NDRANGE, (8, 8)), -(-64 // W))
local = k.get_sub_group_info(dev, info.LOCAL_SIZE_FOR_SUB_GROUP_COUNT, 3)
check("LOCAL_SIZE_FOR_SUB_GROUP_COUNT", list(local), [3 * W])
check("MAX_NUM_SUB_GROUPS", k.get_sub_group_info(dev, info.MAX_NUM_SUB_GROUPS),
      -(-dev.max_work_group_size // W))
check("COMPILE_NUM_SUB_GROUPS", k.get_sub_group_info(dev, info.COMPILE_NUM_SUB_GROUPS), 0)
check("COMPILE_SUB_GROUP_SIZE_INTEL", compile_sub_group_size(k), 0)

N = 96
rng = np.random.default_rng(20)
x = rng.integers(-1000, 1000, N).astype(np.int32)
mf = cl.mem_flags
dx = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
dout = cl.Buffer(ctx, mf.WRITE_ONLY, 8 * N * 4)
k(queue, (N,), (LOCAL,), dx, dout)
got = np.empty(8 * N, np.int32)
cl.enqueue_copy(queue, got, dout)
want = np.zeros(8 * N, np.int64)
for g0 in range(0, N, LOCAL):
    for s0 in range(0, LOCAL, W):
        lanes = list(range(g0 + s0, g0 + min(LOCAL, s0 + W)))
        n = len(lanes)
        vs = x[lanes].astype(np.int64)
        ballot = sum(1 << i for i in range(n) if vs[i] > 0)
        for i, g in enumerate(lanes):
            want[8 * g:8 * g + 8] = [
                min(W, LOCAL), s0 // W, ballot if ballot < 2**31 else ballot - 2**32,
                vs[n - 1 - i], vs.sum(), vs[:i].max() if i else -2**31, vs.min(),
                vs[i ^ 1] if (i ^ 1) < n else -1]
check("ballot/shuffle/reduce/scan kernel", got, want.astype(np.int32))

k8 = prg.sg8
check("intel_reqd_sub_group_size: MAX_SUB_GROUP_SIZE_FOR_NDRANGE",
      k8.get_sub_group_info(dev, info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, (32,)), 8)
check("intel_reqd_sub_group_size: COMPILE_SUB_GROUP_SIZE_INTEL", compile_sub_group_size(k8), 8)
check("intel_reqd_sub_group_size: in CL_KERNEL_ATTRIBUTES",
      "intel_reqd_sub_group_size(8)" in k8.attributes, True)
d8 = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * 36)
k8(queue, (36,), (12,), d8)
got8 = np.empty(36, np.int32)
cl.enqueue_copy(queue, got8, d8)
want8 = [(8 if (i % 12) < 8 else 4) * 100 + (i % 12) % 8 for i in range(36)]
check("intel_reqd_sub_group_size(8) runs subgroups of 8", got8, want8)

if failures:
    print("FAILED:", ", ".join(failures))
    sys.exit(1)
print("ALL OK")
