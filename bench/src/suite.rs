//! The benchmarks: for each kernel file, its inputs (made here, the same for
//! every implementation), the launches that make one run, the outputs to
//! compare and how, and the native versions.

use crate::native as c;

/// A kernel argument of a launch.
#[derive(Clone, Debug)]
pub enum Arg {
    /// Buffer `i` of the benchmark.
    Buf(usize),
    U32(u32),
    F32(f32),
    /// Bytes of `__local` memory.
    Local(usize),
}

/// One kernel launch.
#[derive(Clone, Debug)]
pub struct Launch {
    pub kernel: &'static str,
    pub args: Vec<Arg>,
    pub global: Vec<u64>,
    pub local: Vec<u64>,
}

/// How an output is compared with the native result.
#[derive(Clone, Copy, Debug)]
pub enum Check {
    /// Bit-exact 32-bit words (integer results).
    Exact,
    /// Integer words, of which at most `max_bad` (a fraction) may differ:
    /// results of float iterations whose rounding may differ (FMA
    /// contraction, math library ulps).
    MostlyExact { max_bad: f64 },
    /// Floats: |a - b| <= abs + rel * |b| for all but `max_bad` of them.
    Float { rel: f32, abs: f32, max_bad: f64 },
    /// The sum of all the floats, within `rel` (a reduction's partial sums
    /// against the native total).
    Total { rel: f64 },
}

impl Check {
    pub fn describe(&self) -> String {
        match *self {
            Check::Exact => "exact".into(),
            Check::MostlyExact { max_bad } => {
                format!("exact in >= {}% of elements", 100.0 - max_bad * 100.0)
            }
            Check::Float {
                rel,
                abs,
                max_bad: 0.0,
            } => {
                format!("float, |d| <= {abs:e} + {rel:e}*|ref| for all")
            }
            Check::Float { rel, abs, max_bad } => format!(
                "float, |d| <= {abs:e} + {rel:e}*|ref| for >= {}%",
                100.0 - max_bad * 100.0
            ),
            Check::Total { rel } => format!("sum of all within {rel:e} relative"),
        }
    }
}

/// An output buffer and how to check it.
pub struct Output {
    pub buf: usize,
    pub name: &'static str,
    pub check: Check,
}

/// A native implementation's entry: runs on the benchmark's buffers.
pub type NativeFn = Box<dyn Fn(&mut [Vec<u32>])>;

/// A native implementation.
pub struct Native {
    pub name: String,
    pub run: NativeFn,
}

/// A buffer of a benchmark that is a 2D image of RGBA floats (four words a
/// texel, rows tightly packed).
#[derive(Clone, Copy, Debug)]
pub struct ImageBuf {
    pub buf: usize,
    pub width: usize,
    pub height: usize,
}

pub struct Bench {
    pub name: &'static str,
    /// The file in `bench/kernels`.
    pub file: &'static str,
    /// Build options (`-cl-std=CL3.0` for OpenCL C 2.0/3.0 functions).
    pub options: &'static str,
    /// Extensions or OpenCL C features a device must report to run it
    /// (an OpenCL platform without one skips the benchmark).
    pub requires: &'static [&'static str],
    pub what: &'static str,
    pub size: String,
    /// Initial contents of each buffer, as 32-bit words.
    pub bufs: Vec<Vec<u32>>,
    /// Buffers a run modifies in place, written back to their initial
    /// contents before every run (not timed).
    pub reset: Vec<usize>,
    /// Buffers that are images instead (their words the texels).
    pub images: Vec<ImageBuf>,
    pub launches: Vec<Launch>,
    pub outputs: Vec<Output>,
    pub native: Vec<Native>,
}

/// xorshift64*: the inputs' pseudo-random numbers.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
    }
    /// Uniform in [lo, hi).
    fn float(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next_u32() >> 8) as f32 / 16_777_216.0)
    }
}

fn floats(n: usize, seed: u64, lo: f32, hi: f32) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.float(lo, hi).to_bits()).collect()
}

fn f(b: &[u32]) -> *const f32 {
    b.as_ptr() as *const f32
}

fn fm(b: &mut [u32]) -> *mut f32 {
    b.as_mut_ptr() as *mut f32
}

fn launch(kernel: &'static str, args: Vec<Arg>, global: &[u64], local: &[u64]) -> Launch {
    Launch {
        kernel,
        args,
        global: global.to_vec(),
        local: local.to_vec(),
    }
}

