#!/usr/bin/env python3
"""Checks that the Lockstep builtin library defines every OpenCL C builtin.

For each language configuration (OpenCL C 1.2, 2.0, 3.0, and 3.0 with the
named-address-space overloads the library is built with), the script

1. parses clang 19's opencl-c.h with clang itself (JSON AST dump) to list
   every declared builtin overload and its mangled name;
2. drops the out-of-scope families and the "core" functions the importer
   maps itself (EXCLUDED / CORE below, printed with --list-excluded);
3. generates a test program with one function per remaining overload that
   calls it with arguments of exactly the declared parameter types, and
   compiles it the way Lockstep compiles user kernels (clang's default
   TableGen builtin declarations, -O0), so the calls carry the mangled
   names real kernels use;
4. links it against lockstep_builtins.bc with llvm-link-19 and lists the
   functions that are still undefined with llvm-nm-19.

It also checks that the library itself only leaves core functions, the
conversion hooks, C libm functions and LLVM intrinsics undefined
(--externals prints that list).

Usage: check_coverage.py [--bc PATH] [--externals] [--list-excluded] [-v]
Without --bc the newest target/*/build/lockstep-frontend-*/out/
lockstep_builtins.bc is used, or the library is compiled into a temporary
directory with the flags from build.rs.
Exit status 0 iff nothing is missing.
"""

import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CRATE = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(CRATE))

CLANG = os.environ.get("LOCKSTEP_CLANG", "clang-19")
LLVM_LINK = os.environ.get("LOCKSTEP_LLVM_LINK", "llvm-link-19")
LLVM_NM = "llvm-nm-19"
LLVM_DIS = "llvm-dis-19"

# Functions the importer maps to IR operations; left undefined on purpose.
CORE = {
    "get_global_id", "get_local_id", "get_group_id", "get_global_size", "get_local_size",
    "get_enqueued_local_size", "get_num_groups", "get_global_offset", "get_work_dim",
    "get_global_linear_id", "get_local_linear_id",
    "barrier", "work_group_barrier", "mem_fence", "read_mem_fence", "write_mem_fence",
    "atomic_work_item_fence",
    "printf",
    # Subgroups: the queries and the core collectives (import/collectives.rs).
    "get_sub_group_size", "get_max_sub_group_size", "get_num_sub_groups",
    "get_enqueued_num_sub_groups", "get_sub_group_id", "get_sub_group_local_id",
    "sub_group_barrier", "sub_group_all", "sub_group_any", "sub_group_non_uniform_all",
    "sub_group_non_uniform_any", "sub_group_ballot", "sub_group_broadcast",
    "sub_group_non_uniform_broadcast", "sub_group_shuffle",
    # Device-side enqueue (import/calls.rs); enqueue.cl defines ndrange_*.
    "enqueue_kernel", "enqueue_marker", "get_default_queue", "retain_event", "release_event",
    "create_user_event", "is_valid_event", "set_user_event_status",
    "capture_event_profiling_info", "get_kernel_work_group_size",
    "get_kernel_preferred_work_group_size_multiple", "get_kernel_sub_group_count_for_ndrange",
    "get_kernel_max_sub_group_size_for_ndrange",
}
# ... and every sub_group_*reduce_* and sub_group_*scan_* (also core).
CORE_RE = re.compile(r"^sub_group_(non_uniform_|clustered_)?(reduce|scan_inclusive|scan_exclusive)_")

# Out of scope: (family, regex on the builtin's name).
EXCLUDED = [
    ("half, depth, mipmapped and MSAA images",
     r"^(read_imageh|write_imageh|get_image_num_mip_levels|get_image_num_samples)"),
    ("work-group collectives", r"^work_group_(all|any|broadcast|reduce_|scan_)"),
    ("kernel clock (cl_khr_kernel_clock)", r"^clock_read_"),
    ("vendor extensions (amd_, intel_, arm_)", r"^(amd_|intel_|arm_)"),
]

