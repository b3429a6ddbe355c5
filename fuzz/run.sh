#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time (`make fuzz-targets`):
# seeds each corpus from the repository (.sim files, IR filetests, program
# binaries made from them, the SPIR-V test modules), runs libFuzzer for
# SECONDS per target, and prints how many inputs each ran. Exits non-zero on the first crash (the
# input is in fuzz/artifacts/TARGET/).
#
#   fuzz/run.sh [SECONDS]        (default 60)
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# The targets parse untrusted text in safe Rust, so they are built without
# a sanitizer (set FUZZ_SANITIZER=address to add one): a panic or an abort
# is the crash libFuzzer reports.
set -euo pipefail
seconds=${1:-60}
sanitizer=${FUZZ_SANITIZER:-none}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/fuzz"

mkdir -p corpus/sim_parser corpus/ir_parser corpus/program_binary corpus/spirv_module
for f in $(find "$root/tests/kernels" -name '*.sim'); do
    cp "$f" "corpus/sim_parser/$(echo "$f" | sha1sum | cut -c1-16)"
done
for f in $(find "$root/tests/filetests" -name '*.lir'); do
    name=$(echo "$f" | sha1sum | cut -c1-16)
    cp "$f" "corpus/ir_parser/$name"
    # A program binary around the IR (see crates/icd/src/program.rs).
    body=$(cat "$f")
    options="-cl-std=CL3.0"
    printf 'LOCKSTEP-CL-BINARY 1\nexecutable\n%d\n%s\n0\n\n%d\n%s\n' \
        "${#options}" "$options" "$(printf '%s' "$body" | wc -c)" "$body" \
        > "corpus/program_binary/$name"
done

# SPIR-V modules: the test modules, assembled (when spirv-as is installed).
if command -v spirv-as >/dev/null; then
    for f in "$root"/tests/spirv/*.spvasm; do
        spirv-as --target-env spv1.2 -o "corpus/spirv_module/$(basename "$f" .spvasm)" "$f"
    done
fi

status=0
for target in sim_parser ir_parser program_binary spirv_module; do
    log=$(mktemp)
    # -rss_limit_mb: a parser that allocates without bound is a finding.
    if cargo +nightly fuzz run --sanitizer "$sanitizer" "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
        >"$log" 2>&1; then
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
        echo "fuzz $target: $runs inputs in ${seconds}s, no crash"
    else
        echo "fuzz $target: CRASH (input in fuzz/artifacts/$target/)"
        tail -40 "$log"
        status=1
    fi
    rm -f "$log"
done
exit $status
