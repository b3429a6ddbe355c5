#!/usr/bin/env python3
"""Bar chart of a lockstep-bench results file: per kernel, the time on
Lockstep, pocl, Intel's OpenCL CPU runtime and native C (log scale), and
Lockstep's speedup over pocl and over Intel (their time / Lockstep's).
A platform that did not run leaves its bars out and says so in the legend.

usage: plot.py RESULTS.json OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NAN = float("nan")


def main():
    src, out = sys.argv[1], sys.argv[2]
    with open(src) as f:
        data = json.load(f)
    kernels = data["kernels"]
    names = [k["name"] for k in kernels]
    m = data["machine"]

    def best(entry):
        return entry["best_ms"] if entry else NAN

    def num(x):
        return NAN if x is None else x

    def ran(key):
        return any(k.get(key) for k in kernels)

    cpu = m.get("lockstep_cpu")
    lockstep_label = "Lockstep (SIMD engine" + (f", {cpu}" if cpu else "") + \
        f", width {m['lockstep_simd_width']})"
    series = [
        (lockstep_label, [best(k["lockstep"]) for k in kernels], "#1f77b4"),
        ("pocl" if ran("pocl") else "pocl (not available)",
         [best(k.get("pocl")) for k in kernels], "#ff7f0e"),
        ("Intel OpenCL CPU runtime" if ran("intel") else "Intel (not available)",
         [best(k.get("intel")) for k in kernels], "#9467bd"),
        ("native C (OpenMP / intrinsics)", [num(k["native_best_ms"]) for k in kernels], "#2ca02c"),
    ]
    speedups = [
        ("pocl", [num(k.get("speedup_vs_pocl")) for k in kernels],
         data.get("geomean_speedup_vs_pocl"), "#ff7f0e"),
        ("Intel", [num(k.get("speedup_vs_intel")) for k in kernels],
         data.get("geomean_speedup_vs_intel"), "#9467bd"),
    ]

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(max(12, 0.9 * len(names)), 9),
                                   height_ratios=[3, 2])
    x = list(range(len(names)))
    w = 0.8 / len(series)
    for i, (label, values, color) in enumerate(series):
        offset = (i - (len(series) - 1) / 2) * w
        ax1.bar([j + offset for j in x], values, w, label=label, color=color)
    ax1.set_yscale("log")
    ax1.set_ylabel("ms (best run, log scale, lower is better)")
    ax1.set_xticks(x)
    ax1.set_xticklabels(names, rotation=30, ha="right")
    for i, k in enumerate(kernels):
        if not k["ok"]:
            ax1.annotate("FAILED", (i, 1), xycoords=("data", "axes fraction"), ha="center",
                         va="top", color="red", fontsize=8)
    intel_arch = m.get("intel_target_arch")
    ax1.set_title(f"lockstep-bench: {m['cpu']}, {m['cores']} cores, Lockstep {cpu or ''} "
                  f"width {m['lockstep_simd_width']}, native {m['native_isa']}"
                  + (f", Intel arch {intel_arch}" if intel_arch else "")
                  + f", load {m['load_average_start']}", fontsize=10)
    ax1.legend(fontsize=8)

    w2 = 0.8 / len(speedups)
    titles = []
    for i, (who, values, geo, color) in enumerate(speedups):
        offset = (i - (len(speedups) - 1) / 2) * w2
        xs = [j + offset for j in x]
        edge = ["black" if s == s and s < 1 else color for s in values]
        ax2.bar(xs, values, w2, color=color, edgecolor=edge,
                label=f"over {who}" + (f" (geomean {geo:.2f}x)" if geo else " (did not run)"))
        for xi, s in zip(xs, values):
            if s == s:
                ax2.annotate(f"{s:.2f}", (xi, s), ha="center", va="bottom", fontsize=6)
        if geo:
            titles.append(f"{who} {geo:.2f}x")
    ax2.axhline(1.0, color="black", linewidth=0.8)
    ax2.set_ylabel("Lockstep speedup (their ms / Lockstep ms)")
    ax2.set_yscale("log")
    ax2.set_xticks(x)
    ax2.set_xticklabels(names, rotation=30, ha="right")
    ax2.set_title("Lockstep's speedup, higher is better; below 1: slower"
                  + (f" (geomean: {', '.join(titles)})" if titles else ""), fontsize=10)
    ax2.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"chart: {out}")


if __name__ == "__main__":
    main()