# C libm functions clang calls for builtins without an LLVM intrinsic.
LIBM = {f + s for f in ("exp10", "expm1", "log1p", "asin", "acos", "atan", "atan2", "sinh", "cosh",
                        "tanh", "asinh", "acosh", "atanh", "cbrt", "erf", "erfc", "tgamma",
                        "lgamma", "hypot", "remainder", "fmod") for s in ("", "f")}

HOOK_RE = re.compile(r"^_Z\d+__lockstep_convert_[suf]_(rte|rtz|rtp|rtn)(_sat)?[a-zA-Z]+$")

CONFIGS = [
    # name, -cl-std, extra flags
    ("CL1.2", "CL1.2", []),
    ("CL2.0", "CL2.0", []),
    ("CL3.0", "CL3.0", []),
    ("CL3.0+named", "CL3.0", ["-D__opencl_c_named_address_space_builtins=1"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw)


def declared_builtins(std, extra, workdir):
    """(name, mangled, return type, [param types], variadic) per opencl-c.h overload."""
    empty = os.path.join(workdir, "empty.cl")
    open(empty, "w").close()
    out = run([CLANG, "-x", "cl", "-target", "spir64", f"-cl-std={std}", "-cl-no-stdinc",
               "-include", "opencl-c.h", *extra, "-fsyntax-only", "-Xclang", "-ast-dump=json",
               empty]).stdout
    decls = []
    for node in json.loads(out).get("inner", []):
        if node.get("kind") != "FunctionDecl" or node.get("isImplicit"):
            continue
        params = [p["type"]["qualType"] for p in node.get("inner", []) if p.get("kind") == "ParmVarDecl"]
        ret = node["type"]["qualType"].split("(")[0].strip()
        decls.append((node["name"], node.get("mangledName", node["name"]), ret, params,
                      node.get("variadic", False)))
    return decls


def classify(name):
    if name in CORE or CORE_RE.search(name):
        return "core"
    for family, pattern in EXCLUDED:
        if re.search(pattern, name):
            return family
    return None


def test_program(decls):
    """One function per overload, calling it with exactly-typed arguments."""
    lines = ["#pragma OPENCL EXTENSION cl_khr_fp16 : enable",
             "#pragma OPENCL EXTENSION cl_khr_fp64 : enable",
             "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable",
             "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable"]
    for i, (name, _mangled, _ret, params, _var) in enumerate(decls):
        args = []
        body = []
        for j, ty in enumerate(params):
            # The parameter's own top-level __private is implied for locals.
            ty = re.sub(r"\s*__private$", "", ty)
            body.append(f"  {ty} a{j};")
            args.append(f"a{j}")
        lines.append(f"void lockstep_cov_{i}(void) {{")
        lines.extend(body)
        lines.append(f"  {name}({', '.join(args)});")
        lines.append("}")
    return "\n".join(lines) + "\n"


def compile_test(src_text, std, extra, workdir, tag):
    """Compiles the test program like a user kernel; returns (bc path, failing function indices)."""
    src = os.path.join(workdir, f"cov_{tag}.cl")
    bc = os.path.join(workdir, f"cov_{tag}.bc")
    with open(src, "w") as f:
        f.write(src_text)
    cmd = [CLANG, "-x", "cl", "-target", "spir64", "-emit-llvm", "-c", "-O0", "-Xclang",
           "-disable-O0-optnone", "-Xclang", "-finclude-default-header", f"-cl-std={std}",
           *extra, "-w", "-ferror-limit=0", src, "-o", bc]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    failing_lines = set()
    for m in re.finditer(r"^" + re.escape(src) + r":(\d+):\d+: error", proc.stderr, re.M):
        failing_lines.add(int(m.group(1)))
    return (bc if proc.returncode == 0 else None), failing_lines, proc.stderr


def function_index_of_line(src_text):
    """Maps each source line number to the index of the test function containing it."""
    index = {}
    current = None
    for n, line in enumerate(src_text.split("\n"), start=1):
        m = re.match(r"void lockstep_cov_(\d+)\(void\)", line)
        if m:
            current = int(m.group(1))
        index[n] = current
    return index


def called_functions(bc):
    out = run([LLVM_NM, "--undefined-only", "--format=just-symbols", bc]).stdout
    return set(out.split())


def find_library(args, workdir):
    if args.bc:
        return args.bc
    candidates = glob.glob(os.path.join(REPO, "target", "*", "build", "lockstep-frontend-*", "out",
                                        "lockstep_builtins.bc"))
    if candidates:
        return max(candidates, key=os.path.getmtime)
    return build_library(workdir)


def build_library(workdir):
    """Compiles the library like build.rs does (flags parsed from build.rs)."""
    build_rs = open(os.path.join(CRATE, "build.rs")).read()
    flags = re.findall(r'"([^"]*)"', re.search(r"CLANG_FLAGS: &\[&str\] = &\[(.*?)\];", build_rs, re.S).group(1))
    dsts = re.findall(r'"(\w+)"', re.search(r"CONVERT_DESTINATIONS: \[&str; \d+\] =\s*\[(.*?)\];",
                                            build_rs, re.S).group(1))
    top = open(os.path.join(HERE, "lockstep_builtins.cl")).read()
    units = [(u, []) for u in re.findall(r'^#include "(\w+)\.cl"', top, re.M)]
    units += [("convert", [f"-DLS_CONVERT_DST={d}"]) for d in dsts]
    outs = []
    for i, (unit, defs) in enumerate(units):
        out = os.path.join(workdir, f"unit{i}.bc")
        run([CLANG, *flags, *defs, os.path.join(HERE, unit + ".cl"), "-o", out])
        outs.append(out)
    lib = os.path.join(workdir, "lockstep_builtins.bc")
    run([LLVM_LINK, "-o", lib, *outs])
    return lib


def library_externals(lib):
    """(undefined non-intrinsic symbols, intrinsic declarations) of the library."""
    undefined = called_functions(lib)
    ir = run([LLVM_DIS, lib, "-o", "-"]).stdout
    intrinsics = sorted(set(re.findall(r"^declare [^@]*@(llvm\.[\w.]+)\(", ir, re.M)))
    return undefined, intrinsics


def demangled_name(symbol):
    m = re.match(r"_Z(\d+)", symbol)
    if not m:
        return symbol
    n = int(m.group(1))
    start = m.end()
    return symbol[start:start + n]


# Mangled scalar type codes and LLVM types.
TYPE_CODES = {"c": "char", "h": "uchar", "s": "short", "t": "ushort", "i": "int", "j": "uint",
              "l": "long", "m": "ulong", "f": "float", "d": "double", "Dh": "half"}
LLVM_TYPES = {"char": "i8", "uchar": "i8", "short": "i16", "ushort": "i16", "int": "i32", "uint": "i32",
              "long": "i64", "ulong": "i64", "float": "float", "double": "double", "half": "half"}
FLOATS = ("float", "double", "half")
EXACT = {  # destination float type -> sources that convert exactly
    "float": {"char", "uchar", "short", "ushort", "float", "half"},
    "double": {"char", "uchar", "short", "ushort", "int", "uint", "float", "double", "half"},
    "half": {"char", "uchar", "half"},
}


def expected_hook(dst, src, sat, mode):
    """The hook convert_<dst>[_sat][_mode](<src>) must call, or None."""
    if dst in FLOATS:
        if mode in (None, "rte") or src in EXACT[dst]:
            return None
        return f"__lockstep_convert_f_{mode}"
    if src not in FLOATS:
        return None
    letter = "u" if dst.startswith("u") else "s"
    if sat:
        return f"__lockstep_convert_{letter}_{mode or 'rtz'}_sat"
    if mode in (None, "rtz"):
        return None
    return f"__lockstep_convert_{letter}_{mode}"


def check_conversion_hooks(lib):
    """Every scalar convert_* calls exactly the expected hook, with the
    destination type as the call's return type; returns the problems."""
    ir = run([LLVM_DIS, lib, "-o", "-"]).stdout
    problems = []
    checked = 0
    for m in re.finditer(r"^define [^@]*@(_Z\d+convert_(\w+?)(_sat)?(_rt[ezpn])?(c|h|s|t|i|j|l|m|f|d|Dh))\(.*?^\}",
                         ir, re.M | re.S):
        sym, dst, sat, mode, code = m.group(1), m.group(2), bool(m.group(3)), m.group(4), m.group(5)
        if dst not in LLVM_TYPES:
            continue  # a vector conversion (convert_float4...)
        checked += 1
        src = TYPE_CODES[code]
        mode = mode[1:] if mode else None
        want = expected_hook(dst, src, sat, mode)
        calls = re.findall(r"call [^@]*?(\w+) @_Z\d+(__lockstep_convert_\w+?)(?:c|h|s|t|i|j|l|m|f|d|Dh)\(", m.group(0))
        got = [(ret, name) for ret, name in calls]
        if want is None and got:
            problems.append(f"{sym}: calls {got[0][1]} but needs no hook")
        elif want is not None and [n for _, n in got] != [want]:
            problems.append(f"{sym}: calls {[n for _, n in got]}, want {want}")
        elif want is not None and got[0][0] != LLVM_TYPES[dst]:
            problems.append(f"{sym}: {want} returns {got[0][0]}, want {LLVM_TYPES[dst]}")
    return checked, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bc", help="lockstep_builtins.bc to check")
    ap.add_argument("--externals", action="store_true", help="print what the library leaves undefined")
    ap.add_argument("--list-excluded", action="store_true", help="print the excluded builtin names")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every missing overload")
    args = ap.parse_args()

    ok = True
    with tempfile.TemporaryDirectory(prefix="lockstep-cov-") as workdir:
        lib = find_library(args, workdir)
        print(f"library: {lib}")

        # The library's own external references.
        undefined, intrinsics = library_externals(lib)
        core_syms = sorted(s for s in undefined if demangled_name(s) in CORE)
        hooks = sorted(s for s in undefined if HOOK_RE.match(s))
        libm = sorted(s for s in undefined if s in LIBM)
        unexpected = sorted(set(undefined) - set(core_syms) - set(hooks) - set(libm))
        defined = run([LLVM_NM, "--defined-only", "--format=just-symbols", lib]).stdout.split()
        lib_defined = set(defined)
        print(f"library defines {len(defined)} functions; leaves undefined {len(core_syms)} core functions, "
              f"{len(hooks)} conversion hooks, {len(libm)} libm functions, {len(intrinsics)} LLVM intrinsics")
        if args.externals:
            print("  core:", " ".join(core_syms))
            print("  hooks:", " ".join(hooks))
            print("  libm:", " ".join(libm))
            print("  intrinsics:", " ".join(intrinsics))
        checked, problems = check_conversion_hooks(lib)
        print(f"scalar conversions checked for the right hook and return type: {checked}; problems: {len(problems)}")
        for p in problems[:20]:
            print("  " + p)
        if problems:
            ok = False
        if unexpected:
            ok = False
            print(f"  UNEXPECTED undefined symbols in the library: {' '.join(unexpected)}")

        for cfg_name, std, extra in CONFIGS:
            decls = declared_builtins(std, extra, workdir)
            by_class = collections.defaultdict(set)
            wanted = []
            seen = set()
            for d in decls:
                cls = classify(d[0])
                if cls is not None:
                    by_class[cls].add(d[1])
                    continue
                if d[1] in seen:  # the header redeclares a few overloads
                    continue
                seen.add(d[1])
                wanted.append(d)

            src_text = test_program(wanted)
            bc, failing, stderr = compile_test(src_text, std, extra, workdir, cfg_name)
            not_in_tablegen = []
            if bc is None:
                # Overloads opencl-c.h declares but clang's default (TableGen)
                # declarations lack or resolve differently: report, then drop.
                line_fn = function_index_of_line(src_text)
                bad = {line_fn[n] for n in failing if line_fn.get(n) is not None}
                if not bad:
                    print(stderr[-4000:])
                    raise SystemExit(f"{cfg_name}: test program failed to compile")
                not_in_tablegen = [wanted[i] for i in sorted(bad)]
                wanted = [d for i, d in enumerate(wanted) if i not in bad]
                src_text = test_program(wanted)
                bc, failing, stderr = compile_test(src_text, std, extra, workdir, cfg_name)
                if bc is None:
                    print(stderr[-4000:])
                    raise SystemExit(f"{cfg_name}: test program failed to compile")

            called = called_functions(bc)
            linked = os.path.join(workdir, f"linked_{cfg_name}.bc")
            run([LLVM_LINK, "-o", linked, bc, lib])
            still_undefined = called_functions(linked)
            missing = sorted(s for s in called if s in still_undefined and demangled_name(s) not in CORE)
            # Calls whose mangled name differs from opencl-c.h's declaration.
            header_names = {d[1] for d in wanted} | {d[1] for d in not_in_tablegen}
            renamed = sorted(header_names - called)

            # opencl-c.h's own mangled names, checked directly (covers the
            # overloads clang's default declarations lack).
            header_missing = sorted(header_names - lib_defined)

            excluded_total = sum(len(v) for k, v in by_class.items() if k != "core")
            print(f"\n{cfg_name}: opencl-c.h declares {len(set(d[1] for d in decls))} overloads; "
                  f"{len(by_class['core'])} core, {excluded_total} out of scope, "
                  f"{len(wanted) + len(not_in_tablegen)} in scope")
            print(f"  called through clang's default declarations: {len(called)} distinct symbols; "
                  f"defined by the library: {len(called) - len(missing)}; missing: {len(missing)}")
            print(f"  opencl-c.h's mangled names defined by the library: "
                  f"{len(header_names) - len(header_missing)} of {len(header_names)}")
            if header_missing:
                ok = False
                print("  MISSING (opencl-c.h names): " + " ".join(header_missing))
            if not_in_tablegen:
                print(f"  {len(not_in_tablegen)} opencl-c.h overloads do not resolve with clang's default "
                      f"declarations (not callable from user kernels): "
                      + ", ".join(sorted({d[0] for d in not_in_tablegen})))
            if renamed and args.verbose:
                # Which symbol each test function ended up calling.
                ir = run([LLVM_DIS, bc, "-o", "-"]).stdout
                resolved = {}
                for m in re.finditer(r"define [^@]*@lockstep_cov_(\d+)\(.*?\n\}", ir, re.S):
                    callee = re.search(r"call [^@]*@([\w.]+)\(", m.group(0))
                    resolved[wanted[int(m.group(1))][1]] = callee.group(1) if callee else "?"
                print(f"  {len(renamed)} opencl-c.h overloads resolve to a different symbol with clang's "
                      f"default declarations:")
                for h in renamed:
                    print(f"    {h} -> {resolved.get(h, '(not callable)')}")
            for family, _ in EXCLUDED:
                if by_class.get(family):
                    names = sorted({demangled_name(m) for m in by_class[family]})
                    shown = " ".join(names) if args.list_excluded else ""
                    print(f"  excluded {family}: {len(by_class[family])} overloads {shown}".rstrip())
            if missing:
                ok = False
                names = collections.Counter(demangled_name(s) for s in missing)
                print("  MISSING: " + ", ".join(f"{n} ({c})" for n, c in sorted(names.items())))
                if args.verbose:
                    for s in missing:
                        print("    " + s)
    print("\nOK" if ok else "\nFAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
