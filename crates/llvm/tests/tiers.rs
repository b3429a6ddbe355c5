//! Tiered compilation: the quick tier computes what the interpreter does
//! on corpus kernels; under auto a kernel's first launch runs the quick
//! tier and, once the kernel is used again (in the process, or in a later
//! one), the full tier replaces it; the disk cache holds only the full
//! tier. (Its own test binary: it reads process-wide compile counters, in
//! child processes with their own cache directories.)
//!
//! `LOCKSTEP_TIER=quick cargo test -p lockstep-llvm --test differential`
//! runs the whole differential test on the quick tier.

mod common;

use lockstep_runtime::sim::Simulation;
use lockstep_runtime::{Buffer, Context, Engine, NDRange, Program, Tier, Tiering};

/// Corpus kernels of every kind: irreducible and divergent control flow,
/// barriers, local memory, atomics, math, vectors, printf, doubles.
const KERNELS: &[&str] = &[
    "kernels/control/irreducible",
    "kernels/control/goto_into_loop",
    "kernels/control/mandel_fixed",
    "kernels/barrier/barrier_live_divergent",
    "kernels/local/scan_blelloch",
    "kernels/local/matmul_tile8",
    "kernels/atomics/histogram_local",
    "kernels/math/trig",
    "kernels/math/fma_minmax",
    "kernels/math/double_math",
    "kernels/vectors/convert_round",
    "kernels/vectors/float4_math",
    "kernels/memory/printf_loop",
    "kernels/elementwise/int_divmod_shift",
];

fn output(ctx: &Context, sim: &Simulation) -> String {
    sim.reset();
    let report = ctx.launch(&sim.kernel, &sim.range).expect("launches");
    assert!(report.fallback.is_none(), "{:?}", report.fallback);
    format!("{}{}", report.printf_output, sim.dump())
}

#[test]
fn the_quick_tier_computes_what_the_interpreter_does() {
    let corpus = common::corpus_kernels();
    let interp = lockstep_llvm::context().with_engine(Engine::Interpreter);
    for name in KERNELS {
        let (_, path) = corpus
            .iter()
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("{name} is not in the corpus"));
        let options = std::fs::read_to_string(path.with_extension("options")).unwrap_or_default();
        let sim = Simulation::load(&interp, path, options.trim()).expect("loads");
        let expected = output(&interp, &sim);
        for width in [8, 16] {
            let mut quick = lockstep_llvm::context();
            quick.set_tiering(Tiering::Quick);
            quick.set_width(width);
            assert_eq!(output(&quick, &sim), expected, "{name} at width {width}");
            let local = sim.range.local_size().map(|l| l.map(|x| x as u32));
            if let Some(local) = local {
                assert_eq!(
                    quick.compiled_tier(&sim.kernel, local),
                    Some(Tier::Quick),
                    "{name}: not the quick tier"
                );
            }
        }
    }
}

const SOURCE: &str = "
kernel void poly(global float *x, global float *y, int n) {
    size_t i = get_global_id(0);
    float v = x[i], acc = 0.0f;
    for (int k = 0; k < n; k++) acc = acc * v + (float)k;
    y[i] = acc;
}";

/// Set in the child processes: the tiering and how many launches
/// (`auto:3`).
const CHILD: &str = "LOCKSTEP_TEST_TIERS_CHILD";

/// Runs `poly` over 256 items as many times as [`CHILD`] says, checking the
/// results against the host's; after each launch, once upgrades are done,
/// notes the kernel's tier; prints the tiers and the compile counters.
#[test]
fn child_runs_the_kernel() {
    let Ok(what) = std::env::var(CHILD) else {
        return;
    };
    let (tiering, launches) = what.split_once(':').unwrap();
    let mut ctx = lockstep_llvm::context();
    ctx.set_tiering(tiering.parse().unwrap());
    let program = Program::build(&ctx, SOURCE, "").unwrap();
    let x: Vec<f32> = (0..256).map(|i| i as f32 / 256.0).collect();
    let expected: Vec<f32> = x
        .iter()
        // OpenCL C contracts `acc * v + k` into a fused multiply-add.
        .map(|&v| (0..20).fold(0.0f32, |acc, k| acc.mul_add(v, k as f32)))
        .collect();
    let mut tiers = Vec::new();
    for _ in 0..launches.parse().unwrap() {
        let (xb, yb) = (Buffer::from_slice(&x), Buffer::<f32>::zeroed(256));
        let mut k = program.kernel("poly").unwrap();
        k.set_arg(0, &xb).unwrap();
        k.set_arg(1, &yb).unwrap();
        k.set_arg(2, 20i32).unwrap();
        ctx.launch(&k, &NDRange::new_1d(256).local([64, 1, 1]))
            .unwrap();
        // Bit-exact: the same strict float semantics at every tier.
        assert_eq!(yb.read(), expected);
        lockstep_runtime::wait_for_upgrades();
        tiers.push(format!("{:?}", ctx.compiled_tier(&k, [64, 1, 1]).unwrap()));
    }
    let s = lockstep_codegen::stats();
    println!(
        "result: tiers {}, generated {}, quick {}, disk hits {}",
        tiers.join(" "),
        s.generated,
        s.quick,
        s.disk_hits
    );
}

/// Runs [`child_runs_the_kernel`] in a fresh process with the cache in `dir`.
fn child(what: &str, dir: &std::path::Path) -> String {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_runs_the_kernel", "--nocapture"])
        .env(CHILD, what)
        .env("XDG_CACHE_HOME", dir)
        .env_remove("LOCKSTEP_CACHE")
        .env_remove("LOCKSTEP_TIER")
        .output()
        .expect("runs the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .find_map(|l| l.strip_prefix("result: "))
        .expect("the child's result")
        .to_string()
}

#[test]
fn a_kernel_used_again_gets_the_full_tier_and_only_that_is_cached() {
    let dir = tempfile::tempdir().unwrap();
    // One short launch: the quick tier only (the full one would be CPU
    // time nobody gets back).
    assert_eq!(
        child("auto:1", dir.path()),
        "tiers Quick, generated 1, quick 1, disk hits 0"
    );
    let dir = tempfile::tempdir().unwrap();
    // Launched again: the full tier is compiled and swapped in.
    assert_eq!(
        child("auto:3", dir.path()),
        "tiers Quick Full Full, generated 2, quick 1, disk hits 0"
    );
    // ... and was written to disk: the next process loads it.
    assert_eq!(
        child("auto:1", dir.path()),
        "tiers Full, generated 0, quick 0, disk hits 1"
    );
}

#[test]
fn the_quick_tier_is_not_cached_but_a_recurring_kernel_gets_the_full_one() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        child("quick:2", dir.path()),
        "tiers Quick Quick, generated 1, quick 1, disk hits 0"
    );
    // Nothing of that code on disk (no hit), but the marker that the kernel
    // was compiled before: it recurs, so the full tier at once.
    assert_eq!(
        child("auto:1", dir.path()),
        "tiers Full, generated 1, quick 0, disk hits 0"
    );
    assert_eq!(
        child("auto:1", dir.path()),
        "tiers Full, generated 0, quick 0, disk hits 1"
    );
}