use Arg::{Buf, Local, F32, U32};

/// Every benchmark, in table order.
pub fn all() -> Vec<fn() -> Bench> {
    vec![
        saxpy,
        mandelbrot,
        collatz,
        nbody,
        matmul,
        reduction,
        reduction_sg,
        scan,
        scan_wg,
        blackscholes,
        sobel,
        histogram,
        bitonic,
        ao,
        parser,
        parser_resume,
        spmv,
        vm,
        conv5x5,
        blur_image,
        transpose,
        stream_int,
        smooth,
    ]
}

fn saxpy() -> Bench {
    const N: usize = 1 << 25;
    const A: f32 = 2.5;
    Bench {
        name: "saxpy",
        file: "saxpy.cl",
        options: "",
        requires: &[],
        what: "z = a*x + y (stream triad), memory bound",
        size: format!("{N} floats (3 x {} MiB)", (N * 4) >> 20),
        bufs: vec![floats(N, 1, -1.0, 1.0), floats(N, 2, -1.0, 1.0), vec![0; N]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "saxpy",
            vec![F32(A), Buf(0), Buf(1), Buf(2)],
            &[N as u64],
            &[256],
        )],
        outputs: vec![Output {
            buf: 2,
            name: "z",
            check: Check::Float {
                rel: 1e-6,
                abs: 1e-6,
                max_bad: 0.0,
            },
        }],
        native: vec![
            Native {
                name: "c-openmp".into(),
                run: Box::new(|b| unsafe {
                    let z = fm(&mut b[2]);
                    c::nat_saxpy(A, f(&b[0]), f(&b[1]), z, N as _)
                }),
            },
            Native {
                name: "intrinsics".into(),
                run: Box::new(|b| unsafe {
                    let z = fm(&mut b[2]);
                    c::nat_saxpy_simd(A, f(&b[0]), f(&b[1]), z, N as _)
                }),
            },
        ],
    }
}

fn mandelbrot() -> Bench {
    const W: u32 = 2048;
    const H: u32 = 2048;
    const ITERS: u32 = 512;
    const X0: f32 = -2.25;
    const Y0: f32 = -1.5;
    const STEP: f32 = 3.0 / 2048.0;
    Bench {
        name: "mandelbrot",
        file: "mandelbrot.cl",
        options: "",
        requires: &[],
        what: "escape-time iteration counts, divergent loop",
        size: format!("{W}x{H} pixels, up to {ITERS} iterations"),
        bufs: vec![vec![0; (W * H) as usize]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "mandelbrot",
            vec![Buf(0), F32(X0), F32(Y0), F32(STEP), U32(W), U32(ITERS)],
            &[W as u64, H as u64],
            &[64, 4],
        )],
        outputs: vec![Output {
            buf: 0,
            name: "iterations",
            check: Check::MostlyExact { max_bad: 0.005 },
        }],
        native: vec![
            Native {
                name: "c-openmp".into(),
                run: Box::new(|b| unsafe {
                    c::nat_mandelbrot(b[0].as_mut_ptr(), X0, Y0, STEP, W, H, ITERS)
                }),
            },
            Native {
                name: "intrinsics".into(),
                run: Box::new(|b| unsafe {
                    c::nat_mandelbrot_simd(b[0].as_mut_ptr(), X0, Y0, STEP, W, H, ITERS)
                }),
            },
        ],
    }
}

fn collatz() -> Bench {
    const N: usize = 1 << 20;
    let mut rng = Rng::new(21);
    let start: Vec<u32> = (0..N).map(|_| 1 + rng.next_u32() % (1 << 22)).collect();
    Bench {
        name: "collatz",
        file: "collatz.cl",
        options: "",
        requires: &[],
        what: "Collatz chain lengths: a data-dependent loop, lanes finish at very different times",
        size: format!("{N} starting values below 2^22"),
        bufs: vec![start, vec![0; N]],
        reset: vec![],
        images: vec![],
        launches: vec![launch("collatz", vec![Buf(0), Buf(1)], &[N as u64], &[256])],
        outputs: vec![Output {
            buf: 1,
            name: "steps",
            check: Check::Exact,
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let (inp, out) = b.split_at_mut(1);
                c::nat_collatz(inp[0].as_ptr(), out[0].as_mut_ptr(), N as u32)
            }),
        }],
    }
}

