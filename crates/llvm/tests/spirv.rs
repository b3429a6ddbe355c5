//! SPIR-V programs through the Rust API (`Program::from_spirv`,
//! `Program::build_spirv`): the same kernels built from OpenCL C and from
//! SPIR-V give the same results on both engines; SPIR-V 1.0 to 1.4 build
//! and other versions do not; specialization constants take their values;
//! malformed modules are errors, never a crash.
//!
//! The SPIR-V comes from `tests/spirv/`: each `NAME.cl` there has a
//! `NAME.spvasm` that `regenerate.sh` made from it with clang 15 and
//! `llvm-spirv-15`, which these tests assemble with `spirv-as`
//! (spirv-tools); where clang 15 is installed they also translate the
//! source afresh the same way. Building SPIR-V needs `llvm-spirv-15`.
//! `make test` installs both tools.

use std::path::{Path, PathBuf};
use std::process::Command;

use lockstep_runtime::image::{channel, order};
use lockstep_runtime::{
    AddressingMode, ArgValue, Buffer, BuildError, Context, Engine, FilterMode, Image, ImageDesc,
    ImageFormat, ImageType, NDRange, Pipe, Program, Sampler,
};

fn spirv_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/spirv")
}

/// Fails (not skips) when a tool the tests need is missing.
fn require(tool: &str, package: &str) {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "`{tool}` is needed by this test ({package}); run `make test`, which installs it"
    );
}

/// `tests/spirv/NAME.spvasm` assembled as SPIR-V `version` (`1.0`, ...).
fn assemble(name: &str, version: &str) -> Vec<u8> {
    require("spirv-as", "spirv-tools");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.spv");
    let status = Command::new("spirv-as")
        .args(["--target-env", &format!("spv{version}")])
        .arg("-o")
        .arg(&out)
        .arg(spirv_dir().join(format!("{name}.spvasm")))
        .status()
        .expect("running spirv-as");
    assert!(status.success(), "spirv-as failed on {name}.spvasm");
    std::fs::read(out).unwrap()
}

/// The `-cl-std=` option on the first line of `tests/spirv/NAME.cl`
/// (`// build: -cl-std=CL1.2`), and the source.
fn source(name: &str) -> (String, String) {
    let text = std::fs::read_to_string(spirv_dir().join(format!("{name}.cl"))).unwrap();
    let options = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// build: "))
        .unwrap_or("")
        .to_string();
    (options, text)
}

/// The translator's options for `tests/spirv/NAME.cl`: its second line when
/// that starts `// spirv: `, else SPIR-V 1.2 at most (as `regenerate.sh`).
fn translator_options(name: &str) -> Vec<String> {
    let (_, text) = source(name);
    match text
        .lines()
        .nth(1)
        .and_then(|l| l.strip_prefix("// spirv: "))
    {
        Some(options) => options.split_whitespace().map(String::from).collect(),
        None => vec!["--spirv-max-version=1.2".to_string()],
    }
}

/// The SPIR-V version `tests/spirv/NAME.spvasm` is assembled as: the
/// translator's maximum when its options name one, else 1.0 (the oldest,
/// which the 1.2 translations fit in).
fn spirv_version(name: &str) -> String {
    translator_options(name)
        .iter()
        .find_map(|o| o.strip_prefix("--spirv-max-version=").map(String::from))
        .unwrap_or_else(|| "1.0".to_string())
}

/// `tests/spirv/NAME.cl` translated now as `regenerate.sh` does, if clang 15
/// is installed.
fn translate_afresh(name: &str) -> Option<Vec<u8>> {
    Command::new("clang-15").arg("--version").output().ok()?;
    require("llvm-spirv-15", "llvm-spirv-15");
    let (options, _) = source(name);
    let dir = tempfile::tempdir().unwrap();
    let bc = dir.path().join("k.bc");
    let spv = dir.path().join("k.spv");
    let clang = Command::new("clang-15")
        .args(["-x", "cl", "-target", "spir64", "-emit-llvm", "-c", "-O0"])
        .arg(&options)
        .args(["-Xclang", "-finclude-default-header", "-o"])
        .arg(&bc)
        .arg(spirv_dir().join(format!("{name}.cl")))
        .status()
        .unwrap();
    assert!(clang.success(), "clang-15 failed on {name}.cl");
    let translate = Command::new("llvm-spirv-15")
        .args(translator_options(name))
        .arg("--preserve-ocl-kernel-arg-type-metadata-through-string")
        .arg("-o")
        .arg(&spv)
        .arg(&bc)
        .status()
        .unwrap();
    assert!(translate.success(), "llvm-spirv-15 failed on {name}.cl");
    Some(std::fs::read(spv).unwrap())
}

