#!/usr/bin/env python3
"""Runs Khronos OpenCL-CTS binaries subtest by subtest on one OpenCL platform.

Each subtest is its own process (`test_basic astype`), killed with its process
group after a timeout, so one crash or hang costs that subtest only. The
harness's JSON results file (CL_CONFORMANCE_RESULTS_FILENAME) says pass, fail
or skip; a process killed by a signal is a crash, one still running at the
timeout a timeout, and one that exits without writing results (the harness
could not start: no platform, a bad argument) an error.

Writes a Markdown table (counts per binary, then every subtest that did not
pass with its time and the last lines of its output), a TSV of every subtest
beside it, and each subtest's full output under --logs.

    run.py --build BUILD_DIR --out cts/results/latest.md basic api compiler
    run.py ... bruteforce:-w     # arguments after ':' go to every subtest
    run.py ... --only 'basic/astype,api/*timer*'
"""

import argparse
import fnmatch
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = ("pass", "fail", "crash", "timeout", "skip", "error")


def find_binary(build: Path, name: str) -> Path:
    """The executable `test_NAME` somewhere under the CMake build directory."""
    exe = f"test_{name}"
    for root, _dirs, files in os.walk(build):
        if exe in files:
            path = Path(root) / exe
            if os.access(path, os.X_OK):
                return path
    sys.exit(f"cts: {exe} is not under {build} (build it: make cts CTS_TESTS={name})")


