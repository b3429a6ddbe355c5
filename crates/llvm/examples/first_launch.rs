//! Times a kernel's first launches: `first_launch FILE.cl [KERNEL]` builds
//! the program, binds every argument to something harmless (zeroed
//! buffers, scalars 1, 256 bytes of local memory, empty pipes) and launches the kernel
//! over 64 work-items a few times, printing each launch's wall time. The
//! first includes compiling the specialization (run with `LOCKSTEP_CACHE=0`
//! to compile it in any case); with tiered compilation later ones show when
//! the optimized code arrives.

use std::time::{Duration, Instant};

use lockstep_runtime::image::{channel, order};
use lockstep_runtime::{
    AddressingMode, ArgKind, Buffer, Bytes, FilterMode, Image, ImageDesc, ImageFormat, LocalMem,
    NDRange, Pipe, Program, Sampler, ScalarKind,
};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: first_launch FILE.cl [KERNEL]");
    let only = args.next();
    let ctx = lockstep_llvm::context();
    let t = Instant::now();
    let program = Program::from_file(&ctx, std::path::Path::new(&file), "").expect("builds");
    println!("build {:8.2} ms", ms(t.elapsed()));
    let mut buffers = Vec::new();
    let mut images = Vec::new();
    let mut pipes = Vec::new();
    for name in program.kernel_names() {
        if only.as_ref().is_some_and(|k| *k != name) {
            continue;
        }
        let mut kernel = program.kernel(&name).unwrap();
        for (i, meta) in kernel.args().to_vec().iter().enumerate() {
            match &meta.kind {
                ArgKind::GlobalBuffer | ArgKind::ConstantBuffer => {
                    let b = Buffer::<u8>::zeroed(1 << 20);
                    kernel.set_arg(i, &b).unwrap();
                    buffers.push(b);
                }
                ArgKind::LocalMemory => kernel.set_arg(i, LocalMem(256)).unwrap(),
                ArgKind::Scalar(ScalarKind::Int(bits)) => {
                    let mut v = vec![0u8; *bits as usize / 8];
                    v[0] = 1;
                    kernel.set_arg(i, Bytes(v)).unwrap();
                }
                ArgKind::Scalar(ScalarKind::Float(32)) => kernel.set_arg(i, 1.0f32).unwrap(),
                ArgKind::Scalar(ScalarKind::Float(_)) => kernel.set_arg(i, 1.0f64).unwrap(),
                ArgKind::ByValue { size } => kernel.set_arg(i, Bytes(vec![0; *size])).unwrap(),
                ArgKind::Image(ty) => {
                    let desc = ImageDesc {
                        ty: *ty,
                        width: 16,
                        height: 16,
                        depth: 16,
                        array_size: 4,
                    };
                    let format = ImageFormat::new(order::RGBA, channel::FLOAT);
                    let image = Image::new(format, desc).unwrap();
                    kernel.set_arg(i, &image).unwrap();
                    images.push(image);
                }
                ArgKind::Queue => {
                    let queue = ctx.device_queues().default_queue().unwrap_or(0);
                    kernel.set_arg(i, queue).unwrap()
                }
                ArgKind::Sampler => kernel
                    .set_arg(
                        i,
                        Sampler {
                            normalized: false,
                            addressing: AddressingMode::ClampToEdge,
                            filter: FilterMode::Nearest,
                        },
                    )
                    .unwrap(),
                ArgKind::Pipe => {
                    let pipe = Pipe::new(16, 256).unwrap();
                    kernel.set_arg(i, &pipe).unwrap();
                    pipes.push(pipe);
                }
            }
        }
        let range = NDRange::new_1d(64);
        let mut times = Vec::new();
        for launch in 0..6 {
            if launch == 3 {
                // Room for a background compile to finish.
                std::thread::sleep(Duration::from_millis(1500));
            }
            let t = Instant::now();
            ctx.launch(&kernel, &range).expect("launches");
            times.push(format!("{:8.2}", ms(t.elapsed())));
        }
        println!("{name}: launches (ms) {}", times.join(" "));
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