fn nbody() -> Bench {
    const N: usize = 16384;
    const DT: f32 = 0.01;
    const EPS2: f32 = 0.01;
    let mut rng = Rng::new(3);
    let mut pos = Vec::with_capacity(4 * N);
    for _ in 0..N {
        for _ in 0..3 {
            pos.push(rng.float(-10.0, 10.0).to_bits());
        }
        pos.push(rng.float(0.5, 1.5).to_bits());
    }
    let vel = floats(4 * N, 4, -0.1, 0.1);
    let tol = Check::Float {
        rel: 1e-3,
        abs: 1e-3,
        max_bad: 0.0,
    };
    Bench {
        name: "nbody",
        file: "nbody.cl",
        options: "",
        requires: &[],
        what: "all-pairs gravity step, rsqrt, compute bound",
        size: format!("{N} bodies ({} M interactions)", N * N / 1_000_000),
        bufs: vec![pos, vel, vec![0; 4 * N], vec![0; 4 * N]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "nbody",
            vec![
                Buf(0),
                Buf(1),
                Buf(2),
                Buf(3),
                U32(N as u32),
                F32(DT),
                F32(EPS2),
            ],
            &[N as u64],
            &[256],
        )],
        outputs: vec![
            Output {
                buf: 2,
                name: "new_pos",
                check: tol,
            },
            Output {
                buf: 3,
                name: "new_vel",
                check: tol,
            },
        ],
        native: vec![
            Native {
                name: "c-openmp".into(),
                run: Box::new(|b| unsafe {
                    let (inp, out) = b.split_at_mut(2);
                    let (p, v) = out.split_at_mut(1);
                    c::nat_nbody(
                        f(&inp[0]),
                        f(&inp[1]),
                        fm(&mut p[0]),
                        fm(&mut v[0]),
                        N as u32,
                        DT,
                        EPS2,
                    )
                }),
            },
            Native {
                name: "intrinsics".into(),
                run: Box::new(|b| unsafe {
                    let (inp, out) = b.split_at_mut(2);
                    let (p, v) = out.split_at_mut(1);
                    c::nat_nbody_simd(
                        f(&inp[0]),
                        f(&inp[1]),
                        fm(&mut p[0]),
                        fm(&mut v[0]),
                        N as u32,
                        DT,
                        EPS2,
                    )
                }),
            },
        ],
    }
}

fn matmul() -> Bench {
    const N: usize = 1024;
    Bench {
        name: "matmul",
        file: "matmul.cl",
        options: "",
        requires: &[],
        what: "C = A*B with 16x16 tiles in local memory and barriers",
        size: format!("{N}x{N} floats"),
        bufs: vec![
            floats(N * N, 5, -1.0, 1.0),
            floats(N * N, 6, -1.0, 1.0),
            vec![0; N * N],
        ],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "matmul",
            vec![Buf(0), Buf(1), Buf(2), U32(N as u32)],
            &[N as u64, N as u64],
            &[16, 16],
        )],
        outputs: vec![Output {
            buf: 2,
            name: "c",
            check: Check::Float {
                rel: 1e-3,
                abs: 1e-3,
                max_bad: 0.0,
            },
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let cm = fm(&mut b[2]);
                c::nat_matmul(f(&b[0]), f(&b[1]), cm, N as u32)
            }),
        }],
    }
}

fn reduction() -> Bench {
    const N: usize = 1 << 25;
    const LOCAL: u64 = 256;
    const GROUPS: u64 = 64;
    Bench {
        name: "reduction",
        file: "reduction.cl",
        options: "",
        requires: &[],
        what: "float sum: strided per-item sums, then a local-memory tree",
        size: format!("{N} floats, {GROUPS} groups of {LOCAL}"),
        bufs: vec![floats(N, 7, 0.0, 1.0), vec![0; GROUPS as usize]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "reduce_sum",
            vec![Buf(0), Buf(1), U32(N as u32), Local(LOCAL as usize * 4)],
            &[GROUPS * LOCAL],
            &[LOCAL],
        )],
        outputs: vec![Output {
            buf: 1,
            name: "sum",
            check: Check::Total { rel: 1e-5 },
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let out = fm(&mut b[1]);
                c::nat_reduce(f(&b[0]), N as u32, out)
            }),
        }],
    }
}

/// `reduction` with a subgroup reduction in place of the local-memory
/// tree.
fn reduction_sg() -> Bench {
    let mut b = reduction();
    b.name = "reduction_sg";
    b.file = "reduction_sg.cl";
    b.options = "-cl-std=CL3.0";
    b.requires = &["__opencl_c_subgroups"];
    b.what = "float sum: strided per-item sums, then sub_group_reduce_add";
    b.launches[0].kernel = "reduce_sum_sg";
    b
}

