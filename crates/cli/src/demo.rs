//! `lockstep demo`: runs the bundled kernels (`crates/cli/demo/*.cl`) on
//! inputs made here, checks every result against a Rust reference, and
//! writes the Mandelbrot picture as a PNG.
//!
//! The three kernels cover what makes SIMD execution of OpenCL hard: a
//! divergent loop (mandelbrot), barriers with a shrinking set of active
//! work-items (reduce), and `__local` tiles shared by a work-group (matmul).

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context as _, Result};
use clap::Args;
use lockstep_runtime::{Buffer, Context, Kernel, LocalMem, NDRange, Program};

use crate::EngineArg;

const MANDELBROT_CL: &str = include_str!("../demo/mandelbrot.cl");
const REDUCE_CL: &str = include_str!("../demo/reduce.cl");
const MATMUL_CL: &str = include_str!("../demo/matmul.cl");

/// Iterations before a point counts as inside the set.
const MAX_ITER: u32 = 256;
/// Elements the reduction sums, and its launch shape.
const REDUCE_N: usize = 1 << 20;
const REDUCE_GROUPS: u64 = 64;
const REDUCE_LOCAL: u64 = 256;
/// The matrices' order; a multiple of the kernel's TILE (16).
const MATMUL_N: usize = 256;
const MATMUL_TILE: u64 = 16;

#[derive(Args)]
pub struct DemoArgs {
    /// Which engine runs the kernels.
    #[arg(long, value_enum, default_value_t = EngineArg::Simd)]
    engine: EngineArg,
    /// Size of the Mandelbrot picture in pixels, WIDTHxHEIGHT.
    #[arg(long, default_value = "512x384", value_parser = parse_size)]
    size: (u32, u32),
}

/// The largest picture side `--size` accepts.
const MAX_SIDE: u32 = 8192;

fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected WIDTHxHEIGHT (e.g. 512x384), got '{text}'");
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(1..=MAX_SIDE).contains(&w) || !(1..=MAX_SIDE).contains(&h) {
        return Err(format!(
            "width and height must be between 1 and {MAX_SIDE}, got {w}x{h}"
        ));
    }
    Ok((w, h))
}

/// What one demo printed about itself: whether its check passed.
struct Outcome {
    ok: bool,
}

pub fn run(args: DemoArgs) -> Result<()> {
    let engine = args.engine.engine()?;
    let ctx = lockstep_llvm::context().with_engine(engine);
    let device = ctx.device();
    println!(
        "lockstep demo: {} engine on {} ({} cores, SIMD width {})\n",
        engine, device.cpu_model, device.cores, device.simd_width
    );
    let dir = std::env::var_os("LOCKSTEP_DEMO_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("lockstep-demo"));
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("creating the output directory {}", dir.display()))?;
    let picture = dir.join("mandelbrot.png");

    let outcomes = [
        mandelbrot(&ctx, args.size, &picture)?,
        reduce(&ctx)?,
        matmul(&ctx)?,
    ];
    println!("picture: {}", picture.display());
    let failed = outcomes.iter().filter(|o| !o.ok).count();
    if failed > 0 {
        bail!(
            "{failed} of {} demo kernels did not match their reference",
            outcomes.len()
        );
    }
    Ok(())
}

/// Builds one embedded program and returns its kernel `name`.
fn kernel(ctx: &Context, file: &str, source: &str, name: &str) -> Result<Kernel> {
    let program = Program::build(ctx, source, "")
        .with_context(|| format!("building the demo kernel {file}"))?;
    Ok(program.kernel(name)?)
}

/// Launches and times the kernel, printing what ran.
fn launch(ctx: &Context, kernel: &Kernel, range: &NDRange) -> Result<f64> {
    let global = range.global_size();
    let local = range.local_size().unwrap_or([1; 3]);
    let dims = range.dims() as usize;
    let show = |v: [u64; 3]| {
        v[..dims]
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join("x")
    };
    println!(
        "kernel {}: NDRange {}, work-group {}, engine: {}",
        kernel.name(),
        show(global),
        show(local),
        ctx.engine()
    );
    // The first launch compiles (SIMD engine); the demo kernels are
    // idempotent, so the second one is timed.
    let report = ctx
        .launch(kernel, range)
        .with_context(|| format!("running the demo kernel {}", kernel.name()))?;
    if let Some(note) = &report.fallback {
        println!("  note: {note}");
    }
    let start = Instant::now();
    ctx.launch(kernel, range)
        .with_context(|| format!("running the demo kernel {}", kernel.name()))?;
    Ok(start.elapsed().as_secs_f64() * 1e3)
}

/// Prints the time and the verdict under the kernel's line.
fn verdict(ms: f64, ok: bool, what: &str) -> Outcome {
    let word = if ok { "ok" } else { "MISMATCH" };
    println!("  {ms:.1} ms, {word}: {what}\n");
    Outcome { ok }
}

// --------------------------------------------------------------- mandelbrot

/// The part of the plane the picture shows: x from -2.25, 3 units wide,
/// centred on the real axis; square pixels.
fn mandelbrot_view(width: u32, height: u32) -> (f32, f32, f32) {
    let step = 3.0f32 / width as f32;
    (-2.25, -step * height as f32 / 2.0, step)
}

