//! A program loaded from its binary (its Lockstep IR, as
//! `clCreateProgramWithBinary` loads it) finds the kernels the same program
//! built from source compiled: in this process's memory, and on disk in a
//! fresh process with the same cache directory. The code generator's
//! counters ([`lockstep_codegen::stats`]) show that nothing is compiled
//! again. (Its own test binary: it points the cache at a temporary
//! directory and reads process-wide counters.)

use lockstep_runtime::{Buffer, Context, NDRange, Program};

/// A kernel with `__local` memory and a barrier, so a cached entry must
/// bring back the local layout as well as the code.
const SOURCE: &str = "
kernel void reverse_groups(global int *p, int k) {
    local int tile[8];
    size_t l = get_local_id(0);
    tile[l] = p[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    p[get_global_id(0)] = tile[7 - l] + k;
}";

const OPTIONS: &str = "-DUNUSED=1";

/// Set in the child process: the file holding the program's IR text.
const CHILD_IR: &str = "LOCKSTEP_TEST_KERNEL_CACHE_IR";

/// Runs `reverse_groups` of `program` over 16 items in groups of 8.
fn launch(ctx: &Context, program: &Program) {
    let input: Vec<i32> = (0..16).collect();
    let buf = Buffer::from_slice(&input);
    let mut k = program.kernel("reverse_groups").unwrap();
    k.set_arg(0, &buf).unwrap();
    k.set_arg(1, 100i32).unwrap();
    ctx.launch(&k, &NDRange::new_1d(16).local([8, 1, 1]))
        .unwrap();
    let expected: Vec<i32> = (0..16).map(|i| (i / 8) * 8 + (7 - i % 8) + 100).collect();
    assert_eq!(buf.read(), expected);
}

#[test]
fn a_program_from_its_binary_compiles_nothing_again() {
    let dir = tempfile::tempdir().unwrap();
    std::env::set_var("XDG_CACHE_HOME", dir.path());
    std::env::remove_var("LOCKSTEP_CACHE");
    // One compile per kernel, the full tier, before the launch (tiers.rs
    // tests the quick tier and the upgrades).
    std::env::set_var("LOCKSTEP_TIER", "full");
    let ctx = lockstep_llvm::context();

    let before = lockstep_codegen::stats();
    let from_source = Program::build(&ctx, SOURCE, OPTIONS).expect("builds");
    launch(&ctx, &from_source);
    let after_source = lockstep_codegen::stats();
    assert_eq!(
        after_source.generated - before.generated,
        1,
        "the first launch compiles the kernel"
    );

    // The binary: what clGetProgramInfo(CL_PROGRAM_BINARIES) hands out and
    // clCreateProgramWithBinary loads.
    let ir = from_source.ir_text();
    let from_binary =
        Program::from_ir(&ctx, &ir, from_source.options(), from_source.build_log()).expect("loads");
    launch(&ctx, &from_binary);
    let after_binary = lockstep_codegen::stats();
    assert_eq!(
        after_binary.generated, after_source.generated,
        "the program from its binary compiled its kernel again"
    );
    assert_eq!(after_binary.memory_hits - after_source.memory_hits, 1);
    let kernel = |p: &Program| p.kernel("reverse_groups").unwrap();
    assert_eq!(
        ctx.simd_report(&kernel(&from_source), [8, 1, 1]).unwrap(),
        ctx.simd_report(&kernel(&from_binary), [8, 1, 1]).unwrap(),
    );

    // A fresh process with the same cache directory loads the binary and
    // finds the kernel on disk.
    let ir_file = dir.path().join("program.lir");
    std::fs::write(&ir_file, &ir).unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_loads_the_binary", "--nocapture"])
        .env(CHILD_IR, &ir_file)
        .env("XDG_CACHE_HOME", dir.path())
        .env("LOCKSTEP_TIER", "full")
        .env_remove("LOCKSTEP_CACHE")
        .output()
        .expect("runs the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "child failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stats = stdout
        .lines()
        .find_map(|l| l.strip_prefix("stats: "))
        .expect("the child's counters");
    assert_eq!(stats, "generated 0, memory hits 0, disk hits 1");
}

/// The child process of the test above (does nothing in a normal run):
/// loads the program from its IR, launches it, prints the counters.
#[test]
fn child_loads_the_binary() {
    let Some(ir_file) = std::env::var_os(CHILD_IR) else {
        return;
    };
    let ir = std::fs::read_to_string(ir_file).unwrap();
    let ctx = lockstep_llvm::context();
    let program = Program::from_ir(&ctx, &ir, OPTIONS, "").expect("loads");
    launch(&ctx, &program);
    let s = lockstep_codegen::stats();
    println!(
        "stats: generated {}, memory hits {}, disk hits {}",
        s.generated, s.memory_hits, s.disk_hits
    );
}
