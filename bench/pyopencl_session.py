#!/usr/bin/env python3
"""A typical PyOpenCL session, for the cold-start benchmark of `make bench`.

    python3 bench/pyopencl_session.py PLATFORM

PLATFORM is a case-insensitive part of the platform's name (lockstep,
portable, intel). Elementwise `a + b` and `a * 2 + b`, a comparison, `sum`,
`dot`, `min` and `max`, a prefix sum, `zeros` of 256 MB and a bitonic sort,
each checked against NumPy; prints `SESSION OK` at the end. The benchmark
runs it in fresh processes with every cache off (PYOPENCL_NO_CACHE, and the
runtimes' own), so most of its time is building programs.
"""
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
from pyopencl.bitonic_sort import BitonicSort
from pyopencl.scan import InclusiveScanKernel


def main():
    want = sys.argv[1].lower()
    devices = [
        d
        for p in cl.get_platforms()
        if want in p.name.lower()
        for d in p.get_devices(device_type=cl.device_type.CPU)
    ]
    if not devices:
        sys.exit(f"no CPU device on a platform named like '{want}'")
    ctx = cl.Context(devices[:1])
    queue = cl.CommandQueue(ctx)
    rng = np.random.default_rng(21)
    n = 1 << 20
    ha = rng.random(n, dtype=np.float32)
    hb = rng.random(n, dtype=np.float32)
    a = cla.to_device(queue, ha)
    b = cla.to_device(queue, hb)

    def close(got, expected, what):
        if not np.allclose(got, expected, rtol=1e-4, atol=1e-3):
            sys.exit(f"{what}: wrong result")

    close((a + b).get(), ha + hb, "a + b")
    close((a * 2 + b).get(), ha * 2 + hb, "a * 2 + b")
    if not np.array_equal((a > b).get().astype(bool), ha > hb):
        sys.exit("a > b: wrong result")
    close(cla.sum(a).get(), ha.sum(dtype=np.float64), "sum")
    close(cla.dot(a, b).get(), np.dot(ha.astype(np.float64), hb), "dot")
    close(cla.min(a).get(), ha.min(), "min")
    close(cla.max(a).get(), ha.max(), "max")

    hi = rng.integers(0, 100, n, dtype=np.int32)
    cumsum = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
    i = cla.to_device(queue, hi)
    cumsum(i)
    if not np.array_equal(i.get(), np.cumsum(hi, dtype=np.int32)):
        sys.exit("cumsum: wrong result")

    zeros = cla.zeros(queue, (256 << 20) // 4, np.float32)
    if zeros[-4:].get().any():
        sys.exit("zeros: not zero")
    del zeros

    hs = rng.random(1 << 16, dtype=np.float32)
    s = cla.to_device(queue, hs)
    sorted_s, _ = BitonicSort(ctx)(s, queue=queue)
    if not np.array_equal(sorted_s.get(), np.sort(hs)):
        sys.exit("bitonic sort: wrong result")
    queue.finish()
    print("SESSION OK")


if __name__ == "__main__":
    main()