/// The kernel's loop in Rust, operation for operation.
fn mandelbrot_reference(px: u32, py: u32, view: (f32, f32, f32)) -> u32 {
    let (x0, y0, step) = view;
    let cr = x0 + px as f32 * step;
    let ci = y0 + py as f32 * step;
    let (mut zr, mut zi) = (0.0f32, 0.0f32);
    let mut n = 0;
    while n < MAX_ITER {
        let zr2 = zr * zr;
        let zi2 = zi * zi;
        if zr2 + zi2 > 4.0 {
            break;
        }
        zi = 2.0 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        n += 1;
    }
    n
}

/// Renders the set, compares every pixel's iteration count with the Rust
/// reference, and writes the picture.
///
/// The criterion is exact equality. The kernel turns off contraction
/// (`FP_CONTRACT OFF`), so each step is the same IEEE single-precision
/// multiplies and adds as the reference, each correctly rounded: the orbits
/// are bit-identical, and so are the counts, even for points whose orbit
/// grazes the escape radius.
fn mandelbrot(ctx: &Context, (width, height): (u32, u32), picture: &Path) -> Result<Outcome> {
    let mut k = kernel(ctx, "mandelbrot.cl", MANDELBROT_CL, "mandelbrot")?;
    let view = mandelbrot_view(width, height);
    let pixels = width as usize * height as usize;
    let iterations = Buffer::<u32>::zeroed(pixels);
    k.set_arg(0, &iterations)?;
    k.set_arg(1, view.0)?;
    k.set_arg(2, view.1)?;
    k.set_arg(3, view.2)?;
    k.set_arg(4, MAX_ITER)?;
    let range = NDRange::new_2d(width as u64, height as u64).local([16, 16, 1]);
    let ms = launch(ctx, &k, &range)?;
    let counts = iterations.read();

    let mut wrong = Vec::new();
    for (i, &got) in counts.iter().enumerate() {
        let (px, py) = ((i % width as usize) as u32, (i / width as usize) as u32);
        let want = mandelbrot_reference(px, py, view);
        if got != want {
            wrong.push((px, py, got, want));
        }
    }
    write_png(picture, width, height, &counts).context("writing the Mandelbrot picture")?;
    let what = match wrong.first() {
        None => format!(
            "iteration counts equal the Rust reference at all {pixels} pixels (max {MAX_ITER})"
        ),
        Some((x, y, got, want)) => format!(
            "{} of {pixels} pixels differ from the Rust reference, first at ({x}, {y}): {got} iterations, expected {want}",
            wrong.len()
        ),
    };
    Ok(verdict(ms, wrong.is_empty(), &what))
}

/// Colours by iteration count: points in the set black, the rest along a
/// navy → blue → white → orange → dark gradient over the square root of the
/// count (so the many quick escapes stay dark and the slow ones near the
/// boundary light up).
fn colour(n: u32) -> [u8; 3] {
    const STOPS: [(f32, [f32; 3]); 6] = [
        (0.0, [0.0, 7.0, 100.0]),
        (0.16, [32.0, 107.0, 203.0]),
        (0.42, [237.0, 255.0, 255.0]),
        (0.6425, [255.0, 170.0, 0.0]),
        (0.8575, [0.0, 2.0, 0.0]),
        (1.0, [0.0, 7.0, 100.0]),
    ];
    if n >= MAX_ITER {
        return [0, 0, 0];
    }
    let t = (n as f32 / MAX_ITER as f32).sqrt();
    let i = STOPS
        .iter()
        .rposition(|(at, _)| *at <= t)
        .unwrap_or(0)
        .min(4);
    let ((t0, c0), (t1, c1)) = (STOPS[i], STOPS[i + 1]);
    let f = ((t - t0) / (t1 - t0)).clamp(0.0, 1.0);
    [0, 1, 2].map(|k| (c0[k] + f * (c1[k] - c0[k])).round() as u8)
}

fn write_png(path: &Path, width: u32, height: u32, counts: &[u32]) -> Result<()> {
    let file = File::create(path).with_context(|| format!("creating {}", path.display()))?;
    let mut encoder = png::Encoder::new(BufWriter::new(file), width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let rgb: Vec<u8> = counts.iter().flat_map(|&n| colour(n)).collect();
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(())
}

// ------------------------------------------------------------------- inputs

/// Deterministic inputs in [0, 1): xorshift32, the top 24 bits as a fraction.
fn unit_floats(n: usize, seed: u32) -> Vec<f32> {
    let mut state = seed.max(1);
    (0..n)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 8) as f32 / (1u32 << 24) as f32
        })
        .collect()
}

// ------------------------------------------------------------------ reduce

