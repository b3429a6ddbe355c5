#!/usr/bin/env python3
"""(Re)generate NAME.sim and NAME.ref (and NAME.options) for the kernels
described by the Python references in refs_<category>.py.

Usage: gen_refs.py [CATEGORY ...] [-k NAME]

Every reference module defines CATEGORY (the directory under tests/kernels/)
and functions named k_<something>() returning a simref.Kernel.  The .cl files
are hand-written and must already exist; the .sim/.ref files are written from
the same description so the inputs and expected outputs always agree.
"""
import importlib
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import sim_pocl  # noqa: E402  (for the range emulation cross-check)
import simref  # noqa: E402

MODULES = ["refs_elementwise", "refs_vectors", "refs_math", "refs_memory", "refs_enqueue"]


def kernels_of(mod):
    for name in dir(mod):
        if name.startswith("k_"):
            yield getattr(mod, name)


def main(argv):
    only = None
    cats = []
    i = 1
    while i < len(argv):
        if argv[i] == "-k":
            only = argv[i + 1]
            i += 2
        else:
            cats.append(argv[i])
            i += 1
    total = 0
    for mname in MODULES:
        try:
            mod = importlib.import_module(mname)
        except ModuleNotFoundError as e:
            if e.name != mname:
                raise
            continue
        if cats and mod.CATEGORY not in cats:
            continue
        outdir = os.path.join(HERE, "..", mod.CATEGORY)
        os.makedirs(outdir, exist_ok=True)
        for fn in kernels_of(mod):
            k = fn()
            if only and k.name != only:
                continue
            clpath = os.path.join(outdir, k.clfile)
            assert os.path.exists(clpath), "missing " + clpath
            for a in k.args:
                if a.init == "range":
                    dt = simref.BY_NAME[a.tname]
                    emu = sim_pocl.make_range(a.range_, dt, a.size, False)
                    assert np.array_equal(emu, a.data), (k.name, a.name)
            with open(os.path.join(outdir, k.name + ".sim"), "w") as f:
                f.write(k.sim_text())
            with open(os.path.join(outdir, k.name + ".ref"), "w") as f:
                f.write("\n".join(k.ref_lines()) + "\n")
            optpath = os.path.join(outdir, k.name + ".options")
            if k.options:
                with open(optpath, "w") as f:
                    f.write(k.options + "\n")
            elif os.path.exists(optpath):
                os.remove(optpath)
            total += 1
    print("generated %d kernels" % total)


if __name__ == "__main__":
    main(sys.argv)