/// `scan` with the work-group scan functions.
fn scan_wg() -> Bench {
    let mut b = scan();
    b.name = "scan_wg";
    b.file = "scan_wg.cl";
    b.options = "-cl-std=CL3.0";
    b.requires = &["__opencl_c_work_group_collective_functions"];
    b.what = "inclusive prefix sum: work_group_scan_inclusive_add, scan of block sums, add";
    b.launches[0].args.pop();
    b.launches[1].args.pop();
    b
}

fn scan() -> Bench {
    const N: usize = 1 << 24;
    const LOCAL: u64 = 256;
    const BLOCK: u64 = 2 * LOCAL;
    const BLOCKS: u64 = N as u64 / BLOCK;
    let mut rng = Rng::new(8);
    let input: Vec<u32> = (0..N).map(|_| rng.next_u32() & 0xff).collect();
    Bench {
        name: "scan",
        file: "scan.cl",
        options: "",
        requires: &[],
        what: "inclusive prefix sum: work-group scans, scan of block sums, add",
        size: format!("{N} uints, blocks of {BLOCK}, 3 launches"),
        bufs: vec![input, vec![0; N], vec![0; BLOCKS as usize]],
        reset: vec![],
        images: vec![],
        launches: vec![
            launch(
                "scan_blocks",
                vec![Buf(0), Buf(1), Buf(2), Local(LOCAL as usize * 4)],
                &[N as u64 / 2],
                &[LOCAL],
            ),
            launch(
                "scan_sums",
                vec![Buf(2), U32(BLOCKS as u32), Local(LOCAL as usize * 4)],
                &[LOCAL],
                &[LOCAL],
            ),
            launch(
                "add_offsets",
                vec![Buf(1), Buf(2), U32(BLOCK as u32)],
                &[N as u64],
                &[LOCAL],
            ),
        ],
        outputs: vec![Output {
            buf: 1,
            name: "prefix sums",
            check: Check::Exact,
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let out = b[1].as_mut_ptr();
                c::nat_scan(b[0].as_ptr(), out, N as u32)
            }),
        }],
    }
}

fn blackscholes() -> Bench {
    const N: usize = 1 << 23;
    const RATE: f32 = 0.02;
    const VOL: f32 = 0.30;
    let tol = Check::Float {
        rel: 1e-4,
        abs: 1e-4,
        max_bad: 0.0,
    };
    Bench {
        name: "blackscholes",
        file: "blackscholes.cl",
        options: "",
        requires: &[],
        what: "European option prices: log, sqrt, exp",
        size: format!("{N} options"),
        bufs: vec![
            floats(N, 9, 5.0, 30.0),
            floats(N, 10, 1.0, 100.0),
            floats(N, 11, 0.25, 10.0),
            vec![0; N],
            vec![0; N],
        ],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "blackscholes",
            vec![Buf(0), Buf(1), Buf(2), Buf(3), Buf(4), F32(RATE), F32(VOL)],
            &[N as u64],
            &[256],
        )],
        outputs: vec![
            Output {
                buf: 3,
                name: "call",
                check: tol,
            },
            Output {
                buf: 4,
                name: "put",
                check: tol,
            },
        ],
        native: vec![
            Native {
                name: "c-openmp".into(),
                run: Box::new(|b| unsafe {
                    let (inp, out) = b.split_at_mut(3);
                    let (call, put) = out.split_at_mut(1);
                    c::nat_blackscholes(
                        f(&inp[0]),
                        f(&inp[1]),
                        f(&inp[2]),
                        fm(&mut call[0]),
                        fm(&mut put[0]),
                        N as u32,
                        RATE,
                        VOL,
                    )
                }),
            },
            Native {
                name: "intrinsics".into(),
                run: Box::new(|b| unsafe {
                    let (inp, out) = b.split_at_mut(3);
                    let (call, put) = out.split_at_mut(1);
                    c::nat_blackscholes_simd(
                        f(&inp[0]),
                        f(&inp[1]),
                        f(&inp[2]),
                        fm(&mut call[0]),
                        fm(&mut put[0]),
                        N as u32,
                        RATE,
                        VOL,
                    )
                }),
            },
        ],
    }
}

