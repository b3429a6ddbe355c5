//! `lockstep-bench`: runs every benchmark kernel on Lockstep (SIMD engine,
//! all cores), on the OpenCL CPU platforms it finds through the ICD loader
//! (pocl, and Intel's oneAPI CPU runtime when `make bench` has registered
//! it), and as native C (OpenMP, plus hand-vectorized intrinsics where that
//! is the bound), in one process; checks that all agree; prints a table and
//! writes JSON.
//!
//! Timing is kernel execution only: for Lockstep the `Context::launch` calls
//! of one run, for an OpenCL platform `clEnqueueNDRangeKernel` for each
//! launch of the run followed by one `clFinish` (wall clock), for native the
//! C call. Buffers are created once and reused; buffers a run modifies in
//! place are written back before each run, outside the timed region. Each
//! measurement is the best of `--repeat` runs after `--warmup` runs; the
//! implementations take turns run by run, so that outside load hits them
//! alike.

mod cold_start;
mod json;
mod native;
mod opencl;
mod suite;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _, Result};
use clap::Parser;
use json::Json;
use lockstep_runtime::{Buffer, Context, Kernel, LocalMem, NDRange, Program, RefillMode};
use suite::{Arg, Bench, Check};

/// An OpenCL platform compared against, found by its platform name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Platform {
    Pocl,
    Intel,
}

impl Platform {
    const ALL: [Platform; 2] = [Platform::Pocl, Platform::Intel];

    /// Its name in probes, labels and the JSON.
    fn key(self) -> &'static str {
        match self {
            Platform::Pocl => "pocl",
            Platform::Intel => "intel",
        }
    }

    /// Its name in the table.
    fn title(self) -> &'static str {
        match self {
            Platform::Pocl => "pocl",
            Platform::Intel => "Intel",
        }
    }

    /// The platform name (`CL_PLATFORM_NAME`) it has, or starts with.
    fn platform_name(self) -> &'static str {
        match self {
            Platform::Pocl => "Portable Computing Language",
            Platform::Intel => "Intel(R) OpenCL",
        }
    }

    /// How to get it when it is missing.
    fn hint(self) -> &'static str {
        match self {
            Platform::Pocl => "install pocl-opencl-icd",
            Platform::Intel => {
                "run through `make bench`, which installs Intel's CPU runtime (pip intel-opencl-rt) \
                 and registers it with the ICD loader through OCL_ICD_VENDORS"
            }
        }
    }

    fn from_key(key: &str) -> Option<Platform> {
        Platform::ALL.into_iter().find(|p| p.key() == key)
    }

    /// The environment variable of its on-disk program cache, and those to
    /// remove so that it is used; `None`: it keeps no cache on disk (Intel's
    /// CPU runtime compiles every program in every process).
    fn cache_env(self) -> Option<(&'static str, &'static [&'static str])> {
        match self {
            Platform::Pocl => Some(("POCL_CACHE_DIR", &["POCL_KERNEL_CACHE"])),
            Platform::Intel => None,
        }
    }
}

#[derive(Parser)]
#[command(about = "Lockstep vs pocl vs Intel's OpenCL CPU runtime vs native C, side by side")]
struct Cli {
    /// Timed runs per kernel and implementation (the best is reported).
    #[arg(long, default_value_t = 10)]
    repeat: usize,
    /// Untimed runs before the timed ones.
    #[arg(long, default_value_t = 2)]
    warmup: usize,
    /// Only these benchmarks (comma separated names).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Skip the cold/cached build-time measurements.
    #[arg(long)]
    no_build_times: bool,
    /// Skip the cold-start PyOpenCL sessions (run unless --only leaves out
    /// `cold_start`).
    #[arg(long)]
    no_cold_start: bool,
    /// Where the JSON results go.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/results/latest.json"))]
    json: PathBuf,
    /// Internal: measure one build in this process (`lockstep:NAME`,
    /// `pocl:NAME` or `intel:NAME`) and print it; the parent sets the cache
    /// directory.
    #[arg(long, hide = true)]
    probe: Option<String>,
}

fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels")
}

fn source_of(file: &str) -> Result<String> {
    let path = kernels_dir().join(file);
    std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))
}

/// Timings of repeated runs, in milliseconds.
#[derive(Clone, Debug, Default)]
struct Stats {
    best: f64,
    median: f64,
}

fn stats(mut times: Vec<f64>) -> Stats {
    times.sort_by(|a, b| a.total_cmp(b));
    Stats {
        best: times[0],
        median: times[times.len() / 2],
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs `run` `warmup + repeat` times, `reset` (untimed) before each.
fn measure(
    warmup: usize,
    repeat: usize,
    mut reset: impl FnMut() -> Result<()>,
    mut run: impl FnMut() -> Result<()>,
) -> Result<Stats> {
    let mut times = Vec::new();
    for i in 0..warmup + repeat.max(1) {
        if i == warmup {
            // Timed runs run Lockstep's optimized tier, not the quick one.
            lockstep_runtime::wait_for_upgrades();
        }
        reset()?;
        let t = Instant::now();
        run()?;
        let elapsed = ms(t.elapsed());
        if i >= warmup {
            times.push(elapsed);
        }
    }
    Ok(stats(times))
}

fn as_bytes(words: &[u32]) -> &[u8] {
    // SAFETY: u32 slices are plain bytes.
    unsafe { std::slice::from_raw_parts(words.as_ptr() as *const u8, words.len() * 4) }
}

fn to_words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect()
}

fn ndrange(global: &[u64], local: &[u64]) -> NDRange {
    let mut g = [1u64; 3];
    let mut l = [1u64; 3];
    g[..global.len()].copy_from_slice(global);
    l[..local.len()].copy_from_slice(local);
    NDRange::new(global.len() as u32, g).local(l)
}

// ---------------------------------------------------------------- Lockstep

/// The benchmarks whose lanes finish at very different times: Lockstep also
/// runs them with lane refill forced off and on (the main figure is the
/// default, the cost model's choice).
const REFILL_STUDY: &[&str] = &[
    "collatz",
    "mandelbrot",
    "ao",
    "parser",
    "parser_resume",
    "spmv",
    "vm",
];

/// A benchmark buffer on Lockstep: a buffer, or an image.
enum LsMem {
    Buffer(Buffer<u32>),
    Image(lockstep_runtime::Image),
}

impl LsMem {
    fn new(words: &[u32], image: Option<&suite::ImageBuf>) -> Result<LsMem> {
        let Some(im) = image else {
            return Ok(LsMem::Buffer(Buffer::from_slice(words)));
        };
        use lockstep_runtime::image::{channel, order};
        let format = lockstep_runtime::ImageFormat::new(order::RGBA, channel::FLOAT);
        let desc = lockstep_runtime::ImageDesc::new_2d(im.width, im.height);
        let image = lockstep_runtime::Image::new(format, desc)
            .map_err(|e| anyhow::anyhow!("image {}: {e}", im.buf))?;
        image.write(as_bytes(words));
        Ok(LsMem::Image(image))
    }

    fn write(&self, words: &[u32]) {
        match self {
            LsMem::Buffer(b) => b.write(words),
            LsMem::Image(i) => i.write(as_bytes(words)),
        }
    }

    fn read(&self) -> Vec<u32> {
        match self {
            LsMem::Buffer(b) => b.read(),
            LsMem::Image(i) => to_words(&i.read()),
        }
    }
}

struct Lockstep<'b> {
    ctx: Context,
    /// Lane refill forced off or on; `None`: the default (auto).
    refill: Option<RefillMode>,
    /// Checked mode (bounds, alignment and access-mode checks compiled in).
    checked: bool,
    bench: &'b Bench,
    kernels: HashMap<&'static str, Kernel>,
    bufs: Vec<LsMem>,
    /// Set when a launch ran on the interpreter instead of the SIMD engine.
    fallback: Option<String>,
}

