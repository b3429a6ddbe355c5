#!/usr/bin/env python3
"""Bar chart of a lockstep-bench results file: per kernel, the time on
Lockstep, pocl and native C (log scale), and Lockstep's speedup over pocl.

usage: plot.py RESULTS.json OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    src, out = sys.argv[1], sys.argv[2]
    with open(src) as f:
        data = json.load(f)
    kernels = data["kernels"]
    names = [k["name"] for k in kernels]

    def best(entry):
        return entry["best_ms"] if entry else float("nan")

    ls = [best(k["lockstep"]) for k in kernels]
    pocl = [best(k["pocl"]) for k in kernels]
    native = [k["native_best_ms"] if k["native_best_ms"] is not None else float("nan") for k in kernels]
    speedup = [k["speedup_vs_pocl"] if k["speedup_vs_pocl"] is not None else float("nan") for k in kernels]

    fig, (ax1, ax2) = plt.subplots(2, 1, figsize=(12, 8.5), height_ratios=[3, 2])
    x = range(len(names))
    w = 0.27
    ax1.bar([i - w for i in x], ls, w, label="Lockstep (SIMD engine)", color="#1f77b4")
    ax1.bar(list(x), pocl, w, label="pocl", color="#ff7f0e")
    ax1.bar([i + w for i in x], native, w, label="native C (OpenMP / intrinsics)", color="#2ca02c")
    ax1.set_yscale("log")
    ax1.set_ylabel("ms (best run, log scale, lower is better)")
    ax1.set_xticks(list(x))
    ax1.set_xticklabels(names, rotation=20)
    for i, k in enumerate(kernels):
        if not k["ok"]:
            ax1.annotate("FAILED", (i, 1), xycoords=("data", "axes fraction"), ha="center",
                         va="top", color="red", fontsize=8)
    m = data["machine"]
    ax1.set_title(f"lockstep-bench: {m['cpu']}, {m['cores']} cores, Lockstep width "
                  f"{m['lockstep_simd_width']}, native {m['native_isa']}, "
                  f"load {m['load_average_start']}")
    ax1.legend(fontsize=8)

    colors = ["#2ca02c" if s >= 1 else "#d62728" for s in speedup]
    ax2.bar(list(x), speedup, 0.6, color=colors)
    ax2.axhline(1.0, color="black", linewidth=0.8)
    ax2.axhline(2.0, color="gray", linewidth=0.8, linestyle="--")
    g = data.get("geomean_speedup_vs_pocl")
    ax2.set_ylabel("Lockstep speedup over pocl")
    ax2.set_yscale("log")
    ax2.set_xticks(list(x))
    ax2.set_xticklabels(names, rotation=20)
    if g:
        ax2.set_title(f"speedup over pocl (geomean {g:.2f}x; dashed: 2x target)")
    for i, s in enumerate(speedup):
        if s == s:
            ax2.annotate(f"{s:.2f}x", (i, s), ha="center", va="bottom", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"chart: {out}")


if __name__ == "__main__":
    main()
