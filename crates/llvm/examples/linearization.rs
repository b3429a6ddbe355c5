//! Measures the two linearizations of divergent control flow (per-block
//! masks and block-IP) against each other on random branchy kernels from the
//! fuzzer, run at a large NDRange so each launch takes milliseconds.
//!
//! ```text
//! cargo run --release -p lockstep-llvm --example linearization -- [COUNT] [FIRST_SEED]
//! ```
//!
//! Prints, per kernel, the best-of-10 time (one worker thread) of each scheme and their ratio,
//! then the geometric mean of the ratios over all kernels and over those
//! with irreducible loops (`goto` into a loop's middle). Outputs of both
//! schemes are compared, so a timing is never of a wrong result.

use std::time::Instant;

use lockstep_runtime::fuzz::generate;
use lockstep_runtime::{Buffer, Engine, Kernel, Linearization, LocalMem, NDRange, Program};

/// Work-groups per launch.
const GROUPS: u64 = 4096;

fn time_scheme(
    program: &Program,
    linearization: Linearization,
    input: &Buffer<i32>,
    global: u64,
    local: u64,
) -> (f64, Vec<i32>) {
    let mut ctx = lockstep_llvm::context().with_engine(Engine::Simd);
    ctx.set_linearization(linearization);
    // One worker: the best of several runs is steadier on a busy machine.
    ctx.set_threads(1);
    let out = Buffer::<i32>::zeroed(global as usize);
    let counts = Buffer::<i32>::zeroed(16);
    let mut kernel: Kernel = program.kernel("fuzz").expect("the fuzz kernel");
    kernel.set_arg(0, input).expect("in");
    kernel.set_arg(1, &out).expect("out");
    kernel.set_arg(2, &counts).expect("counts");
    kernel
        .set_arg(3, LocalMem(local as usize * 4))
        .expect("tmp");
    let range = NDRange::new_1d(global).local([local, 1, 1]);
    let mut best = f64::INFINITY;
    for _ in 0..10 {
        let t = Instant::now();
        let report = ctx.launch(&kernel, &range).expect("launch");
        assert!(report.fallback.is_none(), "ran on the interpreter");
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    (best, out.read())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let first: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let builder = lockstep_llvm::context();
    let (mut all, mut irreducible) = (Vec::new(), Vec::new());
    println!(
        "{:>6} {:>11} {:>11} {:>7}  kind",
        "seed", "masks ms", "block-ip ms", "ratio"
    );
    for seed in first..first + count {
        let k = generate(seed);
        let program = Program::build(&builder, &k.source, "").expect("fuzz kernels build");
        let global = k.local * GROUPS;
        let input: Vec<i32> = (0..global as usize)
            .map(|i| k.input[i % k.input.len()])
            .collect();
        let input = Buffer::from_slice(&input);
        let (masks, out_masks) =
            time_scheme(&program, Linearization::Masks, &input, global, k.local);
        let (block_ip, out_ip) =
            time_scheme(&program, Linearization::BlockIp, &input, global, k.local);
        assert_eq!(out_masks, out_ip, "seed {seed}: the schemes disagree");
        // A goto loop entered in its middle makes the CFG irreducible.
        let is_irreducible = k.source.contains("goto L") && k.source.contains("c0 = 0;");
        let ratio = block_ip / masks;
        println!(
            "{seed:>6} {masks:>11.3} {block_ip:>11.3} {ratio:>7.3}  {}",
            if is_irreducible { "goto loop" } else { "" }
        );
        all.push(ratio);
        if is_irreducible {
            irreducible.push(ratio);
        }
    }
    let geomean = |v: &[f64]| (v.iter().map(|r| r.ln()).sum::<f64>() / v.len().max(1) as f64).exp();
    println!(
        "block-ip / masks time, geomean: {:.3} over {} kernels; {:.3} over the {} with goto loops",
        geomean(&all),
        all.len(),
        geomean(&irreducible),
        irreducible.len()
    );
}