fn sobel() -> Bench {
    const W: usize = 4096;
    const H: usize = 4096;
    Bench {
        name: "sobel",
        file: "sobel.cl",
        options: "",
        requires: &[],
        what: "3x3 Sobel gradient magnitude, clamped borders (2D stencil)",
        size: format!("{W}x{H} floats"),
        bufs: vec![floats(W * H, 12, 0.0, 1.0), vec![0; W * H]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "sobel",
            vec![Buf(0), Buf(1), U32(W as u32), U32(H as u32)],
            &[W as u64, H as u64],
            &[64, 4],
        )],
        outputs: vec![Output {
            buf: 1,
            name: "magnitude",
            check: Check::Float {
                rel: 1e-5,
                abs: 1e-5,
                max_bad: 0.0,
            },
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let out = fm(&mut b[1]);
                c::nat_sobel(f(&b[0]), out, W as u32, H as u32)
            }),
        }],
    }
}

fn histogram() -> Bench {
    const NWORDS: usize = 1 << 24;
    const LOCAL: u64 = 256;
    const GROUPS: u64 = 128;
    let mut rng = Rng::new(13);
    // Skewed bytes (the sum of two uniform nibbles): some bins are hot.
    let words: Vec<u32> = (0..NWORDS)
        .map(|_| {
            let r = rng.next_u32();
            let mut w = 0u32;
            for k in 0..4 {
                let a = (r >> (8 * k)) & 0xff;
                let byte = ((a & 0xf) + (a >> 4)) * 8 + (k as u32 & 1);
                w |= (byte & 0xff) << (8 * k);
            }
            w
        })
        .collect();
    Bench {
        name: "histogram",
        file: "histogram.cl",
        options: "",
        requires: &[],
        what: "256-bin byte histogram, local atomics, then a merge kernel",
        size: format!(
            "{} MiB of bytes, {GROUPS} groups of {LOCAL}",
            (NWORDS * 4) >> 20
        ),
        bufs: vec![words, vec![0; GROUPS as usize * 256], vec![0; 256]],
        reset: vec![],
        images: vec![],
        launches: vec![
            launch(
                "histogram_local",
                vec![Buf(0), U32(NWORDS as u32), Buf(1)],
                &[GROUPS * LOCAL],
                &[LOCAL],
            ),
            launch(
                "histogram_merge",
                vec![Buf(1), U32(GROUPS as u32), Buf(2)],
                &[256],
                &[64],
            ),
        ],
        outputs: vec![Output {
            buf: 2,
            name: "histogram",
            check: Check::Exact,
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let hist = b[2].as_mut_ptr();
                c::nat_histogram(b[0].as_ptr(), NWORDS as u32, hist)
            }),
        }],
    }
}

fn bitonic() -> Bench {
    const LOG_N: u32 = 20;
    const N: usize = 1 << LOG_N;
    let mut rng = Rng::new(14);
    let data: Vec<u32> = (0..N).map(|_| rng.next_u32()).collect();
    let mut launches = Vec::new();
    for stage in 0..LOG_N {
        for pass in (0..=stage).rev() {
            launches.push(launch(
                "bitonic_step",
                vec![Buf(0), U32(stage), U32(pass)],
                &[N as u64 / 2],
                &[256],
            ));
        }
    }
    let count = launches.len();
    Bench {
        name: "bitonic",
        file: "bitonic.cl",
        options: "",
        requires: &[],
        what: "bitonic sorting network, one launch per step",
        size: format!("{N} uints, {count} launches"),
        bufs: vec![data],
        reset: vec![0],
        images: vec![],
        launches,
        outputs: vec![Output {
            buf: 0,
            name: "sorted",
            check: Check::Exact,
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe { c::nat_bitonic(b[0].as_mut_ptr(), N as u32) }),
        }],
    }
}

