"""Two kernels with bugs only the interpreter's checked mode finds, run
unchanged through PyOpenCL with LOCKSTEP_CHECK=full.

`last` stays uninitialized (an `undef` after mem2reg) for the work-item
whose row has no positive element, and is written to `out`; in
`diverge`, half of each work-group reaches a barrier the other half
returns without. Both are reported on stderr and both launches complete:
prints the results and CHECK SCRIPT DONE; the Rust test reads stderr.
"""

import numpy as np
import pyopencl as cl

SOURCE = """
__kernel void last_positive(__global const int *in, __global int *out, int n)
{
    size_t i = get_global_id(0);
    int last;
    for (int k = 0; k < n; k++)
        if (in[i * n + k] > 0)
            last = k;
    out[i] = last;
}

__kernel void diverge(__global int *out)
{
    size_t l = get_local_id(0);
    if (l < 4)
        barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (int)l;
}
"""

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
mf = cl.mem_flags
prg = cl.Program(ctx, SOURCE).build()

rows = np.arange(-3, 29, dtype=np.int32)
out = np.zeros(8, dtype=np.int32)
d_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=rows)
d_out = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
prg.last_positive(queue, (8,), (4,), d_in, d_out, np.int32(4))
cl.enqueue_copy(queue, out, d_out)
print("rows 1-7:", out[1:].tolist())

ids = np.full(16, -1, dtype=np.int32)
d_ids = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=ids)
prg.diverge(queue, (16,), (8,), d_ids)
cl.enqueue_copy(queue, ids, d_ids)
queue.finish()
print("diverge:", ids.tolist())
print("CHECK SCRIPT DONE")