impl<'b> Lockstep<'b> {
    fn new(
        bench: &'b Bench,
        program: &Program,
        refill: Option<RefillMode>,
        checked: bool,
    ) -> Result<Lockstep<'b>> {
        let mut ctx = lockstep_llvm::context();
        if let Some(mode) = refill {
            ctx.set_refill(mode);
        }
        ctx.set_checked(checked);
        let mut kernels = HashMap::new();
        for l in &bench.launches {
            if !kernels.contains_key(l.kernel) {
                kernels.insert(l.kernel, program.kernel(l.kernel)?);
            }
        }
        Ok(Lockstep {
            ctx,
            refill,
            checked,
            bench,
            kernels,
            bufs: bench
                .bufs
                .iter()
                .enumerate()
                .map(|(i, b)| LsMem::new(b, bench.images.iter().find(|im| im.buf == i)))
                .collect::<Result<_>>()?,
            fallback: None,
        })
    }

    fn reset(&self) {
        for &i in &self.bench.reset {
            self.bufs[i].write(&self.bench.bufs[i]);
        }
    }

    fn run(&mut self) -> Result<()> {
        self.run_launches(&mut |_, _| {})
    }

    /// Runs every launch, calling `each` with each one's kernel name and
    /// duration (ms).
    fn run_launches(&mut self, each: &mut dyn FnMut(&'static str, f64)) -> Result<()> {
        for l in &self.bench.launches {
            let t = Instant::now();
            let k = self.kernels.get_mut(l.kernel).expect("made in new");
            for (i, a) in l.args.iter().enumerate() {
                match a {
                    Arg::Buf(b) => match &self.bufs[*b] {
                        LsMem::Buffer(buf) => k.set_arg(i, buf)?,
                        LsMem::Image(image) => k.set_arg(i, image)?,
                    },
                    Arg::U32(x) => k.set_arg(i, *x)?,
                    Arg::F32(x) => k.set_arg(i, *x)?,
                    Arg::Local(n) => k.set_arg(i, LocalMem(*n))?,
                }
            }
            let report = self.ctx.launch(k, &ndrange(&l.global, &l.local))?;
            each(l.kernel, ms(t.elapsed()));
            if let Some(why) = report.fallback {
                self.fallback.get_or_insert(why);
            }
            // A correct kernel: any report is a false positive.
            if let Some(d) = report.diagnostics.first() {
                bail!("checked mode reported a problem in a correct kernel:\n{d}");
            }
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- OpenCL platforms

/// One benchmark set up on an OpenCL platform.
struct Ocl<'d, 'b> {
    dev: &'d opencl::Device,
    bench: &'b Bench,
    kernels: HashMap<&'static str, opencl::ClKernel<'d>>,
    bufs: Vec<opencl::Mem<'d>>,
}

impl<'d, 'b> Ocl<'d, 'b> {
    fn new(
        dev: &'d opencl::Device,
        bench: &'b Bench,
        program: &opencl::ClProgram<'d>,
    ) -> Result<Ocl<'d, 'b>> {
        let mut kernels = HashMap::new();
        for l in &bench.launches {
            if !kernels.contains_key(l.kernel) {
                kernels.insert(l.kernel, program.kernel(l.kernel)?);
            }
        }
        let bufs = bench
            .bufs
            .iter()
            .enumerate()
            .map(|(i, b)| match bench.images.iter().find(|im| im.buf == i) {
                Some(im) => dev.image(as_bytes(b), im.width, im.height),
                None => dev.buffer(as_bytes(b)),
            })
            .collect::<Result<_>>()?;
        Ok(Ocl {
            dev,
            bench,
            kernels,
            bufs,
        })
    }

    fn reset(&self) -> Result<()> {
        for &i in &self.bench.reset {
            self.bufs[i].write(as_bytes(&self.bench.bufs[i]))?;
        }
        Ok(())
    }

    fn run(&self) -> Result<()> {
        for l in &self.bench.launches {
            let k = &self.kernels[l.kernel];
            for (i, a) in l.args.iter().enumerate() {
                let i = i as u32;
                match a {
                    Arg::Buf(b) => k.set_arg(i, &opencl::ClArg::Mem(&self.bufs[*b]))?,
                    Arg::U32(x) => k.set_arg(i, &opencl::ClArg::Bytes(&x.to_le_bytes()))?,
                    Arg::F32(x) => k.set_arg(i, &opencl::ClArg::Bytes(&x.to_le_bytes()))?,
                    Arg::Local(n) => k.set_arg(i, &opencl::ClArg::Local(*n))?,
                }
            }
            let global: Vec<usize> = l.global.iter().map(|&g| g as usize).collect();
            let local: Vec<usize> = l.local.iter().map(|&g| g as usize).collect();
            self.dev.enqueue(k, &global, &local)?;
        }
        self.dev.finish()
    }

    /// Runs every launch to completion one by one, calling `each` with each
    /// one's kernel name and duration (ms).
    fn run_launches(&self, each: &mut dyn FnMut(&'static str, f64)) -> Result<()> {
        for l in &self.bench.launches {
            let t = Instant::now();
            let k = &self.kernels[l.kernel];
            for (i, a) in l.args.iter().enumerate() {
                let i = i as u32;
                match a {
                    Arg::Buf(b) => k.set_arg(i, &opencl::ClArg::Mem(&self.bufs[*b]))?,
                    Arg::U32(x) => k.set_arg(i, &opencl::ClArg::Bytes(&x.to_le_bytes()))?,
                    Arg::F32(x) => k.set_arg(i, &opencl::ClArg::Bytes(&x.to_le_bytes()))?,
                    Arg::Local(n) => k.set_arg(i, &opencl::ClArg::Local(*n))?,
                }
            }
            let global: Vec<usize> = l.global.iter().map(|&g| g as usize).collect();
            let local: Vec<usize> = l.local.iter().map(|&g| g as usize).collect();
            self.dev.enqueue(k, &global, &local)?;
            self.dev.finish()?;
            each(l.kernel, ms(t.elapsed()));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------- checks

/// Compares `got` with the reference `want` under `check`: `None` when they
/// agree, else what differs.
fn compare(check: Check, got: &[u32], want: &[u32]) -> (Option<String>, String) {
    let n = want.len();
    let bad_allowed = |max_bad: f64| (max_bad * n as f64).floor() as usize;
    match check {
        Check::Exact | Check::MostlyExact { .. } => {
            let max_bad = match check {
                Check::MostlyExact { max_bad } => max_bad,
                _ => 0.0,
            };
            let bad: Vec<usize> = (0..n).filter(|&i| got[i] != want[i]).collect();
            let summary = format!("{} of {n} differ", bad.len());
            if bad.len() > bad_allowed(max_bad) {
                let i = bad[0];
                return (
                    Some(format!(
                        "{summary}; first at [{i}]: {} vs {}",
                        got[i], want[i]
                    )),
                    summary,
                );
            }
            (None, summary)
        }
        Check::Float { rel, abs, max_bad } => {
            let mut bad = Vec::new();
            let mut worst = 0f32;
            for i in 0..n {
                let (g, w) = (f32::from_bits(got[i]), f32::from_bits(want[i]));
                let err = (g - w).abs();
                let limit = abs + rel * w.abs();
                if err.is_nan() || err > limit {
                    bad.push(i);
                }
                if err.is_finite() && w.abs() > abs {
                    worst = worst.max(err / w.abs());
                }
            }
            let summary = format!("{} of {n} outside, max rel err {worst:.2e}", bad.len());
            if bad.len() > bad_allowed(max_bad) {
                let i = bad[0];
                return (
                    Some(format!(
                        "{summary}; first at [{i}]: {} vs {}",
                        f32::from_bits(got[i]),
                        f32::from_bits(want[i])
                    )),
                    summary,
                );
            }
            (None, summary)
        }
        Check::Total { rel } => {
            let sum = |v: &[u32]| v.iter().map(|&x| f32::from_bits(x) as f64).sum::<f64>();
            let (g, w) = (sum(got), sum(want));
            let err = (g - w).abs() / w.abs().max(1e-30);
            let summary = format!("total {g} vs {w}, rel err {err:.2e}");
            // A NaN error is a mismatch too.
            if err.is_nan() || err > rel {
                return (Some(summary.clone()), summary);
            }
            (None, summary)
        }
    }
}

// ---------------------------------------------------------------- one benchmark

#[derive(Default)]
struct Outcome {
    name: String,
    what: String,
    size: String,
    lockstep: Option<Stats>,
    /// Lockstep with lane refill forced off and on (REFILL_STUDY only).
    refill: Vec<(RefillMode, Stats)>,
    /// Lockstep in checked mode (`Context::set_checked`).
    checked: Option<Stats>,
    /// Per OpenCL platform that ran it.
    cl: Vec<(Platform, Stats)>,
    /// Per native variant.
    native: Vec<(String, Stats)>,
    /// Problems: errors and mismatches (each makes the exit status nonzero).
    failures: Vec<String>,
    /// Per implementation and output: the comparison with the reference.
    checks: Vec<(String, String, String, bool)>,
    fallback: Option<String>,
    /// OpenCL platforms that do not offer what the benchmark needs.
    skipped: Vec<String>,
    build: Vec<(String, BuildTimes)>,
    /// For benchmarks of several kernels: per implementation, the time of
    /// each kernel (summed over its launches) in one run with every launch
    /// waited for.
    per_kernel: Vec<(String, Vec<(&'static str, f64)>)>,
}

impl Outcome {
    /// The best time on OpenCL platform `p`.
    fn cl_best(&self, p: Platform) -> Option<f64> {
        self.cl.iter().find(|(q, _)| *q == p).map(|(_, s)| s.best)
    }

    /// Lockstep's speedup over platform `p`: its time / Lockstep's.
    fn speedup(&self, p: Platform) -> Option<f64> {
        Some(self.cl_best(p)? / self.lockstep.as_ref()?.best)
    }

    fn native_best(&self) -> Option<(&str, f64)> {
        self.native
            .iter()
            .map(|(n, s)| (n.as_str(), s.best))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    fn native_variant(&self, name: &str) -> Option<f64> {
        self.native
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s.best)
    }
}

/// Reads each output of an implementation.
type Results = Vec<Vec<u32>>;

fn settle() {
    // Let the previous implementation's threads (OpenMP spins a while
    // after a parallel region, rayon too) go idle before the next one.
    std::thread::sleep(Duration::from_millis(20));
}

/// One implementation of a benchmark, set up and ready to run.
enum Runner<'d, 'b> {
    Native {
        variant: &'b suite::Native,
        bench: &'b Bench,
        bufs: Vec<Vec<u32>>,
    },
    Lockstep(Lockstep<'b>),
    Cl(Platform, Ocl<'d, 'b>),
}

impl Runner<'_, '_> {
    fn label(&self) -> String {
        match self {
            Runner::Native { variant, .. } => format!("native {}", variant.name),
            Runner::Lockstep(ls) => match ls.refill {
                _ if ls.checked => "lockstep checked".into(),
                Some(mode) => format!("lockstep refill {mode}"),
                None => "lockstep".into(),
            },
            Runner::Cl(p, _) => p.key().into(),
        }
    }

    fn reset(&mut self) -> Result<()> {
        match self {
            Runner::Native { bench, bufs, .. } => {
                for &i in &bench.reset {
                    bufs[i].copy_from_slice(&bench.bufs[i]);
                }
                Ok(())
            }
            Runner::Lockstep(ls) => {
                ls.reset();
                Ok(())
            }
            Runner::Cl(_, p) => p.reset(),
        }
    }

    fn run(&mut self) -> Result<()> {
        match self {
            Runner::Native { variant, bufs, .. } => {
                (variant.run)(bufs);
                Ok(())
            }
            Runner::Lockstep(ls) => ls.run(),
            Runner::Cl(_, p) => p.run(),
        }
    }

    fn results(&self, bench: &Bench) -> Result<Results> {
        match self {
            Runner::Native { bufs, .. } => {
                Ok(bench.outputs.iter().map(|o| bufs[o.buf].clone()).collect())
            }
            Runner::Lockstep(ls) => Ok(bench
                .outputs
                .iter()
                .map(|o| ls.bufs[o.buf].read())
                .collect()),
            Runner::Cl(_, p) => bench
                .outputs
                .iter()
                .map(|o| p.bufs[o.buf].read().map(|b| to_words(&b)))
                .collect(),
        }
    }
}

/// Runs one benchmark on every implementation: native, Lockstep (unless
/// `run_lockstep` is false: its probe failed, and a compiler crash must not
/// end the suite) and the OpenCL platforms `platforms`.
///
/// The implementations take turns: after their warm-up runs, timed run k
/// of each runs before timed run k+1 of any, so that load from elsewhere on
/// the machine spreads over all of them instead of one.
fn run_bench(
    cli: &Cli,
    bench: &Bench,
    platforms: &[(Platform, &opencl::Device)],
    run_lockstep: bool,
) -> Outcome {
    let mut out = Outcome {
        name: bench.name.to_string(),
        what: bench.what.to_string(),
        size: bench.size.clone(),
        ..Outcome::default()
    };
    let source = match source_of(bench.file) {
        Ok(s) => s,
        Err(e) => {
            out.failures.push(format!("{e:#}"));
            return out;
        }
    };

    // Set up: native variants first (the first one is the reference).
    let mut runners: Vec<Runner> = bench
        .native
        .iter()
        .map(|variant| Runner::Native {
            variant,
            bench,
            bufs: bench.bufs.clone(),
        })
        .collect();
    let mut modes = vec![(None, false), (None, true)];
    if REFILL_STUDY.contains(&bench.name) {
        modes.extend([
            (Some(RefillMode::Off), false),
            (Some(RefillMode::On), false),
        ]);
    }
    for (refill, checked) in modes {
        let lockstep = (|| -> Result<Lockstep> {
            if !run_lockstep {
                bail!("not run in this process: its probe process failed (see above)");
            }
            let program = Program::build(&lockstep_llvm::context(), &source, bench.options)?;
            Lockstep::new(bench, &program, refill, checked)
        })();
        match lockstep {
            Ok(ls) => runners.push(Runner::Lockstep(ls)),
            Err(e) => out.failures.push(format!("lockstep: {e:#}")),
        }
    }
    for &(platform, dev) in platforms {
        if let Some(missing) = bench.requires.iter().find(|r| !dev.supports(r)) {
            out.skipped.push(format!(
                "{}: the device does not report {missing}",
                platform.key()
            ));
            continue;
        }
        let p = (|| -> Result<Ocl> {
            let program = dev.build(&source, bench.options)?;
            Ocl::new(dev, bench, &program)
        })();
        match p {
            Ok(p) => runners.push(Runner::Cl(platform, p)),
            Err(e) => out.failures.push(format!("{}: {e:#}", platform.key())),
        }
    }

    // Warm up, then take turns.
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); runners.len()];
    let mut alive = vec![true; runners.len()];
    let rounds = cli.warmup + cli.repeat.max(1);
    for round in 0..rounds {
        if round == cli.warmup {
            // Timed rounds run Lockstep's optimized tier, not the quick one.
            lockstep_runtime::wait_for_upgrades();
        }
        for (k, runner) in runners.iter_mut().enumerate() {
            if !alive[k] {
                continue;
            }
            settle();
            let timed = (|| -> Result<f64> {
                runner.reset()?;
                let t = Instant::now();
                runner.run()?;
                Ok(ms(t.elapsed()))
            })();
            match timed {
                Ok(t) if round >= cli.warmup => times[k].push(t),
                Ok(_) => {}
                Err(e) => {
                    alive[k] = false;
                    out.failures.push(format!("{}: {e:#}", runner.label()));
                }
            }
        }
    }

    // Benchmarks of several kernels: one more run, each launch timed.
    let kernel_names: Vec<&'static str> = {
        let mut names: Vec<&'static str> = bench.launches.iter().map(|l| l.kernel).collect();
        names.dedup();
        names
    };
    if kernel_names.len() > 1 {
        for (k, runner) in runners.iter_mut().enumerate() {
            if !alive[k] {
                continue;
            }
            let mut sums: Vec<(&'static str, f64)> = Vec::new();
            let mut add =
                |name: &'static str, t: f64| match sums.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, s)) => *s += t,
                    None => sums.push((name, t)),
                };
            settle();
            let traced = match runner {
                Runner::Lockstep(ls) => {
                    ls.reset();
                    ls.run_launches(&mut add)
                }
                Runner::Cl(_, p) => p.reset().and_then(|_| p.run_launches(&mut add)),
                Runner::Native { .. } => continue,
            };
            match traced {
                Ok(()) => out.per_kernel.push((runner.label(), sums)),
                Err(e) => {
                    alive[k] = false;
                    out.failures.push(format!("{}: {e:#}", runner.label()));
                }
            }
        }
    }

    let mut results: Vec<(String, Results)> = Vec::new();
    for (k, runner) in runners.iter_mut().enumerate() {
        if !alive[k] {
            continue;
        }
        let s = stats(std::mem::take(&mut times[k]));
        match runner {
            Runner::Native { variant, .. } => out.native.push((variant.name.clone(), s)),
            Runner::Lockstep(ls) => match ls.refill {
                _ if ls.checked => out.checked = Some(s),
                Some(mode) => out.refill.push((mode, s)),
                None => {
                    out.lockstep = Some(s);
                    out.fallback = ls.fallback.take();
                }
            },
            Runner::Cl(p, _) => out.cl.push((*p, s)),
        }
        match runner.results(bench) {
            Ok(r) => results.push((runner.label(), r)),
            Err(e) => out
                .failures
                .push(format!("{}: reading results: {e:#}", runner.label())),
        }
    }

    // Everything against the reference (the first native variant).
    if let Some(((ref_name, reference), others)) = results.split_first() {
        for (name, got) in others {
            for (k, o) in bench.outputs.iter().enumerate() {
                let (problem, summary) = compare(o.check, &got[k], &reference[k]);
                let ok = problem.is_none();
                if let Some(p) = problem {
                    out.failures.push(format!(
                        "MISMATCH {name} vs {ref_name}, output '{}': {p}",
                        o.name
                    ));
                }
                out.checks
                    .push((name.clone(), o.name.to_string(), summary, ok));
            }
        }
    }
    out
}

// ---------------------------------------------------------------- build times

#[derive(Clone, Debug, Default)]
struct BuildTimes {
    /// Program build (`Program::build` / `clBuildProgram`), ms.
    program: f64,
    /// What the first run took beyond a steady run: the kernels' lazy
    /// compilation at first launch, ms.
    first_launch: f64,
    /// The first run and the best of three steady runs, ms.
    first_run: f64,
    steady_run: f64,
}

impl BuildTimes {
    fn total(&self) -> f64 {
        self.program + self.first_launch
    }
}

/// In a child process: builds one benchmark's program on one
/// implementation, runs it once (timed) and then three times (best), and
/// prints `PROBE program_ms first_ms steady_ms`.
fn probe(spec: &str) -> Result<()> {
    let (backend, name) = spec.split_once(':').context("--probe BACKEND:NAME")?;
    let bench = suite::all()
        .into_iter()
        .map(|f| f())
        .find(|b| b.name == name)
        .with_context(|| format!("no benchmark {name}"))?;
    let source = source_of(bench.file)?;
    let (program_ms, first, steady) = match backend {
        "lockstep" => {
            let ctx = lockstep_llvm::context();
            let t = Instant::now();
            let program = Program::build(&ctx, &source, bench.options)?;
            let program_ms = ms(t.elapsed());
            let mut ls = Lockstep::new(&bench, &program, None, false)?;
            let t = Instant::now();
            ls.run()?;
            let first = ms(t.elapsed());
            // Steady runs run the optimized tier (tiered compilation).
            lockstep_runtime::wait_for_upgrades();
            let ls = std::cell::RefCell::new(ls);
            let steady = measure(
                0,
                3,
                || {
                    ls.borrow().reset();
                    Ok(())
                },
                || ls.borrow_mut().run(),
            )?;
            (program_ms, first, steady.best)
        }
        key => {
            let platform =
                Platform::from_key(key).with_context(|| format!("unknown backend {key}"))?;
            let dev = opencl::Device::open(platform.platform_name(), platform.hint())?;
            if let Some(missing) = bench.requires.iter().find(|r| !dev.supports(r)) {
                bail!("the device does not report {missing}");
            }
            let t = Instant::now();
            let program = dev.build(&source, bench.options)?;
            let program_ms = ms(t.elapsed());
            let p = Ocl::new(&dev, &bench, &program)?;
            p.reset()?;
            let t = Instant::now();
            p.run()?;
            let first = ms(t.elapsed());
            let steady = measure(0, 3, || p.reset(), || p.run())?;
            (program_ms, first, steady.best)
        }
    };
    println!("PROBE {program_ms} {first} {steady}");
    Ok(())
}

/// A private copy of this executable for the probe processes: a `cargo
/// build` during the run replaces `target/release/lockstep-bench`, and the
/// probes must run the same build as this process.
fn probe_exe() -> Result<PathBuf> {
    static EXE: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    EXE.get_or_init(|| {
        let copy = || -> Result<PathBuf> {
            let dir = std::env::temp_dir().join(format!("lockstep-bench-{}", std::process::id()));
            std::fs::create_dir_all(&dir)?;
            let path = dir.join("lockstep-bench");
            std::fs::copy("/proc/self/exe", &path).context("copying /proc/self/exe")?;
            Ok(path)
        };
        copy().map_err(|e| format!("{e:#}"))
    })
    .clone()
    .map_err(anyhow::Error::msg)
}

/// Runs the probe of `bench` on `backend` in a child process with the
/// cache directory `dir` (`None`: the user's).
fn probe_child(backend: &str, bench: &str, dir: Option<&Path>) -> Result<BuildTimes> {
    let mut cmd = Command::new(probe_exe()?);
    cmd.arg("--probe").arg(format!("{backend}:{bench}"));
    if let Some(dir) = dir {
        if backend == "lockstep" {
            cmd.env("XDG_CACHE_HOME", dir).env_remove("LOCKSTEP_CACHE");
        } else if let Some((var, remove)) = Platform::from_key(backend).and_then(|p| p.cache_env())
        {
            cmd.env(var, dir);
            for r in remove {
                cmd.env_remove(r);
            }
        }
    }
    let output = cmd.output()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let Some(line) = text.lines().find_map(|l| l.strip_prefix("PROBE ")) else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().last().unwrap_or("");
        bail!("{backend} probe process failed ({}): {last}", output.status);
    };
    let v: Vec<f64> = line
        .split_whitespace()
        .map(|x| x.parse())
        .collect::<Result<_, _>>()?;
    Ok(BuildTimes {
        program: v[0],
        first_launch: (v[1] - v[2]).max(0.0),
        first_run: v[1],
        steady_run: v[2],
    })
}

/// Cold and cached build times of `bench` on `backend`, each in a fresh
/// process: cold with an empty cache directory, cached with the one the cold
/// build filled.
fn build_times(backend: &str, bench: &str) -> Result<(BuildTimes, BuildTimes)> {
    let dir = std::env::temp_dir().join(format!(
        "lockstep-bench-cache-{}-{backend}-{bench}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    let cold = probe_child(backend, bench, Some(&dir));
    let cached = cold
        .as_ref()
        .ok()
        .map(|_| probe_child(backend, bench, Some(&dir)));
    let _ = std::fs::remove_dir_all(&dir);
    Ok((cold?, cached.expect("cold succeeded")?))
}

// ---------------------------------------------------------------- launch overhead

const OVERHEAD_LAUNCHES: usize = 2000;

/// Best and median time of one launch of the empty kernel over 64
/// work-items (one group), in microseconds.
fn launch_overhead_lockstep() -> Result<Stats> {
    let ctx = lockstep_llvm::context();
    let program = Program::build(&ctx, &source_of("empty.cl")?, "")?;
    let mut k = program.kernel("empty")?;
    let buf = Buffer::<u32>::zeroed(64);
    k.set_arg(0, &buf)?;
    let range = NDRange::new_1d(64).local([64, 1, 1]);
    let s = measure(
        200,
        OVERHEAD_LAUNCHES,
        || Ok(()),
        || {
            ctx.launch(&k, &range)?;
            Ok(())
        },
    )?;
    Ok(Stats {
        best: s.best * 1e3,
        median: s.median * 1e3,
    })
}

fn launch_overhead_cl(dev: &opencl::Device) -> Result<Stats> {
    let program = dev.build(&source_of("empty.cl")?, "")?;
    let k = program.kernel("empty")?;
    let buf = dev.buffer(&[0u8; 256])?;
    k.set_arg(0, &opencl::ClArg::Mem(&buf))?;
    let s = measure(
        200,
        OVERHEAD_LAUNCHES,
        || Ok(()),
        || {
            dev.enqueue(&k, &[64], &[64])?;
            dev.finish()
        },
    )?;
    Ok(Stats {
        best: s.best * 1e3,
        median: s.median * 1e3,
    })
}

// ---------------------------------------------------------------- report

fn geomean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    Some((xs.iter().map(|x| x.ln()).sum::<f64>() / xs.len() as f64).exp())
}

/// The commit the suite runs at, and the files under `crates/` that differ
/// from it (the compiler measured may be uncommitted work).
fn source_state() -> (String, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(&root)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default()
    };
    let commit = git(&["rev-parse", "--short", "HEAD"]);
    let dirty = git(&["status", "--porcelain", "--", "crates"])
        .lines()
        .map(|l| l.trim().to_string())
        .collect();
    (commit, dirty)
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn fmt_ms(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{x:.2}"))
}

fn fmt_ratio(x: Option<f64>) -> String {
    x.map_or("-".into(), |x| format!("{x:.2}x"))
}

struct Target {
    what: String,
    met: Option<bool>,
    detail: String,
}

/// Issue #16's targets (every kernel at least as fast as each platform,
/// geomean speedups), then issue #9's against native C. `geomeans` holds
/// the geomean speedup over each platform that ran.
fn targets(outcomes: &[Outcome], geomeans: &[(Platform, Option<f64>)]) -> Vec<Target> {
    let mut t = Vec::new();
    for p in Platform::ALL {
        let Some(&(_, geo)) = geomeans.iter().find(|(q, _)| *q == p) else {
            t.push(Target {
                what: format!("every kernel at least as fast as {}", p.title()),
                met: None,
                detail: format!("{} did not run", p.title()),
            });
            continue;
        };
        let slower: Vec<String> = outcomes
            .iter()
            .filter_map(|o| {
                let s = o.speedup(p)?;
                (s < 1.0).then(|| format!("{} {s:.2}x", o.name))
            })
            .collect();
        t.push(Target {
            what: format!("every kernel at least as fast as {}", p.title()),
            met: Some(slower.is_empty()),
            detail: if slower.is_empty() {
                "all >= 1.00x".into()
            } else {
                format!("slower: {}", slower.join(", "))
            },
        });
        let goal = match p {
            Platform::Pocl => 2.5,
            Platform::Intel => 1.5,
        };
        t.push(Target {
            what: format!("geomean speedup over {} >= {goal}x", p.title()),
            met: geo.map(|g| g >= goal),
            detail: fmt_ratio(geo),
        });
    }
    let ratio = |name: &str, variant: Option<&str>| {
        let o = outcomes.iter().find(|o| o.name == name)?;
        let native = match variant {
            Some(v) => o.native_variant(v)?,
            None => o.native_best()?.1,
        };
        Some(o.lockstep.as_ref()?.best / native)
    };
    let m = ratio("mandelbrot", Some("intrinsics"));
    t.push(Target {
        what: format!(
            "mandelbrot within 1.3x of the hand-vectorized version ({})",
            native::isa()
        ),
        met: m.map(|r| r <= 1.3),
        detail: fmt_ratio(m),
    });
    let s = ratio("saxpy", None);
    t.push(Target {
        what: "saxpy within 1.1x of native".into(),
        met: s.map(|r| r <= 1.1),
        detail: fmt_ratio(s),
    });
    t
}

/// Cold-start sessions per platform.
const COLD_START_RUNS: usize = 3;

fn cold_start_json(sessions: &Option<Result<Vec<cold_start::Sessions>>>) -> Json {
    let Some(sessions) = sessions else {
        return Json::Null;
    };
    let platforms = match sessions {
        Ok(all) => all
            .iter()
            .map(|s| {
                let v = match &s.runs {
                    Ok(_) => Json::obj(vec![
                        ("cpu_s_best", Json::opt(s.best_cpu())),
                        ("cpu_s_median", Json::opt(s.median_cpu())),
                        ("wall_s_best", Json::opt(s.best_wall())),
                    ]),
                    Err(e) => Json::obj(vec![("error", Json::Str(format!("{e:#}")))]),
                };
                (s.key.to_string(), v)
            })
            .collect(),
        Err(e) => vec![("error".to_string(), Json::Str(format!("{e:#}")))],
    };
    Json::obj(vec![
        (
            "what",
            Json::Str("bench/pyopencl_session.py in a fresh python3 per run, PYOPENCL_NO_CACHE=1, LOCKSTEP_CACHE=0, POCL_KERNEL_CACHE=0; CPU time of the child (user + system)".into()),
        ),
        ("runs", Json::Num(COLD_START_RUNS as f64)),
        ("platforms", Json::Obj(platforms)),
    ])
}

fn main() {
    let cli = Cli::parse();
    if let Some(spec) = &cli.probe {
        if let Err(e) = probe(spec) {
            eprintln!("lockstep-bench: {e:#}");
            std::process::exit(1);
        }
        return;
    }
    match run(&cli) {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("lockstep-bench: {e:#}");
            std::process::exit(2);
        }
    }
}

/// Runs the suite; `Ok(false)` when any implementation failed or disagreed.
fn run(cli: &Cli) -> Result<bool> {
    let ctx = lockstep_llvm::context();
    let device = ctx.device();
    if let Some(e) = &device.target_error {
        bail!("Lockstep cannot compile: {e}");
    }
    let load_start = loadavg();
    let (commit, dirty) = source_state();
    let isa = native::isa();
    let width = ctx.width();
    let threads = ctx.threads();
    let lockstep_cpu = if device.target_from_env {
        format!("{} (LOCKSTEP_CPU)", device.target_cpu)
    } else {
        format!("{} (host)", device.target_cpu)
    };
    println!(
        "lockstep-bench: {} ({} cores); Lockstep: CPU {lockstep_cpu}, SIMD width {width}, {threads} threads; native hand-vectorized ISA: {isa}; load average {load_start}",
        device.cpu_model, device.cores
    );
    let loader = opencl::loader_path();
    match (&loader, opencl::platform_names()) {
        (Ok(path), Ok(names)) => {
            println!("OpenCL ICD loader: {path}; platforms: {}", names.join(", "))
        }
        (Err(e), _) => println!("OpenCL: unavailable: {e:#}"),
        (_, Err(e)) => println!("OpenCL: unavailable: {e:#}"),
    }
    let intel_arch = std::env::var("CL_CONFIG_CPU_TARGET_ARCH").ok();
    let mut devices: Vec<(Platform, opencl::Device)> = Vec::new();
    let mut missing: Vec<(Platform, String)> = Vec::new();
    for p in Platform::ALL {
        match opencl::Device::open(p.platform_name(), p.hint()) {
            Ok(d) => {
                let arch = match (p, &intel_arch) {
                    (Platform::Intel, Some(a)) => format!(" (CL_CONFIG_CPU_TARGET_ARCH={a})"),
                    _ => String::new(),
                };
                println!(
                    "{}: {} / {}{arch}",
                    p.title(),
                    d.platform_name,
                    d.device_name
                );
                devices.push((p, d));
            }
            Err(e) => {
                println!("{}: unavailable, its column stays empty: {e:#}", p.title());
                missing.push((p, format!("{e:#}")));
            }
        }
    }
    println!(
        "source: commit {commit}{}",
        if dirty.is_empty() {
            String::new()
        } else {
            format!(" with uncommitted changes in {}", dirty.join(", "))
        }
    );
    println!(
        "timing: best of {} runs after {} warm-up runs\n",
        cli.repeat, cli.warmup
    );

    let mut outcomes = Vec::new();
    for make in suite::all() {
        let bench = make();
        if !cli.only.is_empty() && !cli.only.iter().any(|n| n == bench.name) {
            continue;
        }
        eprint!("{:<13} ...", bench.name);
        // Build times first, in child processes: they also show whether a
        // kernel crashes before this process runs it.
        let mut build = Vec::new();
        let mut crashed = Vec::new();
        let backends = std::iter::once("lockstep").chain(devices.iter().map(|(p, _)| p.key()));
        for backend in backends {
            let lacks = devices
                .iter()
                .find(|(p, _)| p.key() == backend)
                .is_some_and(|(_, d)| bench.requires.iter().any(|r| !d.supports(r)));
            if lacks {
                // run_bench skips it and says why.
                continue;
            }
            let result = if cli.no_build_times {
                probe_child(backend, bench.name, None).map(|_| None)
            } else {
                build_times(backend, bench.name).map(Some)
            };
            match result {
                Ok(Some((cold, cached))) => {
                    build.push((format!("{backend} cold"), cold));
                    build.push((format!("{backend} cached"), cached));
                }
                Ok(None) => {}
                Err(e) => crashed.push((backend, format!("{e:#}"))),
            }
        }
        let ok = |b: &str| !crashed.iter().any(|(c, _)| *c == b);
        let platforms: Vec<(Platform, &opencl::Device)> = devices
            .iter()
            .filter(|(p, _)| ok(p.key()))
            .map(|(p, d)| (*p, d))
            .collect();
        let mut o = run_bench(cli, &bench, &platforms, ok("lockstep"));
        o.build = build;
        for (backend, e) in crashed {
            o.failures.insert(0, format!("{backend}: {e}"));
        }
        let cl: Vec<String> = devices
            .iter()
            .map(|(p, _)| format!("{} {} ms", p.key(), fmt_ms(o.cl_best(*p))))
            .collect();
        eprintln!(
            " lockstep {} ms, {}, native {} ms{}",
            fmt_ms(o.lockstep.as_ref().map(|s| s.best)),
            cl.join(", "),
            fmt_ms(o.native_best().map(|n| n.1)),
            if o.failures.is_empty() {
                ""
            } else {
                "  FAILED"
            }
        );
        outcomes.push(o);
    }

    // The cold-start PyOpenCL session on each platform that was found.
    let cold_start = if cli.no_cold_start
        || (!cli.only.is_empty() && !cli.only.iter().any(|n| n == "cold_start"))
    {
        None
    } else {
        eprint!("cold_start    ...");
        let keys: Vec<&'static str> = cold_start::PLATFORMS
            .iter()
            .map(|(k, _)| *k)
            .filter(|&k| k == "lockstep" || devices.iter().any(|(p, _)| p.key() == k))
            .collect();
        let sessions = cold_start::run(&keys, COLD_START_RUNS);
        match &sessions {
            Ok(all) => {
                for s in all {
                    match (&s.runs, s.best_cpu()) {
                        (Ok(_), Some(cpu)) => eprint!(" {} {cpu:.2} CPU-s,", s.key),
                        (Err(e), _) => eprint!(" {}: {e:#},", s.key),
                        _ => {}
                    }
                }
                eprintln!();
            }
            Err(e) => eprintln!(" {e:#}"),
        }
        Some(sessions)
    };
    let overhead_ls = launch_overhead_lockstep();
    let overhead_cl: Vec<(Platform, Result<Stats>)> = devices
        .iter()
        .map(|(p, d)| (*p, launch_overhead_cl(d)))
        .collect();
    let load_end = loadavg();

    // The table: a column per platform, found or not.
    let ran = |p: Platform| devices.iter().any(|(q, _)| *q == p);
    let mut head = format!("{:<13} {:>11}", "kernel", "Lockstep ms");
    for p in Platform::ALL {
        head += &format!(" {:>9}", format!("{} ms", p.title()));
    }
    head += &format!(" {:>9} {:<11}", "native ms", "(native)");
    for p in Platform::ALL {
        head += &format!(" {:>13}", format!("speedup/{}", p.title()));
    }
    head += &format!(" {:>12} {:>9}  check", "ratio/native", "checked/");
    println!("{head}");
    let mut speedups: Vec<Vec<f64>> = vec![Vec::new(); Platform::ALL.len()];
    let mut ratios = Vec::new();
    let mut checked_ratios = Vec::new();
    for o in &outcomes {
        let ls = o.lockstep.as_ref().map(|s| s.best);
        let nat = o.native_best();
        let ratio = ls.zip(nat).map(|(l, n)| l / n.1);
        ratios.extend(ratio);
        let check = if o.failures.is_empty() {
            if o.fallback.is_some() {
                "ok (ran on the interpreter!)"
            } else {
                "ok"
            }
        } else {
            "FAILED"
        };
        let mut line = format!("{:<13} {:>11}", o.name, fmt_ms(ls));
        for p in Platform::ALL {
            line += &format!(" {:>9}", fmt_ms(o.cl_best(p)));
        }
        line += &format!(
            " {:>9} {:<11}",
            fmt_ms(nat.map(|n| n.1)),
            nat.map_or(String::new(), |n| format!("({})", n.0))
        );
        for (i, p) in Platform::ALL.into_iter().enumerate() {
            let s = o.speedup(p);
            speedups[i].extend(s);
            line += &format!(" {:>13}", fmt_ratio(s));
        }
        let checked = o.checked.as_ref().zip(ls).map(|(c, l)| c.best / l);
        checked_ratios.extend(checked);
        line += &format!(
            " {:>12} {:>9}  {check}",
            fmt_ratio(ratio),
            fmt_ratio(checked)
        );
        println!("{line}");
    }
    let geomeans: Vec<(Platform, Option<f64>)> = Platform::ALL
        .into_iter()
        .zip(&speedups)
        .filter(|(p, _)| ran(*p))
        .map(|(p, s)| (p, geomean(s)))
        .collect();
    let geo_of = |p: Platform| geomeans.iter().find(|(q, _)| *q == p).and_then(|g| g.1);
    let geo_ratio = geomean(&ratios);
    let mut line = format!("{:<13} {:>11}", "geomean", "");
    for _ in Platform::ALL {
        line += &format!(" {:>9}", "");
    }
    line += &format!(" {:>9} {:<11}", "", "");
    for p in Platform::ALL {
        line += &format!(" {:>13}", fmt_ratio(geo_of(p)));
    }
    line += &format!(
        " {:>12} {:>9}",
        fmt_ratio(geo_ratio),
        fmt_ratio(geomean(&checked_ratios))
    );
    println!("{line}");
    println!(
        "\nspeedup/X = X ms / Lockstep ms (higher is better: Lockstep is faster above 1); ratio/native = Lockstep ms / native ms (lower is better); checked/ = Lockstep's checked mode (bounds, alignment, access modes) ms / Lockstep ms"
    );
    for (p, why) in &missing {
        println!("{}: not measured ({why})", p.title());
    }
    let traced: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| !o.per_kernel.is_empty())
        .collect();
    if !traced.is_empty() {
        println!("\nper kernel, ms (one run, each launch waited for, summed per kernel):");
        for o in traced {
            for (who, sums) in &o.per_kernel {
                let parts: Vec<String> = sums.iter().map(|(n, t)| format!("{n} {t:.2}")).collect();
                println!("  {:<13} {:<9} {}", o.name, who, parts.join(", "));
            }
        }
    }

    let studied: Vec<&Outcome> = outcomes.iter().filter(|o| !o.refill.is_empty()).collect();
    if !studied.is_empty() {
        println!("\nlane refill, Lockstep ms (forced off, forced on, the default auto; on/off > 1: refill is faster):");
        println!(
            "{:<13} {:>9} {:>9} {:>9} {:>8} {:>13}",
            "kernel", "off", "on", "auto", "on/off", "auto/Intel"
        );
        for o in studied {
            let of = |m: RefillMode| o.refill.iter().find(|(q, _)| *q == m).map(|(_, s)| s.best);
            let (off, on) = (of(RefillMode::Off), of(RefillMode::On));
            println!(
                "{:<13} {:>9} {:>9} {:>9} {:>8} {:>13}",
                o.name,
                fmt_ms(off),
                fmt_ms(on),
                fmt_ms(o.lockstep.as_ref().map(|s| s.best)),
                fmt_ratio(off.zip(on).map(|(a, b)| a / b)),
                fmt_ratio(o.speedup(Platform::Intel)),
            );
        }
    }

    if !cli.no_build_times {
        println!("\nbuild times, ms (program build + first-launch compile; cold = empty cache, cached = second process; Intel keeps no cache on disk):");
        let mut columns = vec![("lockstep", "Lockstep")];
        columns.extend(devices.iter().map(|(p, _)| (p.key(), p.title())));
        let mut head = format!("{:<13}", "kernel");
        for (_, title) in &columns {
            head += &format!(
                " {:>15} {:>15}",
                format!("{title} cold"),
                format!("{title} cached")
            );
        }
        println!("{head}");
        for o in &outcomes {
            let get = |k: &str| {
                o.build
                    .iter()
                    .find(|(n, _)| n == k)
                    .map(|(_, b)| format!("{:.1}", b.total()))
                    .unwrap_or_else(|| "-".into())
            };
            let mut line = format!("{:<13}", o.name);
            for (key, _) in &columns {
                line += &format!(
                    " {:>15} {:>15}",
                    get(&format!("{key} cold")),
                    get(&format!("{key} cached"))
                );
            }
            println!("{line}");
        }
    }
    let show = |r: &Result<Stats>| match r {
        Ok(s) => format!("best {:.1} us, median {:.1} us", s.best, s.median),
        Err(e) => format!("failed: {e:#}"),
    };
    println!("\nlaunch overhead (empty kernel, 64 work-items, {OVERHEAD_LAUNCHES} launches):");
    println!("  {:<9} {}", "Lockstep:", show(&overhead_ls));
    for (p, r) in &overhead_cl {
        println!("  {:<9} {}", format!("{}:", p.title()), show(r));
    }

    if let Some(sessions) = &cold_start {
        println!(
            "\ncold start: the PyOpenCL session of {} in a fresh process, caches off, CPU seconds (user + system), best of {COLD_START_RUNS} (median; best wall):",
            cold_start::script().display()
        );
        match sessions {
            Ok(all) => {
                for s in all {
                    match &s.runs {
                        Ok(_) => println!(
                            "  {:<9} {:.2} CPU-s (median {:.2}; wall {:.2} s)",
                            format!("{}:", s.key),
                            s.best_cpu().unwrap_or(f64::NAN),
                            s.median_cpu().unwrap_or(f64::NAN),
                            s.best_wall().unwrap_or(f64::NAN)
                        ),
                        Err(e) => println!("  {:<9} failed: {e:#}", format!("{}:", s.key)),
                    }
                }
            }
            Err(e) => println!("  failed: {e:#}"),
        }
    }
    let mut targets = targets(&outcomes, &geomeans);
    if let Some(Ok(all)) = &cold_start {
        let cpu = |k: &str| all.iter().find(|s| s.key == k).and_then(|s| s.best_cpu());
        let (ls, intel) = (cpu("lockstep"), cpu("intel"));
        targets.push(Target {
            what: "cold start: PyOpenCL session CPU time <= Intel's".into(),
            met: ls.zip(intel).map(|(a, b)| a <= b),
            detail: format!(
                "Lockstep {}, Intel {} CPU-s",
                ls.map_or("-".into(), |x| format!("{x:.2}")),
                intel.map_or("-".into(), |x| format!("{x:.2}"))
            ),
        });
    }
    println!("\ntargets:");
    for t in &targets {
        let mark = match t.met {
            Some(true) => "met   ",
            Some(false) => "MISSED",
            None => "n/a   ",
        };
        println!("  [{mark}] {}: {}", t.what, t.detail);
    }

    let mut all_ok = true;
    for o in &outcomes {
        if let Some(f) = &o.fallback {
            println!("\nnote: {}: {f}", o.name);
        }
        for s in &o.skipped {
            println!("\nnote: {}: skipped on {s}", o.name);
        }
        for f in &o.failures {
            all_ok = false;
            println!("\nFAILED: {}: {f}", o.name);
        }
    }
    if overhead_ls.is_err() || overhead_cl.iter().any(|(_, r)| r.is_err()) {
        all_ok = false;
    }
    println!("\nload average: {load_start} at start, {load_end} at end");

    // JSON.
    let stats_json = |s: Option<&Stats>| match s {
        Some(s) => Json::obj(vec![
            ("best_ms", Json::Num(s.best)),
            ("median_ms", Json::Num(s.median)),
        ]),
        None => Json::Null,
    };
    let kernels: Vec<Json> = outcomes
        .iter()
        .map(|o| {
            let ls = o.lockstep.as_ref().map(|s| s.best);
            let nat = o.native_best();
            let bench = suite::all()
                .into_iter()
                .map(|f| f())
                .find(|b| b.name == o.name);
            let cl_stats = |p: Platform| o.cl.iter().find(|(q, _)| *q == p).map(|(_, s)| s);
            Json::obj(vec![
                ("name", Json::Str(o.name.clone())),
                ("what", Json::Str(o.what.clone())),
                ("size", Json::Str(o.size.clone())),
                (
                    "file",
                    Json::Str(
                        bench
                            .as_ref()
                            .map_or(String::new(), |b| format!("bench/kernels/{}", b.file)),
                    ),
                ),
                ("lockstep", stats_json(o.lockstep.as_ref())),
                ("lockstep_checked", stats_json(o.checked.as_ref())),
                (
                    "lockstep_refill",
                    Json::Obj(
                        o.refill
                            .iter()
                            .map(|(m, s)| (m.name().to_string(), stats_json(Some(s))))
                            .collect(),
                    ),
                ),
                ("pocl", stats_json(cl_stats(Platform::Pocl))),
                ("intel", stats_json(cl_stats(Platform::Intel))),
                (
                    "native",
                    Json::Obj(
                        o.native
                            .iter()
                            .map(|(n, s)| (n.clone(), stats_json(Some(s))))
                            .collect(),
                    ),
                ),
                ("native_best_ms", Json::opt(nat.map(|n| n.1))),
                (
                    "native_best_variant",
                    nat.map_or(Json::Null, |n| Json::Str(n.0.to_string())),
                ),
                ("speedup_vs_pocl", Json::opt(o.speedup(Platform::Pocl))),
                ("speedup_vs_intel", Json::opt(o.speedup(Platform::Intel))),
                (
                    "ratio_vs_native",
                    Json::opt(ls.zip(nat).map(|(l, n)| l / n.1)),
                ),
                (
                    "build_ms",
                    Json::Obj(
                        o.build
                            .iter()
                            .map(|(n, b)| {
                                (
                                    n.replace(' ', "_"),
                                    Json::obj(vec![
                                        ("program", Json::Num(b.program)),
                                        ("first_launch_compile", Json::Num(b.first_launch)),
                                        ("first_run", Json::Num(b.first_run)),
                                        ("steady_run", Json::Num(b.steady_run)),
                                        ("total", Json::Num(b.total())),
                                    ]),
                                )
                            })
                            .collect(),
                    ),
                ),
                (
                    "checks",
                    Json::Arr(
                        o.checks
                            .iter()
                            .map(|(who, output, summary, ok)| {
                                let how = bench
                                    .as_ref()
                                    .and_then(|b| b.outputs.iter().find(|x| x.name == output))
                                    .map_or(String::new(), |x| x.check.describe());
                                Json::obj(vec![
                                    ("implementation", Json::Str(who.clone())),
                                    ("output", Json::Str(output.clone())),
                                    ("tolerance", Json::Str(how)),
                                    ("result", Json::Str(summary.clone())),
                                    ("ok", Json::Bool(*ok)),
                                ])
                            })
                            .collect(),
                    ),
                ),
                (
                    "interpreter_fallback",
                    o.fallback.clone().map_or(Json::Null, Json::Str),
                ),
                ("ok", Json::Bool(o.failures.is_empty())),
                (
                    "failures",
                    Json::Arr(o.failures.iter().map(|f| Json::Str(f.clone())).collect()),
                ),
                (
                    "skipped",
                    Json::Arr(o.skipped.iter().map(|f| Json::Str(f.clone())).collect()),
                ),
            ])
        })
        .collect();
    let overhead_json = |r: &Result<Stats>| match r {
        Ok(s) => Json::obj(vec![
            ("best_us", Json::Num(s.best)),
            ("median_us", Json::Num(s.median)),
        ]),
        Err(e) => Json::Str(format!("failed: {e:#}")),
    };
    let device_of = |p: Platform| {
        devices
            .iter()
            .find(|(q, _)| *q == p)
            .map_or(Json::Null, |(_, d)| Json::Str(d.device_name.clone()))
    };
    let missing_json = Json::Obj(
        missing
            .iter()
            .map(|(p, why)| (p.key().to_string(), Json::Str(why.clone())))
            .collect(),
    );
    let doc = Json::obj(vec![
        (
            "machine",
            Json::obj(vec![
                ("cpu", Json::Str(device.cpu_model.clone())),
                ("cores", Json::Num(device.cores as f64)),
                ("lockstep_cpu", Json::Str(device.target_cpu.clone())),
                ("lockstep_cpu_from_env", Json::Bool(device.target_from_env)),
                ("lockstep_simd_width", Json::Num(width as f64)),
                ("lockstep_threads", Json::Num(threads as f64)),
                ("native_isa", Json::Str(isa.clone())),
                ("native_flags", Json::Str("gcc -O3 -march=native -fopenmp -fno-math-errno".into())),
                ("opencl_loader", loader.as_ref().map_or(Json::Null, |l| Json::Str(l.clone()))),
                ("pocl_device", device_of(Platform::Pocl)),
                ("intel_device", device_of(Platform::Intel)),
                (
                    "intel_target_arch",
                    intel_arch.clone().map_or(Json::Null, Json::Str),
                ),
                ("platforms_missing", missing_json),
                ("git_commit", Json::Str(commit.clone())),
                (
                    "uncommitted_compiler_changes",
                    Json::Arr(dirty.iter().map(|d| Json::Str(d.clone())).collect()),
                ),
                ("load_average_start", Json::Str(load_start.clone())),
                ("load_average_end", Json::Str(load_end)),
            ]),
        ),
        (
            "method",
            Json::obj(vec![
                ("repeat", Json::Num(cli.repeat as f64)),
                ("warmup", Json::Num(cli.warmup as f64)),
                ("statistic", Json::Str("best of repeat runs (median also given)".into())),
                ("lockstep_timing", Json::Str("wall clock of the Context::launch calls of one run (synchronous)".into())),
                ("opencl_timing", Json::Str("pocl and Intel: wall clock of clEnqueueNDRangeKernel for every launch of one run, then one clFinish; buffers created once".into())),
                ("native_timing", Json::Str("wall clock of the C function (OpenMP parallel)".into())),
                ("interleaving", Json::Str("after the warm-up runs, run k of every implementation before run k+1 of any, 20 ms pause before each".into())),
                ("reference", Json::Str("the first native variant (plain C); every other implementation is compared with it".into())),
                ("build_time", Json::Str("child process: program build + (first run - best steady run); cold = empty cache directory (XDG_CACHE_HOME for Lockstep, POCL_CACHE_DIR for pocl; Intel keeps no cache on disk), cached = a second process with the filled directory".into())),
            ]),
        ),
        ("kernels", Json::Arr(kernels)),
        ("geomean_speedup_vs_pocl", Json::opt(geo_of(Platform::Pocl))),
        ("geomean_speedup_vs_intel", Json::opt(geo_of(Platform::Intel))),
        ("geomean_ratio_vs_native", Json::opt(geo_ratio)),
        ("cold_start", cold_start_json(&cold_start)),
        (
            "launch_overhead",
            Json::Obj(
                [
                    ("kernel".to_string(), Json::Str("empty, 64 work-items, one group".into())),
                    ("launches".to_string(), Json::Num(OVERHEAD_LAUNCHES as f64)),
                    ("lockstep".to_string(), overhead_json(&overhead_ls)),
                ]
                .into_iter()
                .chain(
                    overhead_cl
                        .iter()
                        .map(|(p, r)| (p.key().to_string(), overhead_json(r))),
                )
                .collect(),
            ),
        ),
        (
            "targets",
            Json::Arr(
                targets
                    .iter()
                    .map(|t| {
                        Json::obj(vec![
                            ("target", Json::Str(t.what.clone())),
                            ("met", t.met.map_or(Json::Null, Json::Bool)),
                            ("detail", Json::Str(t.detail.clone())),
                        ])
                    })
                    .collect(),
            ),
        ),
        ("all_ok", Json::Bool(all_ok)),
    ]);
    if let Some(dir) = cli.json.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&cli.json, format!("{doc}\n"))
        .with_context(|| format!("writing {}", cli.json.display()))?;
    println!("results: {}", cli.json.display());
    if let Ok(exe) = probe_exe() {
        let _ = std::fs::remove_dir_all(exe.parent().expect("in a directory"));
    }
    Ok(all_ok)
}