fn ao() -> Bench {
    const W: u32 = 1024;
    const H: u32 = 768;
    const SAMPLES: u32 = 16;
    #[rustfmt::skip]
    let spheres: Vec<f32> = vec![
        -1.2, -0.4, -3.0, 0.6,
         0.0, -0.3, -3.6, 0.7,
         1.3, -0.5, -3.2, 0.5,
        -0.5,  0.5, -4.5, 0.6,
         0.8,  0.6, -5.0, 0.8,
        -2.0,  0.2, -5.5, 0.9,
         2.2,  0.0, -4.2, 0.6,
         0.1, -0.8, -2.4, 0.2,
    ];
    let ns = spheres.len() as u32 / 4;
    Bench {
        name: "ao",
        file: "ao.cl",
        options: "",
        requires: &[],
        what: "ray/sphere ambient occlusion, nested divergence",
        size: format!("{W}x{H} pixels, {ns} spheres + plane, {SAMPLES} rays per pixel"),
        bufs: vec![
            spheres.iter().map(|x| x.to_bits()).collect(),
            vec![0; (W * H) as usize],
        ],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "ao",
            vec![Buf(0), U32(ns), U32(SAMPLES), Buf(1)],
            &[W as u64, H as u64],
            &[64, 4],
        )],
        outputs: vec![Output {
            buf: 1,
            name: "occlusion",
            check: Check::Float {
                rel: 0.0,
                abs: 1e-6,
                max_bad: 0.01,
            },
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(move |b| unsafe {
                let out = fm(&mut b[1]);
                c::nat_ao(f(&b[0]), ns, SAMPLES, W, H, out)
            }),
        }],
    }
}

/// Text records for the parsers: numbers, separators, comments and a few
/// stray characters. With `resume`, a quarter of the records start with
/// '*': inside a comment left open by the record before.
fn records(n: usize, len: usize, seed: u64, resume: bool) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut text = Vec::with_capacity(n * len);
    for _ in 0..n {
        let mut rec = Vec::with_capacity(len + 8);
        if resume && rng.next_u32().is_multiple_of(4) {
            rec.push(b'*');
            for _ in 0..rng.next_u32() % 12 {
                rec.push(b'a' + (rng.next_u32() % 26) as u8);
            }
            rec.push(b';');
        }
        while rec.len() < len {
            match rng.next_u32() % 16 {
                0 => {
                    rec.push(b'#');
                    for _ in 0..rng.next_u32() % 8 {
                        rec.push(b'a' + (rng.next_u32() % 26) as u8);
                    }
                    rec.push(b';');
                }
                1 => rec.push(b"x?-"[(rng.next_u32() % 3) as usize]),
                2..=4 => rec.push(b' '),
                5..=6 => rec.push(b','),
                _ => {
                    if rng.next_u32().is_multiple_of(4) {
                        rec.push(b'-');
                    }
                    for _ in 0..1 + rng.next_u32() % 5 {
                        rec.push(b'0' + (rng.next_u32() % 10) as u8);
                    }
                    rec.push(b' ');
                }
            }
        }
        rec.truncate(len);
        text.extend_from_slice(&rec);
    }
    text
}

type ParserFn = unsafe extern "C" fn(*const u8, u32, u32, *mut i32, *mut u32);

fn parser_bench(
    name: &'static str,
    file: &'static str,
    kernel: &'static str,
    what: &'static str,
    resume: bool,
    native: ParserFn,
) -> Bench {
    const NREC: usize = 1 << 20;
    const LEN: usize = 64;
    let text = records(NREC, LEN, 15, resume);
    let words: Vec<u32> = text
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect();
    Bench {
        name,
        file,
        options: "",
        requires: &[],
        what,
        size: format!("{NREC} records of {LEN} bytes"),
        bufs: vec![words, vec![0; NREC], vec![0; NREC]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            kernel,
            vec![Buf(0), U32(LEN as u32), Buf(1), Buf(2)],
            &[NREC as u64],
            &[256],
        )],
        outputs: vec![
            Output {
                buf: 1,
                name: "sums",
                check: Check::Exact,
            },
            Output {
                buf: 2,
                name: "counts",
                check: Check::Exact,
            },
        ],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(move |b| unsafe {
                let (text, out) = b.split_at_mut(1);
                let (sums, counts) = out.split_at_mut(1);
                native(
                    text[0].as_ptr() as *const u8,
                    LEN as u32,
                    NREC as u32,
                    sums[0].as_mut_ptr() as *mut i32,
                    counts[0].as_mut_ptr(),
                )
            }),
        }],
    }
}

fn parser() -> Bench {
    parser_bench(
        "parser",
        "parser.cl",
        "parse_records",
        "goto state machine parsing text records",
        false,
        c::nat_parser,
    )
}

fn parser_resume() -> Bench {
    parser_bench(
        "parser_resume",
        "parser_resume.cl",
        "parse_resume",
        "the goto parser entered inside its loop: irreducible control flow",
        true,
        c::nat_parser_resume,
    )
}