fn bytes<T: Copy>(values: &[T]) -> Vec<u8> {
    // SAFETY: plain numbers read as bytes.
    unsafe {
        std::slice::from_raw_parts(values.as_ptr() as *const u8, std::mem::size_of_val(values))
    }
    .to_vec()
}

enum Arg {
    /// A global buffer with these contents.
    Buffer(Vec<u8>),
    /// This many bytes of local memory.
    Local(usize),
    /// A scalar, vector or struct by value.
    Value(Vec<u8>),
    /// An empty pipe of this many 4-byte packets.
    Pipe(u32),
    /// The pipe of an earlier argument (by index).
    SamePipe(usize),
    /// An image of this format and shape with these texels.
    Image(ImageFormat, ImageDesc, Vec<u8>),
    /// A sampler.
    Sampler(Sampler),
}

/// One launch: a kernel over an NDRange with its arguments.
struct Launch {
    kernel: &'static str,
    dims: u32,
    global: [u64; 3],
    local: [u64; 3],
    args: Vec<Arg>,
}

impl Launch {
    fn new_1d(kernel: &'static str, global: u64, local: u64, args: Vec<Arg>) -> Launch {
        Launch {
            kernel,
            dims: 1,
            global: [global, 1, 1],
            local: [local, 1, 1],
            args,
        }
    }
}

/// What a launch produced: printf output, then every buffer's bytes (and
/// the packets left in every pipe, then every image's texels).
fn run(ctx: &Context, program: &Program, launch: &Launch) -> (String, Vec<Vec<u8>>) {
    let mut kernel = program.kernel(launch.kernel).unwrap();
    let mut buffers = Vec::new();
    let mut images = Vec::new();
    let mut pipes: Vec<Option<Pipe>> = Vec::new();
    for (i, arg) in launch.args.iter().enumerate() {
        let mut pipe = None;
        let value = match arg {
            Arg::Buffer(data) => {
                let b = Buffer::from_bytes(data);
                let v = ArgValue::from(&b);
                buffers.push(b);
                v
            }
            Arg::Local(n) => ArgValue::Local(*n),
            Arg::Value(b) => ArgValue::Bytes(b.clone()),
            Arg::Pipe(capacity) => {
                let p = Pipe::new(4, *capacity).unwrap();
                pipe = Some(p.clone());
                ArgValue::from(&p)
            }
            Arg::SamePipe(j) => {
                let p = pipes[*j].clone().expect("an earlier pipe");
                pipe = Some(p.clone());
                ArgValue::from(&p)
            }
            Arg::Image(format, desc, texels) => {
                let image = Image::new(*format, *desc).unwrap();
                image.write(texels);
                let v = ArgValue::from(&image);
                images.push(image);
                v
            }
            Arg::Sampler(sampler) => ArgValue::from(*sampler),
        };
        pipes.push(pipe);
        kernel.set_arg(i, value).unwrap();
    }
    let range = NDRange::new(launch.dims, launch.global).local(launch.local);
    let report = ctx
        .launch(&kernel, &range)
        .unwrap_or_else(|e| panic!("{} on {}: {e}", launch.kernel, ctx.engine()));
    assert!(report.fallback.is_none(), "{:?}", report.fallback);
    let left = pipes.iter().flatten().map(|p| p.packets());
    let texels = images.iter().map(|i| i.read());
    (
        report.printf_output,
        buffers
            .iter()
            .map(|b| b.read_bytes())
            .chain(left)
            .chain(texels)
            .collect(),
    )
}