/// Sums a million floats and compares with a Rust sum in f64.
///
/// Each work-item adds `m` elements one after another, then the group adds
/// its items' sums in a tree of log2(L) levels, so every element passes
/// through at most `m - 1 + log2 L` single-precision additions; the error is
/// at most that many unit roundoffs times the sum of |x|. The tolerance takes
/// `m + log2 L` machine epsilons (twice the unit roundoff) for margin; the
/// host adds the partial sums in f64.
fn reduce(ctx: &Context) -> Result<Outcome> {
    let mut k = kernel(ctx, "reduce.cl", REDUCE_CL, "reduce")?;
    let input = unit_floats(REDUCE_N, 0x2545_f491);
    let input_buf = Buffer::from_slice(&input);
    let partial = Buffer::<f32>::zeroed(REDUCE_GROUPS as usize);
    k.set_arg(0, &input_buf)?;
    k.set_arg(1, REDUCE_N as u32)?;
    k.set_arg(2, LocalMem(REDUCE_LOCAL as usize * 4))?;
    k.set_arg(3, &partial)?;
    let range = NDRange::new_1d(REDUCE_GROUPS * REDUCE_LOCAL).local([REDUCE_LOCAL, 1, 1]);
    let ms = launch(ctx, &k, &range)?;

    let got: f64 = partial.read().iter().map(|&p| p as f64).sum();
    let want: f64 = input.iter().map(|&x| x as f64).sum();
    let abs_sum: f64 = input.iter().map(|&x| (x as f64).abs()).sum();
    let per_item = REDUCE_N as f64 / (REDUCE_GROUPS * REDUCE_LOCAL) as f64;
    let levels = (REDUCE_LOCAL as f64).log2();
    let tolerance = (per_item + levels) * f32::EPSILON as f64 * abs_sum;
    let error = (got - want).abs();
    let what = format!(
        "sum of {REDUCE_N} floats {got:.3}, Rust sum {want:.3}, |difference| {error:.2e} (tolerance {tolerance:.2e})"
    );
    Ok(verdict(ms, error <= tolerance, &what))
}

// ------------------------------------------------------------------ matmul

/// Multiplies two random 256x256 matrices and compares each element with a
/// Rust product in f64.
///
/// Each element is a dot product of length n accumulated in single
/// precision (with or without fused multiply-adds), whose error is at most
/// about n unit roundoffs times sum_k |a_ik| |b_kj|; the tolerance allows n
/// machine epsilons (twice that) times the same sum, element by element.
fn matmul(ctx: &Context) -> Result<Outcome> {
    let n = MATMUL_N;
    let mut k = kernel(ctx, "matmul.cl", MATMUL_CL, "matmul")?;
    let a: Vec<f32> = unit_floats(n * n, 0x9e37_79b9)
        .iter()
        .map(|x| 2.0 * x - 1.0)
        .collect();
    let b: Vec<f32> = unit_floats(n * n, 0x85eb_ca6b)
        .iter()
        .map(|x| 2.0 * x - 1.0)
        .collect();
    let a_buf = Buffer::from_slice(&a);
    let b_buf = Buffer::from_slice(&b);
    let c_buf = Buffer::<f32>::zeroed(n * n);
    k.set_arg(0, &a_buf)?;
    k.set_arg(1, &b_buf)?;
    k.set_arg(2, &c_buf)?;
    k.set_arg(3, n as u32)?;
    let range = NDRange::new_2d(n as u64, n as u64).local([MATMUL_TILE, MATMUL_TILE, 1]);
    let ms = launch(ctx, &k, &range)?;
    let c = c_buf.read();

    let mut worst = 0.0f64; // largest error / tolerance
    let mut max_error = 0.0f64;
    let mut first_wrong = None;
    for i in 0..n {
        for j in 0..n {
            let (mut want, mut abs) = (0.0f64, 0.0f64);
            for k in 0..n {
                let p = a[i * n + k] as f64 * b[k * n + j] as f64;
                want += p;
                abs += p.abs();
            }
            let error = (c[i * n + j] as f64 - want).abs();
            let tolerance = n as f64 * f32::EPSILON as f64 * abs;
            max_error = max_error.max(error);
            worst = worst.max(error / tolerance);
            if error > tolerance && first_wrong.is_none() {
                first_wrong = Some((i, j, c[i * n + j], want));
            }
        }
    }
    let what = match first_wrong {
        None => format!(
            "{n}x{n} product equals the Rust matmul within tolerance (max |error| {max_error:.2e}, {:.0}% of its tolerance)",
            worst * 100.0
        ),
        Some((i, j, got, want)) => format!(
            "c[{i}][{j}] = {got}, the Rust matmul gives {want} (max |error| {max_error:.2e})"
        ),
    };
    Ok(verdict(ms, first_wrong.is_none(), &what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("512x384"), Ok((512, 384)));
        assert_eq!(parse_size("7X3"), Ok((7, 3)));
        assert!(parse_size("512").unwrap_err().contains("WIDTHxHEIGHT"));
        assert!(parse_size("0x10").unwrap_err().contains("between 1 and"));
        assert!(parse_size("axb").is_err());
    }

    #[test]
    fn reference_counts_known_points() {
        let view = (0.0f32, 0.0f32, 1.0f32);
        assert_eq!(mandelbrot_reference(0, 0, view), MAX_ITER); // c = 0 is inside
        assert_eq!(mandelbrot_reference(3, 0, view), 1); // c = 3 escapes after one step
    }
}