fn spmv() -> Bench {
    const ROWS: usize = 1 << 18;
    let mut rng = Rng::new(16);
    // Skewed rows: one in 64 has 128..1024 non-zeros, the others 1..16.
    let mut rowptr = Vec::with_capacity(ROWS + 1);
    let mut col = Vec::new();
    let mut val = Vec::new();
    rowptr.push(0u32);
    for _ in 0..ROWS {
        let len = if rng.next_u32().is_multiple_of(64) {
            128 + rng.next_u32() % 897
        } else {
            1 + rng.next_u32() % 16
        };
        for _ in 0..len {
            col.push(rng.next_u32() % ROWS as u32);
            val.push(rng.float(-1.0, 1.0).to_bits());
        }
        rowptr.push(col.len() as u32);
    }
    let nnz = col.len();
    Bench {
        name: "spmv",
        file: "spmv.cl",
        options: "",
        requires: &[],
        what: "CSR sparse matrix times vector, skewed row lengths, gathers",
        size: format!("{ROWS} rows, {nnz} non-zeros (1/64 of rows 128..1024 long, others 1..16)"),
        bufs: vec![rowptr, col, val, floats(ROWS, 17, -1.0, 1.0), vec![0; ROWS]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "spmv_csr",
            vec![Buf(0), Buf(1), Buf(2), Buf(3), Buf(4), U32(ROWS as u32)],
            &[ROWS as u64],
            &[256],
        )],
        outputs: vec![Output {
            buf: 4,
            name: "y",
            check: Check::Float {
                rel: 1e-4,
                abs: 1e-4,
                max_bad: 0.0,
            },
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let (inp, out) = b.split_at_mut(4);
                c::nat_spmv(
                    inp[0].as_ptr(),
                    inp[1].as_ptr(),
                    f(&inp[2]),
                    f(&inp[3]),
                    fm(&mut out[0]),
                    ROWS as u32,
                )
            }),
        }],
    }
}

fn vm() -> Bench {
    const N: usize = 1 << 16;
    const LEN: u32 = 61;
    const STEPS: u32 = 256;
    let mut rng = Rng::new(18);
    let code: Vec<u32> = (0..LEN)
        .map(|_| (rng.next_u32() % 8) | ((rng.next_u32() & 0xffff) << 8))
        .collect();
    let input: Vec<u32> = (0..N).map(|_| rng.next_u32()).collect();
    Bench {
        name: "vm",
        file: "vm.cl",
        options: "",
        requires: &[],
        what: "bytecode interpreter: switch on the opcode, data-dependent jumps, pc % len (a kernel argument)",
        size: format!("{N} work-items x {STEPS} steps, a {LEN}-instruction program"),
        bufs: vec![code, input, vec![0; N]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "vm",
            vec![Buf(0), U32(LEN), Buf(1), Buf(2), U32(STEPS)],
            &[N as u64],
            &[256],
        )],
        outputs: vec![Output {
            buf: 2,
            name: "registers",
            check: Check::Exact,
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let (inp, out) = b.split_at_mut(2);
                c::nat_vm(
                    inp[0].as_ptr(),
                    LEN,
                    inp[1].as_ptr(),
                    out[0].as_mut_ptr(),
                    N as u32,
                    STEPS,
                )
            }),
        }],
    }
}

fn conv5x5() -> Bench {
    const W: usize = 4096;
    const H: usize = 4096;
    let mut rng = Rng::new(19);
    let raw: Vec<f32> = (0..25).map(|_| rng.float(0.1, 1.0)).collect();
    let total: f32 = raw.iter().sum();
    let filt: Vec<u32> = raw.iter().map(|x| (x / total).to_bits()).collect();
    Bench {
        name: "conv5x5",
        file: "conv5x5.cl",
        options: "",
        requires: &[],
        what: "5x5 convolution, 16x16 tiles + halo staged in local memory, barrier",
        size: format!("{W}x{H} floats, 25 taps"),
        bufs: vec![floats(W * H, 20, 0.0, 1.0), vec![0; W * H], filt],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "conv5x5",
            vec![Buf(0), Buf(1), Buf(2), U32(W as u32), U32(H as u32)],
            &[W as u64, H as u64],
            &[16, 16],
        )],
        outputs: vec![Output {
            buf: 1,
            name: "out",
            check: Check::Float {
                rel: 1e-5,
                abs: 1e-5,
                max_bad: 0.0,
            },
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let (inp, out) = b.split_at_mut(1);
                let (o, filt) = out.split_at_mut(1);
                c::nat_conv5x5(f(&inp[0]), fm(&mut o[0]), f(&filt[0]), W as i32, H as i32)
            }),
        }],
    }
}