/// The launches of `tests/spirv/kernels.cl`.
fn kernels_launches() -> Vec<Launch> {
    let n = 64usize;
    let ints: Vec<i32> = (0..n as i32).map(|i| i * 7919 - 200_000).collect();
    let uints: Vec<u32> = (0..n as u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let mut floats: Vec<f32> = (0..n).map(|i| (i as f32 - 20.0) * 0.37).collect();
    floats[3] = f32::NAN;
    floats[5] = f32::INFINITY;
    floats[7] = -0.0;
    let finite: Vec<f32> = (0..n).map(|i| (i as f32 - 20.0) * 0.37).collect();
    let doubles: Vec<f64> = (0..32).map(|i| i as f64 * 1.25).collect();
    let zeros = |bytes: usize| Arg::Buffer(vec![0; bytes]);
    // struct S { int a; float b; char c; }: 12 bytes.
    let mut s = bytes(&[2i32]);
    s.extend(bytes(&[0.5f32]));
    s.extend([3, 0, 0, 0]);
    vec![
        Launch::new_1d("local_reverse", 64, 16, vec![zeros(256), Arg::Local(64)]),
        Launch::new_1d("atomics", 64, 16, vec![zeros(24), zeros(4)]),
        Launch::new_1d(
            "vectors",
            16,
            4,
            vec![
                Arg::Buffer(bytes(&finite)),
                zeros(16 * 16 + 16 * 2),
                Arg::Value(bytes(&[1.5f32, -2.0, 0.25, 3.0])),
                Arg::Value(s),
            ],
        ),
        Launch::new_1d(
            "integers",
            64,
            16,
            vec![
                Arg::Buffer(bytes(&ints)),
                Arg::Buffer(bytes(&uints)),
                zeros(n * 8),
            ],
        ),
        Launch::new_1d(
            "conversions",
            64,
            16,
            vec![
                Arg::Buffer(bytes(&floats)),
                zeros(n),
                zeros(n * 4),
                zeros(n * 2),
                zeros(n * 8),
            ],
        ),
        Launch::new_1d(
            "math",
            64,
            16,
            vec![Arg::Buffer(bytes(&finite)), zeros(n * 4)],
        ),
        Launch::new_1d(
            "relational",
            64,
            16,
            vec![Arg::Buffer(bytes(&floats)), zeros(n * 4)],
        ),
        Launch::new_1d(
            "async_copy",
            64,
            16,
            vec![Arg::Buffer(bytes(&finite)), zeros(n * 4), Arg::Local(64)],
        ),
        Launch::new_1d("print", 4, 2, vec![Arg::Buffer(bytes(&ints))]),
        Launch::new_1d("work_items", 16, 4, vec![Arg::Buffer(bytes(&ints[..16]))]),
        Launch {
            kernel: "grid",
            dims: 2,
            global: [8, 4, 1],
            local: [4, 2, 1],
            args: vec![zeros(32 * 4), Arg::Value(bytes(&[8i32]))],
        },
        Launch::new_1d("doubles", 32, 8, vec![Arg::Buffer(bytes(&doubles))]),
        Launch::new_1d(
            "control",
            64,
            16,
            vec![zeros(n * 4), Arg::Value(bytes(&[10i32]))],
        ),
    ]
}

/// The launches of `tests/spirv/kernels20.cl`.
fn kernels20_launches() -> Vec<Launch> {
    let ints: Vec<i32> = (0..64).map(|i| (i * 37) % 23 - 4).collect();
    vec![
        Launch::new_1d(
            "atomics20",
            64,
            16,
            vec![Arg::Buffer(vec![0; 16]), Arg::Buffer(vec![0; 256])],
        ),
        Launch::new_1d(
            "group_functions",
            64,
            16,
            vec![Arg::Buffer(bytes(&ints)), Arg::Buffer(vec![0; 256])],
        ),
        Launch::new_1d(
            "generic_pointers",
            32,
            8,
            vec![Arg::Buffer(bytes(&ints[..32])), Arg::Local(32)],
        ),
        Launch::new_1d(
            "pipe_roundtrip",
            96,
            24,
            vec![
                Arg::Pipe(100),
                Arg::SamePipe(0),
                Arg::Buffer(vec![0; 96 * 4]),
            ],
        ),
        Launch::new_1d(
            "pipe_reservations",
            16,
            16,
            vec![
                Arg::Pipe(16),
                Arg::SamePipe(0),
                Arg::Buffer(vec![0; 16 * 4]),
                Arg::Buffer(vec![0; 3 * 4]),
            ],
        ),
        Launch::new_1d(
            "device_enqueue",
            4,
            2,
            vec![Arg::Buffer(vec![0; 4 * 8 * 4])],
        ),
    ]
}

/// The launches of `tests/spirv/kernels13.cl`: 64 work-items in groups of
/// 32 (two or more subgroups each, at every gang width), one required
/// subgroup size.
fn kernels13_launches() -> Vec<Launch> {
    let ints: Vec<i32> = (0..64)
        .map(|i| (i * 37) % 23 - 4 + (i / 40) * 200)
        .collect();
    let uints: Vec<u32> = (0..64u32)
        .map(|i| i.wrapping_mul(0x9e37_79b9) ^ (i << 3))
        .collect();
    let out = || Arg::Buffer(vec![0; 64 * 4]);
    vec![
        Launch::new_1d(
            "vote_and_ballot",
            64,
            32,
            vec![Arg::Buffer(bytes(&ints)), out()],
        ),
        Launch::new_1d("arithmetic", 64, 32, vec![Arg::Buffer(bytes(&ints)), out()]),
        Launch::new_1d(
            "unsigned_and_float",
            64,
            32,
            vec![Arg::Buffer(bytes(&uints)), out()],
        ),
        Launch::new_1d("shuffles", 64, 32, vec![Arg::Buffer(bytes(&ints)), out()]),
        Launch::new_1d("required_size", 32, 16, vec![Arg::Buffer(vec![0; 32 * 4])]),
        Launch::new_1d(
            "atomics64",
            64,
            16,
            vec![Arg::Buffer(vec![0; 3 * 8]), Arg::Buffer(vec![0; 2 * 8])],
        ),
        Launch::new_1d(
            "bits_and_dots",
            32,
            8,
            vec![
                Arg::Buffer(bytes(&uints[..32])),
                Arg::Buffer(vec![0; 4 * 32 * 4]),
            ],
        ),
    ]
}

/// The launches of `tests/spirv/images.cl`: float and integer images
/// of every type it takes, filled with a pattern, and two samplers.
fn images_launches() -> Vec<Launch> {
    let pattern = |n: usize, seed: usize| -> Vec<u8> {
        (0..n)
            .map(|i| ((i * 131 + seed * 17) % 251) as u8)
            .collect()
    };
    let floats = |texels: usize, seed: usize| -> Vec<u8> {
        let values: Vec<f32> = (0..texels * 4)
            .map(|i| ((i * 37 + seed) % 101) as f32 / 16.0)
            .collect();
        bytes(&values)
    };
    let rgba_float = ImageFormat::new(order::RGBA, channel::FLOAT);
    let desc = |ty, width, height, depth, array_size| ImageDesc {
        ty,
        width,
        height,
        depth,
        array_size,
    };
    let (w, h) = (13, 7);
    let linear_repeat = Sampler {
        normalized: true,
        addressing: AddressingMode::Repeat,
        filter: FilterMode::Linear,
    };
    let nearest = Sampler {
        normalized: false,
        addressing: AddressingMode::ClampToEdge,
        filter: FilterMode::Nearest,
    };
    vec![
        Launch {
            kernel: "filter2d",
            dims: 2,
            global: [w as u64, h as u64, 1],
            local: [w as u64, 1, 1],
            args: vec![
                Arg::Image(
                    ImageFormat::new(order::RGBA, channel::UNORM_INT8),
                    ImageDesc::new_2d(w, h),
                    pattern(w * h * 4, 1),
                ),
                Arg::Image(rgba_float, ImageDesc::new_2d(w, h), vec![0; w * h * 16]),
                Arg::Sampler(linear_repeat),
                Arg::Image(
                    rgba_float,
                    desc(ImageType::Image1DBuffer, 5, 1, 1, 1),
                    floats(5, 2),
                ),
                Arg::Image(rgba_float, ImageDesc::new_2d(w, h), floats(w * h, 3)),
            ],
        },
        Launch {
            kernel: "layered",
            dims: 2,
            global: [8, 6, 1],
            local: [4, 2, 1],
            args: vec![
                Arg::Image(
                    rgba_float,
                    desc(ImageType::Image2DArray, 8, 6, 1, 3),
                    floats(8 * 6 * 3, 4),
                ),
                Arg::Image(
                    ImageFormat::new(order::RGBA, channel::UNSIGNED_INT16),
                    desc(ImageType::Image3D, 8, 6, 4, 1),
                    pattern(8 * 6 * 4 * 8, 5),
                ),
                Arg::Image(
                    rgba_float,
                    desc(ImageType::Image1D, 11, 1, 1, 1),
                    floats(11, 6),
                ),
                Arg::Image(
                    rgba_float,
                    desc(ImageType::Image3D, 8, 6, 2, 1),
                    vec![0; 8 * 6 * 2 * 16],
                ),
                Arg::Image(
                    ImageFormat::new(order::RGBA, channel::SIGNED_INT8),
                    desc(ImageType::Image1DArray, 8, 1, 1, 4),
                    pattern(8 * 4 * 4, 7),
                ),
                Arg::Sampler(nearest),
                Arg::Buffer(vec![0; 8 * 6 * 16]),
            ],
        },
    ]
}

/// Builds `tests/spirv/NAME.cl` from source and from SPIR-V (assembled, and
/// translated afresh where clang 15 is installed) and checks that every
/// launch gives the same output from each, on the interpreter and on the
/// SIMD engine. (Whether the engines agree with each other is the
/// differential test's business: `sin` and `exp` of a double, within
/// OpenCL's error bounds on both, differ in the last bit between them for
/// some inputs of `doubles`.)
fn same_results(name: &str, launches: &[Launch]) {
    let ctx = lockstep_llvm::context();
    let (options, text) = source(name);
    let mut programs = vec![(
        "source".to_string(),
        Program::build(&ctx, &text, &options).unwrap_or_else(|e| panic!("{name}.cl: {e}")),
    )];
    let assembled = assemble(name, &spirv_version(name));
    programs.push((
        format!("{name}.spvasm"),
        Program::from_spirv(&ctx, &assembled, "").unwrap_or_else(|e| panic!("{name}.spv: {e}")),
    ));
    match translate_afresh(name) {
        Some(spv) => programs.push((
            format!("{name}.cl translated afresh"),
            Program::from_spirv(&ctx, &spv, "").unwrap_or_else(|e| panic!("{name}: {e}")),
        )),
        None => eprintln!("clang-15 is not installed: {name}.cl was not translated afresh"),
    }
    let mut expected_names = programs[0].1.kernel_names();
    expected_names.sort();
    // What clGetKernelArgInfo reports but the name (clang 15 kept none in
    // the module): the type names come from the module's OpStrings.
    let arg_info = |program: &Program, kernel: &str| -> Vec<String> {
        let k = program.kernel(kernel).unwrap();
        k.args()
            .iter()
            .map(|a| {
                format!(
                    "{} {:?} const={} restrict={} volatile={}",
                    a.type_name, a.kind, a.is_const, a.is_restrict, a.is_volatile
                )
            })
            .collect()
    };
    for (what, program) in &programs {
        let mut names = program.kernel_names();
        names.sort();
        assert_eq!(names, expected_names, "kernels of {what}");
        for kernel in &names {
            assert_eq!(
                arg_info(program, kernel),
                arg_info(&programs[0].1, kernel),
                "arguments of {kernel} from {what}"
            );
        }
    }
    for launch in launches {
        for engine in [Engine::Interpreter, Engine::Simd] {
            let ctx = ctx.clone().with_engine(engine);
            let want = run(&ctx, &programs[0].1, launch);
            for (what, program) in &programs[1..] {
                let out = run(&ctx, program, launch);
                assert!(
                    out == want,
                    "kernel {}: {what} on {engine} differs from the source:\n{out:?}\nvs\n{want:?}",
                    launch.kernel
                );
            }
            // The launch did something (a kernel compiled to nothing would pass).
            let (printf, buffers) = &want;
            assert!(
                !printf.is_empty() || buffers.iter().any(|b| b.iter().any(|&x| x != 0)),
                "kernel {} wrote nothing",
                launch.kernel
            );
        }
    }
}

#[test]
fn opencl_c_1_2_kernels_give_the_same_results_from_source_and_from_spirv() {
    same_results("kernels", &kernels_launches());
}

#[test]
fn opencl_c_2_0_kernels_give_the_same_results_from_source_and_from_spirv() {
    same_results("kernels20", &kernels20_launches());
}

#[test]
fn spirv_1_3_subgroup_bit_and_dot_product_kernels_give_the_same_results_as_their_source() {
    same_results("kernels13", &kernels13_launches());
}

/// `tests/spirv/dot_products.spvasm`'s eight results for operands `a` and
/// `b`, computed here: see the comments there.
fn dot_products_reference(a: u32, b: u32) -> [u64; 8] {
    let (ua, ub) = (a.to_le_bytes(), b.to_le_bytes());
    let dot = |sa: bool, sb: bool| -> i64 {
        (0..4)
            .map(|i| {
                let x = if sa { ua[i] as i8 as i64 } else { ua[i] as i64 };
                let y = if sb { ub[i] as i8 as i64 } else { ub[i] as i64 };
                x * y
            })
            .sum()
    };
    let (u, s, su) = (dot(false, false), dot(true, true), dot(true, false));
    let ulong_max_acc = 18446744073709551000u64;
    [
        u as u64,
        s as i32 as i64 as u64,
        su as i8 as i64 as u64,
        (u + 65000).min(65535) as u64,
        (s + 37).clamp(-128, 127) as u64,
        (ulong_max_acc as i64).saturating_add(su) as u64,
        ulong_max_acc.saturating_add(u as u64),
        s as i16 as i64 as u64,
    ]
}

#[test]
fn spirv_integer_dot_products_packed_narrow_wide_and_saturating_match_a_reference() {
    let ctx = lockstep_llvm::context();
    let program = Program::from_spirv(&ctx, &assemble("dot_products", "1.3"), "")
        .unwrap_or_else(|e| panic!("dot_products.spvasm: {e}"));
    // Bytes at the extremes (0, 1, 127, 128, 255) and mixed.
    let inputs: Vec<u32> = vec![
        0xffff_ffff,
        0xffff_ffff,
        0x8080_8080,
        0x8080_8080,
        0x7f7f_7f7f,
        0x7f7f_7f7f,
        0x8080_8080,
        0xffff_ffff,
        0x0000_0000,
        0x1234_5678,
        0x0102_0304,
        0x0506_0708,
        0x80ff_7f01,
        0x7f01_80ff,
        0xdead_beef,
        0xcafe_f00d,
    ];
    let n = inputs.len() / 2;
    let want: Vec<u64> = inputs
        .chunks(2)
        .flat_map(|p| dot_products_reference(p[0], p[1]))
        .collect();
    let launch = Launch::new_1d(
        "dots",
        n as u64,
        n as u64,
        vec![Arg::Buffer(bytes(&inputs)), Arg::Buffer(vec![0; n * 8 * 8])],
    );
    for engine in [Engine::Interpreter, Engine::Simd] {
        let (_, buffers) = run(&ctx.clone().with_engine(engine), &program, &launch);
        let got: Vec<u64> = buffers[1]
            .chunks(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        for (i, (g, w)) in got.chunks(8).zip(want.chunks(8)).enumerate() {
            assert_eq!(
                g,
                w,
                "work-item {i} ({:#x}, {:#x}) on {engine}",
                inputs[2 * i],
                inputs[2 * i + 1]
            );
        }
    }
}

#[test]
fn image_kernels_give_the_same_results_from_source_and_from_spirv() {
    same_results("images", &images_launches());
}

#[test]
fn printf_from_spirv_prints_what_the_source_says() {
    let ctx = lockstep_llvm::context();
    let program = Program::from_spirv(&ctx, &assemble("kernels", "1.2"), "").unwrap();
    let launch = Launch::new_1d(
        "print",
        4,
        2,
        vec![Arg::Buffer(bytes(&[41i32, 42, 43, 44]))],
    );
    for engine in [Engine::Interpreter, Engine::Simd] {
        let (printf, _) = run(&ctx.clone().with_engine(engine), &program, &launch);
        assert_eq!(
            printf, "gid 0 value 41 f 1.500000 str ok\ngid 1 value 42 f 1.500000 str ok\n",
            "{engine}"
        );
    }
}

/// Runs `specialized` over 4 work-items: (out, f, l).
fn run_specialized(program: &Program, engine: Engine) -> (Vec<u32>, Vec<f32>, Vec<u64>) {
    let ctx = lockstep_llvm::context().with_engine(engine);
    let out = Buffer::<u32>::zeroed(4);
    let f = Buffer::<f32>::zeroed(4);
    let l = Buffer::<u64>::zeroed(4);
    let mut kernel = program.kernel("specialized").unwrap();
    kernel.set_arg(0, &out).unwrap();
    kernel.set_arg(1, &f).unwrap();
    kernel.set_arg(2, &l).unwrap();
    ctx.launch(&kernel, &NDRange::new_1d(4).local([4, 1, 1]))
        .unwrap();
    (out.read(), f.read(), l.read())
}

#[test]
fn specialization_constants_take_the_values_given_else_their_defaults() {
    let ctx = lockstep_llvm::context();
    let spv = assemble("specialized", "1.2");
    let defaults = Program::from_spirv(&ctx, &spv, "").unwrap();
    let given = Program::build_spirv(
        &ctx,
        "specialized.spv",
        &spv,
        &[
            (1, bytes(&[10u32])),
            (2, vec![1]),
            (3, bytes(&[-0.25f32])),
            (4, bytes(&[u64::MAX - 10])),
        ],
        "",
    )
    .unwrap();
    for engine in [Engine::Interpreter, Engine::Simd] {
        assert_eq!(
            run_specialized(&defaults, engine),
            (
                vec![0, 3, 6, 9],
                vec![0.5, 1.5, 2.5, 3.5],
                vec![
                    1_000_000_000_000,
                    1_000_000_000_001,
                    1_000_000_000_002,
                    1_000_000_000_003
                ]
            ),
            "{engine}"
        );
        assert_eq!(
            run_specialized(&given, engine),
            (
                vec![100, 110, 120, 130],
                vec![-0.25, 0.75, 1.75, 2.75],
                vec![u64::MAX - 10, u64::MAX - 9, u64::MAX - 8, u64::MAX - 7]
            ),
            "{engine}"
        );
    }
    // A value of the wrong size, or for an id the module lacks.
    for (spec, want) in [
        ((1, vec![0u8; 8]), "is given 8 bytes"),
        ((2, vec![0u8; 4]), "is given 4 bytes"),
        ((9, vec![0u8; 4]), "no specialization constant 9"),
    ] {
        match Program::build_spirv(&ctx, "specialized.spv", &spv, &[spec], "") {
            Err(BuildError::InvalidSpirv(m)) => assert!(m.contains(want), "{m}"),
            Err(e) => panic!("expected InvalidSpirv ({want}), got {e}"),
            Ok(_) => panic!("expected InvalidSpirv ({want}), but it built"),
        }
    }
}

#[test]
fn spirv_1_4_pointer_comparisons_differences_and_copies_give_their_values() {
    let ctx = lockstep_llvm::context();
    let program = Program::from_spirv(&ctx, &assemble("spirv14", "1.4"), "")
        .unwrap_or_else(|e| panic!("spirv14.spvasm: {e}"));
    let input: Vec<u32> = (100..116).collect();
    let launch = Launch::new_1d(
        "spirv14",
        1,
        1,
        vec![Arg::Buffer(vec![0; 8 * 4]), Arg::Buffer(bytes(&input))],
    );
    let want: [u32; 8] = [1, 1, 5, 3, 7, 2.5f32.to_bits(), 100, (-2i32) as u32];
    for engine in [Engine::Interpreter, Engine::Simd] {
        let (_, buffers) = run(&ctx.clone().with_engine(engine), &program, &launch);
        assert_eq!(words(&buffers[0]), want, "{engine}");
    }
}

#[test]
fn spirv_1_0_to_1_4_build_and_other_versions_are_invalid() {
    let ctx = lockstep_llvm::context();
    for version in ["1.0", "1.1", "1.2", "1.3", "1.4"] {
        let program = Program::from_spirv(&ctx, &assemble("specialized", version), "")
            .unwrap_or_else(|e| panic!("SPIR-V {version}: {e}"));
        assert_eq!(program.kernel_names(), ["specialized"]);
    }
    for version in ["1.5", "1.6"] {
        match Program::from_spirv(&ctx, &assemble("specialized", version), "") {
            Err(BuildError::InvalidSpirv(m)) => {
                assert!(m.contains(&format!("version {version}")), "{m}")
            }
            Err(e) => panic!("SPIR-V {version}: expected InvalidSpirv, got {e}"),
            Ok(_) => panic!("SPIR-V {version} built"),
        }
    }
}

#[test]
fn a_spirv_file_builds_like_a_source_file() {
    let ctx = lockstep_llvm::context();
    let dir = tempfile::tempdir().unwrap();
    // By its extension, and by its magic number under another name.
    for file in ["k.spv", "k.bin"] {
        let path = dir.path().join(file);
        std::fs::write(&path, assemble("specialized", "1.1")).unwrap();
        let program = Program::from_file(&ctx, &path, "").unwrap();
        assert_eq!(
            run_specialized(&program, Engine::Interpreter).0,
            [0, 3, 6, 9]
        );
    }
    // A .spv file that is not SPIR-V is an invalid module, not OpenCL C.
    let path = dir.path().join("text.spv");
    std::fs::write(&path, "kernel void k() {}\n\n").unwrap();
    match Program::from_file(&ctx, &path, "") {
        Err(BuildError::InvalidSpirv(m)) => assert!(m.contains("magic number"), "{m}"),
        Err(e) => panic!("expected InvalidSpirv, got {e}"),
        Ok(_) => panic!("text built as SPIR-V"),
    }
}

/// Words of a SPIR-V binary.
fn words(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn from_words(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn malformed_modules_are_errors_with_a_reason_never_a_crash() {
    let ctx = lockstep_llvm::context();
    let good = assemble("specialized", "1.0");
    let w = words(&good);
    // Bytes that are no SPIR-V module for this device: InvalidSpirv.
    let mut truncated = w.clone();
    truncated.truncate(w.len() - 3);
    let mut zero_count = w.clone();
    zero_count[5] = 0;
    for (input, why) in [
        (Vec::new(), "empty"),
        (b"\x03\x02\x23\x07\x00".to_vec(), "32-bit words"),
        (b"kernel void k() {}\n\n".to_vec(), "magic number"),
        (from_words(&w[..3]), "header has 5 words"),
        (from_words(&truncated), "past the end"),
        (from_words(&zero_count), "word count of 0"),
    ] {
        match Program::from_spirv(&ctx, &input, "") {
            Err(BuildError::InvalidSpirv(m)) => assert!(m.contains(why), "{why}: {m}"),
            Err(e) => panic!("{why}: expected InvalidSpirv, got {e}"),
            Ok(_) => panic!("{why}: built"),
        }
    }
    // A well-formed stream the translator rejects (an instruction with an
    // unknown opcode): a build error whose log is the translator's.
    let mut unknown = w.clone();
    let at = unknown.len() - 1; // OpFunctionEnd
    unknown.insert(at, (1 << 16) | 0x7fff);
    match Program::from_spirv(&ctx, &from_words(&unknown), "") {
        Err(e @ BuildError::Compile(_)) => {
            let log = e.build_log();
            assert!(
                log.contains("llvm-spirv") && log.contains("rejected"),
                "{log}"
            );
        }
        Err(e) => panic!("unknown opcode: expected a build error, got {e}"),
        Ok(_) => panic!("unknown opcode: built"),
    }
    // A corrupted word (every third): any outcome but a crash. The translator
    // aborts or faults on most such modules (it runs in its own process);
    // what it turns into invalid LLVM IR stops at the verifier; the rest
    // is built and imported like any module.
    let mut outcomes = [0usize; 3];
    for i in (5..w.len()).step_by(3) {
        let mut bad = w.clone();
        bad[i] ^= 0x0001_0101;
        outcomes[match Program::from_spirv(&ctx, &from_words(&bad), "") {
            Ok(_) => 0,
            Err(BuildError::InvalidSpirv(_)) => 1,
            Err(_) => 2,
        }] += 1;
    }
    eprintln!("corrupted modules: {outcomes:?} (built, invalid, failed to build)");
    assert!(outcomes[1] > 0 && outcomes[2] > 0, "{outcomes:?}");
}