def list_subtests(exe: Path, env: dict) -> list:
    """The binary's subtest names, as its --list prints them (one per line)."""
    out = subprocess.run(
        [str(exe), "--list"], env=env, capture_output=True, text=True, timeout=60
    )
    names = [line.strip() for line in out.stdout.splitlines() if line.startswith("\t")]
    if out.returncode != 0 or not names:
        sys.exit(f"cts: {exe} --list failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    return names


def run_subtest(exe: Path, name: str, args: list, env: dict, timeout: float, log: Path):
    """Runs one subtest; (result, seconds, detail)."""
    with tempfile.TemporaryDirectory() as tmp:
        results = Path(tmp) / "results.json"
        env = dict(env, CL_CONFORMANCE_RESULTS_FILENAME=str(results))
        start = time.monotonic()
        with open(log, "wb") as out:
            # From the binary's directory, as the CTS's own scripts run
            # it: some subtests read files beside it (spirv_bin/, include
            # directories).
            proc = subprocess.Popen(
                [str(exe), *args, name],
                cwd=exe.parent,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            try:
                code = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                return "timeout", time.monotonic() - start, f"still running after {timeout:.0f} s"
        seconds = time.monotonic() - start
        if code < 0:
            return "crash", seconds, signal.Signals(-code).name
        try:
            status = json.loads(results.read_text())["results"][name]
        except (OSError, ValueError, KeyError):
            return "error", seconds, f"exit {code}, no results written"
        if status == "pass" and code != 0:
            return "fail", seconds, f"reported pass but exited {code}"
        return status, seconds, "" if status == "pass" else f"exit {code}"


# The harness's own closing lines, which say nothing about why.
HARNESS_LINES = re.compile(r"^(Saving results|PASSED|FAILED \d+ of|FAILED (sub-)?test\.|\S+ FAILED$)")
# Lines that say why a subtest did not pass.
REASON = re.compile(r"error|fail|not supported|skipping|mismatch|invalid|expected", re.I)


def reason(log: Path, lines: int) -> str:
    """The last `lines` lines of a log that say why, joined for a table cell."""
    text = log.read_bytes().decode("utf-8", "replace").splitlines()
    text = [t.strip() for t in text if t.strip() and not HARNESS_LINES.match(t.strip())]
    chosen = [t for t in text if REASON.search(t)][-lines:] or text[-lines:]
    cell = " / ".join(chosen).replace("|", "\\|")
    return cell[:300] + ("…" if len(cell) > 300 else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binaries", nargs="+", help="CTS binaries without test_ (basic, api, bruteforce:-w)")
    ap.add_argument("--build", type=Path, required=True, help="the CTS's CMake build directory")
    ap.add_argument("--out", type=Path, required=True, help="Markdown table to write (.tsv beside it)")
    ap.add_argument("--logs", type=Path, help="per-subtest output (default: BUILD/logs)")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per subtest (120)")
    ap.add_argument("--only", default="", help="comma-separated BINARY/SUBTEST patterns (fnmatch)")
    ap.add_argument("--platform", default="Lockstep", help="the platform's name, for the table")
    opts = ap.parse_args()

    env = dict(os.environ)
    patterns = [p for p in opts.only.split(",") if p]
    logs = opts.logs or opts.build / "logs"
    rows = []  # (binary, subtest, result, seconds, detail, log)
    started = time.monotonic()
    for spec in opts.binaries:
        binary, _, extra = spec.partition(":")
        args = [a for a in extra.split(",") if a]
        exe = find_binary(opts.build, binary)
        names = list_subtests(exe, env)
        if patterns:
            names = [n for n in names if any(fnmatch.fnmatch(f"{binary}/{n}", p) for p in patterns)]
        (logs / binary).mkdir(parents=True, exist_ok=True)
        for i, name in enumerate(names, 1):
            log = logs / binary / f"{name}.log"
            result, seconds, detail = run_subtest(exe, name, args, env, opts.timeout, log)
            print(f"[{binary} {i}/{len(names)}] {name}: {result} ({seconds:.1f} s)", flush=True)
            rows.append((binary, name, result, seconds, detail, log))

    write_tables(opts, rows, time.monotonic() - started)


def command_line() -> str:
    """How this table was made: the run.py command with the platform's
    vendors directory (`make cts` runs it the same way), to run it again."""
    vendors = os.environ.get("OCL_ICD_VENDORS", "")
    env = f"OCL_ICD_VENDORS={vendors} " if vendors else ""
    args = " ".join(sys.argv[1:])
    return f"`{env}cts/run.py {args}`"


def write_tables(opts, rows, total_seconds):
    binaries = list(dict.fromkeys(r[0] for r in rows))
    md = [
        f"# OpenCL-CTS on {opts.platform}",
        "",
        f"One process per subtest, {opts.timeout:.0f} s limit; {len(rows)} subtests "
        f"in {total_seconds / 60:.1f} min. Written by {command_line()}.",
        "",
        "| binary | subtests | " + " | ".join(RESULTS) + " |",
        "|---|---:|" + "---:|" * len(RESULTS),
    ]
    for b in binaries:
        mine = [r for r in rows if r[0] == b]
        counts = [sum(1 for r in mine if r[2] == res) for res in RESULTS]
        md.append(f"| test_{b} | {len(mine)} | " + " | ".join(map(str, counts)) + " |")
    counts = [sum(1 for r in rows if r[2] == res) for res in RESULTS]
    md.append(f"| **all** | {len(rows)} | " + " | ".join(map(str, counts)) + " |")
    md += ["", "## Subtests that did not pass", "", "| subtest | result | s | detail | last output |", "|---|---|---:|---|---|"]
    for b, name, result, seconds, detail, log in rows:
        if result != "pass":
            md.append(f"| {b}/{name} | {result} | {seconds:.1f} | {detail} | {reason(log, 2)} |")
    opts.out.parent.mkdir(parents=True, exist_ok=True)
    opts.out.write_text("\n".join(md) + "\n")
    tsv = opts.out.with_suffix(".tsv")
    tsv.write_text(
        "binary\tsubtest\tresult\tseconds\n"
        + "".join(f"test_{b}\t{n}\t{res}\t{s:.1f}\n" for b, n, res, s, _d, _l in rows)
    )
    print("\n".join(md[4 : 7 + len(binaries)]))
    print(f"cts: wrote {opts.out} and {tsv}")


if __name__ == "__main__":
    main()