fn blur_image() -> Bench {
    const W: usize = 2048;
    const H: usize = 2048;
    Bench {
        name: "blur_image",
        file: "blur_image.cl",
        options: "",
        requires: &["images"],
        what: "5x5 Gaussian blur of an RGBA float image through a clamping sampler",
        size: format!("{W}x{H} RGBA floats"),
        bufs: vec![floats(W * H * 4, 23, 0.0, 1.0), vec![0; W * H * 4]],
        reset: vec![],
        images: vec![
            ImageBuf {
                buf: 0,
                width: W,
                height: H,
            },
            ImageBuf {
                buf: 1,
                width: W,
                height: H,
            },
        ],
        launches: vec![launch(
            "blur_image",
            vec![Buf(0), Buf(1)],
            &[W as u64, H as u64],
            &[16, 16],
        )],
        outputs: vec![Output {
            buf: 1,
            name: "dst",
            check: Check::Float {
                rel: 1e-5,
                abs: 1e-5,
                max_bad: 0.0,
            },
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let (inp, out) = b.split_at_mut(1);
                c::nat_blur_image(f(&inp[0]), fm(&mut out[0]), W as i32, H as i32)
            }),
        }],
    }
}

fn transpose() -> Bench {
    const W: usize = 4096;
    const H: usize = 4096;
    Bench {
        name: "transpose",
        file: "transpose.cl",
        options: "",
        requires: &[],
        what: "matrix transpose through 16x16 tiles in local memory, barrier",
        size: format!("{W}x{H} floats"),
        bufs: vec![floats(W * H, 21, -1.0, 1.0), vec![0; W * H]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "transpose",
            vec![Buf(0), Buf(1), U32(W as u32), U32(H as u32)],
            &[W as u64, H as u64],
            &[16, 16],
        )],
        outputs: vec![Output {
            buf: 1,
            name: "transposed",
            check: Check::Exact,
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let (inp, out) = b.split_at_mut(1);
                c::nat_transpose(f(&inp[0]), fm(&mut out[0]), W as u32, H as u32)
            }),
        }],
    }
}

fn stream_int() -> Bench {
    const N: usize = 1 << 25;
    const S: f32 = 1.5;
    Bench {
        name: "stream_int",
        file: "stream_int.cl",
        options: "",
        requires: &[],
        what: "c = a + s*b with an int index (sign-extended id), memory bound",
        size: format!("{N} floats (3 x {} MiB)", (N * 4) >> 20),
        bufs: vec![
            floats(N, 22, -1.0, 1.0),
            floats(N, 23, -1.0, 1.0),
            vec![0; N],
        ],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "stream_int",
            vec![Buf(0), Buf(1), Buf(2), F32(S)],
            &[N as u64],
            &[256],
        )],
        outputs: vec![Output {
            buf: 2,
            name: "c",
            check: Check::Float {
                rel: 1e-6,
                abs: 1e-6,
                max_bad: 0.0,
            },
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let (inp, out) = b.split_at_mut(2);
                c::nat_stream(f(&inp[0]), f(&inp[1]), fm(&mut out[0]), S, N as i32)
            }),
        }],
    }
}

fn smooth() -> Bench {
    const N: usize = 1 << 22;
    const LOCAL: u64 = 256;
    const ITERS: u32 = 32;
    Bench {
        name: "smooth",
        file: "smooth.cl",
        options: "",
        requires: &[],
        what: "iterated 3-point smoothing in local memory: uniform loop with barriers",
        size: format!("{N} floats, slices of {LOCAL}, {ITERS} iterations"),
        bufs: vec![floats(N, 24, 0.0, 1.0), vec![0; N]],
        reset: vec![],
        images: vec![],
        launches: vec![launch(
            "smooth",
            vec![Buf(0), Buf(1), U32(ITERS), Local(LOCAL as usize * 4)],
            &[N as u64],
            &[LOCAL],
        )],
        outputs: vec![Output {
            buf: 1,
            name: "smoothed",
            check: Check::Float {
                rel: 1e-5,
                abs: 1e-5,
                max_bad: 0.0,
            },
        }],
        native: vec![Native {
            name: "c-openmp".into(),
            run: Box::new(|b| unsafe {
                let (inp, out) = b.split_at_mut(1);
                c::nat_smooth(f(&inp[0]), fm(&mut out[0]), N as u32, LOCAL as u32, ITERS)
            }),
        }],
    }
}
