//! The random-kernel fuzzer (`lockstep_runtime::fuzz`): each generated
//! kernel runs on the interpreter, on the interpreter after the pass
//! pipeline (gang-level IR: width 4 with per-block masks, 16 with
//! block-IP), and on the SIMD engine (widths 4, 8 and 16 with per-block
//! masks, 8 and 16 with block-IP), and every output must agree. 300 kernels from a fixed seed run in
//! `make test`; `make fuzz` runs many more (`LOCKSTEP_FUZZ_COUNT`,
//! `LOCKSTEP_FUZZ_SEED`). A mismatch is minimized (statements deleted and
//! blocks unwrapped while the kernel stays valid and the engines still
//! disagree) and saved under `tests/kernels/fuzz/` as `.cl` + `.sim` +
//! `.ref` (the interpreter's output), a regression test.
//!
//! One test per seed (`fuzz/seed-17`), so a failure names its seed and
//! `cargo test -p lockstep-runtime --test fuzz -- --exact fuzz/seed-17`
//! runs one kernel again.

use std::path::Path;

use libtest_mimic::{Arguments, Failed, Trial};
use lockstep_runtime::fuzz::{generate, minimize, FuzzKernel};
use lockstep_runtime::{
    Buffer, Context, Engine, Kernel, LaunchReport, Linearization, LocalMem, NDRange, Program,
    RefillMode,
};

/// What a fuzz kernel writes: `out` and `counts`.
type Outputs = (Vec<i32>, Vec<i32>);

/// The kernel with its arguments bound, its NDRange, and its output buffers.
fn bind(
    program: &Program,
    k: &FuzzKernel,
) -> Result<(Kernel, NDRange, (Buffer<i32>, Buffer<i32>)), String> {
    let input = Buffer::from_slice(&k.input);
    let out = Buffer::<i32>::zeroed(k.global as usize);
    let counts = Buffer::<i32>::zeroed(16);
    let mut kernel = program.kernel("fuzz").map_err(|e| e.to_string())?;
    kernel.set_arg(0, &input).map_err(|e| e.to_string())?;
    kernel.set_arg(1, &out).map_err(|e| e.to_string())?;
    kernel.set_arg(2, &counts).map_err(|e| e.to_string())?;
    kernel
        .set_arg(3, LocalMem(k.local as usize * 4))
        .map_err(|e| e.to_string())?;
    let range = NDRange::new_1d(k.global).local([k.local, 1, 1]);
    Ok((kernel, range, (out, counts)))
}

fn run(ctx: &Context, program: &Program, k: &FuzzKernel) -> Result<Outputs, String> {
    let (kernel, range, (out, counts)) = bind(program, k)?;
    let report = ctx.launch(&kernel, &range).map_err(|e| e.to_string())?;
    if let Some(why) = report.fallback {
        return Err(format!("ran on the interpreter: {why}"));
    }
    Ok((out.read(), counts.read()))
}

/// The first SIMD configuration whose outputs differ from `expected` (the
/// interpreter's), with how.
fn disagreement(program: &Program, k: &FuzzKernel, expected: &Outputs) -> Option<String> {
    // The pass pipeline's gang-level IR on the interpreter: the passes
    // checked without code generation.
    for (width, linearization, refill) in [
        (4u32, Linearization::Masks, RefillMode::Auto),
        (16, Linearization::BlockIp, RefillMode::Auto),
        (8, Linearization::Masks, RefillMode::On),
    ] {
        let mut gang = lockstep_llvm::context().with_engine(Engine::Interpreter);
        gang.set_width(width);
        gang.set_linearization(linearization);
        gang.set_refill(refill);
        gang.set_interpret_after_passes(true);
        let config =
            format!("interpreter after the passes, width {width} {linearization} refill {refill}");
        match run(&gang, program, k) {
            Ok(actual) if actual == *expected => {}
            Ok(_) => return Some(format!("{config}: outputs differ")),
            Err(e) => return Some(format!("{config}: {e}")),
        }
    }
    for (width, linearization, refill) in [
        (4u32, Linearization::Masks, RefillMode::Auto),
        (8, Linearization::Masks, RefillMode::Auto),
        (16, Linearization::Masks, RefillMode::Auto),
        (8, Linearization::BlockIp, RefillMode::Auto),
        (16, Linearization::BlockIp, RefillMode::Auto),
        (16, Linearization::Masks, RefillMode::On),
        (8, Linearization::BlockIp, RefillMode::On),
    ] {
        let mut simd = lockstep_llvm::context().with_engine(Engine::Simd);
        simd.set_width(width);
        simd.set_linearization(linearization);
        simd.set_refill(refill);
        let config = format!("width {width} {} refill {refill}", linearization.name());
        match run(&simd, program, k) {
            Ok(actual) if actual == *expected => {}
            Ok(_) => return Some(format!("{config}: outputs differ")),
            Err(e) => return Some(format!("{config}: {e}")),
        }
    }
    None
}

