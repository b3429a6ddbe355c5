"""Two corpus kernels with bugs only the interpreter's checked mode finds
(tests/kernels/checked/), run unchanged through PyOpenCL with
LOCKSTEP_CHECK=full.

In uninit_value, `last` stays uninitialized (an `undef` after mem2reg) for
the work-item whose row has no positive element, and is written to `out`;
in barrier_divergence, half of each work-group reaches a barrier the other
half returns without. Both are reported on stderr and both launches
complete: prints the results and CHECK SCRIPT DONE; the Rust test reads
stderr.
"""

from pathlib import Path

import numpy as np
import pyopencl as cl

CHECKED = Path(__file__).resolve().parents[3] / "tests" / "kernels" / "checked"
SOURCE = "".join((CHECKED / f"{name}.cl").read_text() for name in ["uninit_value", "barrier_divergence"])

ctx = cl.create_some_context(interactive=False)
queue = cl.CommandQueue(ctx)
mf = cl.mem_flags
prg = cl.Program(ctx, SOURCE).build()

rows = np.arange(-3, 29, dtype=np.int32)
out = np.zeros(8, dtype=np.int32)
d_in = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=rows)
d_out = cl.Buffer(ctx, mf.WRITE_ONLY, out.nbytes)
prg.uninit_value(queue, (8,), (4,), d_in, d_out, np.int32(4))
cl.enqueue_copy(queue, out, d_out)
print("rows 1-7:", out[1:].tolist())

ids = np.full(16, -1, dtype=np.int32)
d_ids = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=ids)
prg.barrier_divergence(queue, (16,), (8,), d_ids)
cl.enqueue_copy(queue, ids, d_ids)
queue.finish()
print("diverge:", ids.tolist())
print("CHECK SCRIPT DONE")
