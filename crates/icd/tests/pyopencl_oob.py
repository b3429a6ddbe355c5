"""An off-by-one write through PyOpenCL, unchanged, run with LOCKSTEP_CHECK.

The kernel writes out[i + 1] for every i: the last work-item writes one
element past the end of `out`, a sub-buffer in the middle of a larger
buffer. Checked mode must report the write (with its source line) and skip
it, so the element after the sub-buffer keeps its value. Prints the
elements around the sub-buffer and CHECK SCRIPT DONE; the Rust test reads
stderr for the report.
"""

import numpy as np
import pyopencl as cl

SOURCE = """
__kernel void shift(__global const float *in, __global float *out)
{
    size_t i = get_global_id(0);
    out[i + 1] = in[i] * 2.0f;
}
"""

N = 64  # floats: 256 bytes, a multiple of the sub-buffer alignment

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
mf = cl.mem_flags

src = np.arange(N, dtype=np.float32)
whole_host = np.full(3 * N, -1.0, dtype=np.float32)
d_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=src)
d_whole = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=whole_host)
d_out = d_whole.get_sub_region(N * 4, N * 4)

program = cl.Program(ctx, SOURCE).build()
program.shift(queue, (N,), (16,), d_in, d_out)
queue.finish()

cl.enqueue_copy(queue, whole_host, d_whole)
queue.finish()
before = whole_host[:N]
inside = whole_host[N : 2 * N]
after = whole_host[2 * N :]
print("before untouched:", bool(np.all(before == -1.0)))
print("after untouched:", bool(np.all(after == -1.0)))
print("inside ok:", bool(inside[0] == -1.0 and np.all(inside[1:] == src[:-1] * 2.0)))
print("CHECK SCRIPT DONE")