/// A checked interpreter run: its report lists races and uses of
/// uninitialized values.
fn checked_run(ctx: &Context, program: &Program, k: &FuzzKernel) -> Result<LaunchReport, String> {
    let (kernel, range, _buffers) = bind(program, k)?;
    ctx.launch(&kernel, &range).map_err(|e| e.to_string())
}

fn save(seed: u64, k: &FuzzKernel, expected: &Outputs) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/kernels/fuzz");
    let _ = std::fs::create_dir_all(&dir);
    let name = format!("fuzz_{seed}");
    let _ = std::fs::write(dir.join(format!("{name}.cl")), &k.source);
    let input: Vec<String> = k.input.iter().map(|x| x.to_string()).collect();
    let sim = format!(
        "{name}.cl\nfuzz\n{} 1 1\n{} 1 1\n<size={}>\n{}\n<size={} fill=0 dump>\n<size=64 fill=0 dump>\n<size={}>\n",
        k.global,
        k.local,
        k.global * 4,
        input.join(" "),
        k.global * 4,
        k.local * 4
    );
    let _ = std::fs::write(dir.join(format!("{name}.sim")), sim);
    let mut r = String::new();
    for (arg, values) in [("out", &expected.0), ("counts", &expected.1)] {
        r.push_str(&format!(
            "EXACT Argument '{arg}': {} bytes\n",
            values.len() * 4
        ));
        for (i, v) in values.iter().enumerate() {
            r.push_str(&format!("EXACT   {arg}[{i}] = {v}\n"));
        }
    }
    let _ = std::fs::write(dir.join(format!("{name}.ref")), r);
}

/// Kernel number `seed` on the interpreter and every SIMD configuration; a
/// disagreement is minimized and saved.
fn check(seed: u64) -> Result<(), Failed> {
    // A `Context` is a handful of settings: each test makes its own.
    let interp = lockstep_llvm::context().with_engine(Engine::Interpreter);
    let mut checked = lockstep_llvm::context().with_engine(Engine::Interpreter);
    checked.set_checked(true);
    let k = generate(seed);
    let program = Program::build(&interp, &k.source, "").map_err(|e| {
        format!(
            "seed {seed}: the generated kernel does not build: {e}\n{}",
            k.source
        )
    })?;
    let expected = run(&interp, &program, &k)
        .map_err(|e| format!("seed {seed}: interpreter: {e}\n{}", k.source))?;
    let Some(why) = disagreement(&program, &k, &expected) else {
        return Ok(());
    };
    // Shrink the kernel while the SIMD engine still disagrees on a
    // valid (undefined-behaviour-free) kernel, then save that.
    let source = minimize(&k.source, |candidate| {
        let k = FuzzKernel {
            source: candidate.to_string(),
            ..k.clone()
        };
        let Ok(program) = Program::build(&interp, candidate, "") else {
            return false;
        };
        let Ok(report) = checked_run(&checked, &program, &k) else {
            return false;
        };
        report.diagnostics.is_empty()
            && run(&interp, &program, &k)
                .is_ok_and(|expected| disagreement(&program, &k, &expected).is_some())
    });
    let small = FuzzKernel {
        source,
        ..k.clone()
    };
    let expected = Program::build(&interp, &small.source, "")
        .ok()
        .and_then(|p| run(&interp, &p, &small).ok())
        .unwrap_or(expected);
    save(seed, &small, &expected);
    Err(format!(
        "seed {seed}: {why} (minimized, saved as tests/kernels/fuzz/fuzz_{seed}):\n{}",
        small.source
    )
    .into())
}

fn main() {
    let args = Arguments::from_args();
    let count: u64 = std::env::var("LOCKSTEP_FUZZ_COUNT")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(300);
    let first: u64 = std::env::var("LOCKSTEP_FUZZ_SEED")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(1);
    let trials = (first..first + count)
        .map(|seed| Trial::test(format!("fuzz/seed-{seed}"), move || check(seed)))
        .collect();
    let conclusion = libtest_mimic::run(&args, trials);
    if !args.list {
        eprintln!(
            "fuzz: {count} kernels from seed {first} ({} run), {} failures",
            conclusion.num_passed + conclusion.num_failed,
            conclusion.num_failed
        );
    }
    conclusion.exit();
}
