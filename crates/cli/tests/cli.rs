//! The command line's contract: errors exit 1 with a useful message and no
//! panic; `--emit report` says what the SIMD engine did.

use std::process::{Command, Output};

fn lockstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(args)
        .output()
        .expect("lockstep runs")
}

fn repo(path: &str) -> String {
    format!("{}/../../{path}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn compile_error_exits_1_with_clangs_diagnostic() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("broken.cl");
    std::fs::write(&file, "kernel void k(global int *p) {\n  p[0] = oops;\n}\n").unwrap();
    let out = lockstep(&["compile", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("broken.cl:2:10: error: use of undeclared identifier 'oops'"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn unsupported_construct_exits_1_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rec.cl");
    std::fs::write(
        &file,
        "int f(int n) { return n < 2 ? n : f(n - 1) + f(n - 2); }\nkernel void k(global int *p) { p[0] = f(p[1]); }\n",
    )
    .unwrap();
    let out = lockstep(&["compile", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("rec.cl:") && stderr.contains("recursion"),
        "{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Work-items that return before a barrier the rest of their group waits
/// at (undefined behaviour in OpenCL): the SIMD engine stops the launch
/// with an error naming them and the barrier, at every width and whether
/// the missing work-items share a gang with waiting ones or fill whole
/// gangs, and never runs them past the barrier (which would write `out`
/// beyond `n`).
#[test]
fn barrier_divergence_stops_the_launch_naming_the_work_items() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("early.cl"),
        "kernel void k(global int *out, int n, local int *tmp) {\n  int gid = get_global_id(0), lid = get_local_id(0);\n  if (gid >= n) return;\n  tmp[lid] = gid;\n  barrier(CLK_LOCAL_MEM_FENCE);\n  out[gid] = tmp[lid] + 1;\n}\n",
    )
    .unwrap();
    for (n, width, missing) in [
        ("40", "16", "40..=47"),
        ("40", "8", "40..=47"),
        ("40", "4", "40..=43"),
        ("32", "16", "32..=47"),
    ] {
        let sim = dir.path().join("early.sim");
        std::fs::write(
            &sim,
            format!("early.cl\nk\n64 1 1\n64 1 1\n<size=256 fill=0 int dump>\n<size=4 int>\n{n}\n<size=256>\n"),
        )
        .unwrap();
        let out = lockstep(&["run", sim.to_str().unwrap(), "--width", width]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "n={n} width={width}: {stderr}");
        assert!(
            stderr.contains("barrier divergence in work-group (0, 0, 0)")
                && stderr.contains(&format!(
                    "work-items {missing} (local linear ids) did not reach the barrier at line 5"
                )),
            "n={n} width={width}: {stderr}"
        );
    }
    // With every work-item arriving, the same kernel runs.
    let sim = dir.path().join("early.sim");
    std::fs::write(
        &sim,
        "early.cl\nk\n64 1 1\n64 1 1\n<size=256 fill=0 int dump>\n<size=4 int>\n64\n<size=256>\n",
    )
    .unwrap();
    let out = lockstep(&["run", sim.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("out[63] = 64\n"));
}

#[test]
fn malformed_sim_exits_1_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        repo("tests/kernels/elementwise/saxpy.cl"),
        dir.path().join("saxpy.cl"),
    )
    .unwrap();
    let sim = dir.path().join("bad.sim");
    std::fs::write(&sim, "saxpy.cl\nsaxpy\n64 1 1\n16 x 1\n").unwrap();
    let out = lockstep(&["run", sim.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.sim:4:") && stderr.contains("local size"),
        "{stderr}"
    );
}

#[test]
fn report_on_mandelbrot_names_width_divergent_loop_and_consecutive_accesses() {
    let out = lockstep(&[
        "compile",
        &repo("crates/cli/demo/mandelbrot.cl"),
        "--emit",
        "report",
        "--local-size",
        "16,16",
        "--width",
        "16",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("width 16"), "{stdout}");
    assert!(stdout.contains("loops with a divergent exit"), "{stdout}");
    assert!(stdout.contains("store: vector (consecutive)"), "{stdout}");
    assert!(
        !stdout.contains("scatter") && !stdout.contains("gather"),
        "{stdout}"
    );
}

#[test]
fn run_times_the_kernel_when_asked() {
    let out = lockstep(&[
        "run",
        &repo("tests/kernels/elementwise/saxpy.sim"),
        "--time",
        "--repeat",
        "3",
        "--quiet",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let line = stdout.lines().last().unwrap_or_default();
    assert!(
        line.starts_with("time: min=") && line.contains(" ms median="),
        "{line}"
    );
}

#[test]
fn compile_time_reports_each_build_stage_on_stderr() {
    let saxpy = repo("tests/kernels/elementwise/saxpy.cl");
    let quiet = lockstep(&["compile", &saxpy]);
    let timed = lockstep(&["compile", "--time", "--emit", "llvm", &saxpy]);
    assert!(timed.status.success() && quiet.status.success());
    assert!(String::from_utf8_lossy(&quiet.stderr).is_empty());
    let stderr = String::from_utf8_lossy(&timed.stderr);
    for stage in [
        "clang",
        "library load",
        "link",
        "optimize",
        "import",
        "verify",
        "front end",
        "codegen saxpy",
    ] {
        let prefix = format!("lockstep: time: saxpy.cl: {stage} ");
        let line = stderr.lines().find(|l| l.starts_with(&prefix));
        assert!(
            line.is_some_and(|l| l.contains(" ms cpu ") && l.ends_with(" ms wall")),
            "no '{stage}' line in:\n{stderr}"
        );
    }
    // The same through the environment.
    let env = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(["compile", &saxpy])
        .env("LOCKSTEP_TIME_BUILD", "1")
        .output()
        .expect("lockstep runs");
    assert!(String::from_utf8_lossy(&env.stderr).contains("lockstep: time: saxpy.cl: link "));
}

#[test]
fn report_lists_each_barrier_with_the_values_saved_across_it() {
    let out = lockstep(&[
        "compile",
        &repo("tests/kernels/local/reduce_tree.cl"),
        "--emit",
        "report",
        "--width",
        "8",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("barriers: "), "{stdout}");
    let barrier_lines = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with("barrier inst"))
        .count();
    assert!(barrier_lines >= 2, "{stdout}");
    assert!(
        stdout.contains("values saved") && stdout.contains("bytes per gang"),
        "{stdout}"
    );
    // Only what is live across a barrier and cannot be computed again is
    // kept: at the first, nothing (addresses and ids are recomputed, and
    // every work-item waits there, so the lanes waiting are the active
    // ones); at the second, the loop's uniform stride.
    assert!(
        stdout.contains("(line 9): 0 values saved, 0 bytes per gang"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(line 15): 1 values saved, 4 bytes per gang")
            && stdout.contains("i32 (uniform): 4 bytes")
            && !stdout.contains("i1 (varying)"),
        "{stdout}"
    );
}

#[test]
fn dump_after_all_prints_each_stage_as_ir_that_parses_back() {
    // A divergent inner loop inside a uniform loop with two barriers.
    let out = lockstep(&[
        "compile",
        &repo("tests/kernels/barrier/barrier_loop_inner_div.cl"),
        "--dump-after",
        "all",
        "--width",
        "8",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let stages: Vec<&str> = stdout.split("; after ").skip(1).collect();
    let names: Vec<&str> = stages
        .iter()
        .map(|s| s.split_whitespace().next().unwrap_or_default())
        .collect();
    assert_eq!(
        names,
        [
            "remove_unreachable",
            "unify_returns",
            "lower_switch",
            "split_barriers",
            "refill",
            "linearize",
            "layout_private"
        ],
        "{stdout}"
    );
    for stage in &stages {
        // After the header line (pass name and specialization): the module.
        let (_, stage) = stage.split_once('\n').expect("a header line");
        let module = lockstep_ir::parse_module(stage)
            .unwrap_or_else(|e| panic!("a stage does not parse back: {e}\n{stage}"));
        lockstep_ir::verify_module(&module)
            .unwrap_or_else(|e| panic!("a stage does not verify: {e}\n{stage}"));
    }
    let split = stages[3];
    assert!(split.contains("phase split") && split.contains("suspend local, work_group"));
    assert!(!split.contains("barrier local"), "{split}");
    // Gang-level IR for gangs of 8: per-lane values, masks tested with
    // `any`, the suspend points kept.
    let last = stages.last().expect("stages");
    assert!(
        last.contains("phase linearized") && last.contains("gang 8"),
        "{last}"
    );
    assert!(last.contains("= any ") && last.contains("suspend local, work_group"));
}

/// An AVX2 CPU without AVX-512 whose code this host can run, if it has
/// AVX2: Zen 3 on AMD hosts, Skylake (client) on Intel ones, which lack
/// Zen's `sse4a`.
fn avx2_cpu() -> &'static str {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    if cpuinfo.contains("GenuineIntel") {
        "skylake"
    } else {
        "znver3"
    }
}

#[test]
fn lockstep_cpu_compiles_for_another_cpu_of_the_same_architecture() {
    // The AVX2 CPU has no AVX-512: width 8 even on an AVX-512 host.
    let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
    let cpu = avx2_cpu();
    for (env, args) in [
        (Some(cpu), vec!["info"]),
        (None, vec!["--cpu", cpu, "info"]),
    ] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_lockstep"));
        cmd.args(&args).env_remove("LOCKSTEP_CPU");
        if let Some(cpu) = env {
            cmd.env("LOCKSTEP_CPU", cpu);
        }
        let out = cmd.output().expect("lockstep runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !avx2 {
            assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
            assert!(stderr.contains("lacks"), "{stderr}");
            continue;
        }
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(
            stdout.contains(&format!("target CPU:         {cpu} (from LOCKSTEP_CPU")),
            "{stdout}"
        );
        assert!(stdout.contains("SIMD width:         8 lanes"), "{stdout}");
        assert!(stdout.contains("-avx512f"), "{stdout}");
    }
    if avx2 {
        // The AVX2 code runs and computes what the interpreter does: also
        // where it differs from AVX-512's (local histograms without
        // conflict detection, strided stores as scatters, gathers and
        // scatters lane by lane without branches, masked stores to local
        // memory as a load, a blend and a store, consecutive and strided
        // loads as plain loads when the gang's first and last lanes are
        // active), at the natural width and twice it.
        for kernel in [
            "elementwise/saxpy",
            "memory/divergent_gather_scatter",
            "elementwise/divide_by_uniform",
            "memory/private_array",
            "atomics/histogram_local",
            "atomics/histogram_2d",
            "memory/strided_access",
            "local/reduce_tree",
            "local/bitonic_local",
            "local/stencil_halo",
            "local/local_reverse_uchar",
            "local/scan_hillis_steele",
        ] {
            let sim = repo(&format!("tests/kernels/{kernel}.sim"));
            let reference = lockstep(&["run", &sim, "--engine", "interp"]);
            assert!(reference.status.success(), "{kernel}");
            for width in ["8", "16"] {
                let out = lockstep(&["--cpu", cpu, "run", &sim, "--width", width]);
                assert!(
                    out.status.success(),
                    "{kernel} at {width}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                assert_eq!(out.stdout, reference.stdout, "{kernel} at {width}");
            }
        }
    }
}

#[test]
fn an_unknown_cpu_exits_1_naming_it() {
    for args in [
        vec!["--cpu", "no-such-cpu", "info"],
        vec!["run", "x.sim", "--cpu", "no-such-cpu"],
    ] {
        let out = lockstep(&args);
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("LOCKSTEP_CPU=no-such-cpu: LLVM knows no CPU of that name"),
            "{stderr}"
        );
        assert!(stderr.contains("znver3"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// `tests/spirv/NAME.spvasm` assembled (spirv-as, from spirv-tools, which
/// `make test` installs) into `dir/FILE`.
fn assemble_spirv(name: &str, dir: &std::path::Path, file: &str) -> std::path::PathBuf {
    let out = dir.join(file);
    let status = Command::new("spirv-as")
        .args(["--target-env", "spv1.0", "-o"])
        .arg(&out)
        .arg(repo(&format!("tests/spirv/{name}.spvasm")))
        .status()
        .expect("spirv-as (spirv-tools) is needed by this test; `make test` installs it");
    assert!(status.success(), "spirv-as failed on {name}.spvasm");
    out
}

#[test]
fn compile_and_run_take_spirv_modules() {
    let dir = tempfile::tempdir().unwrap();
    let spv = assemble_spirv("specialized", dir.path(), "specialized.spv");
    let out = lockstep(&["compile", spv.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("kernel @specialized(ptr.global, ptr.global, ptr.global)")
            && stdout.contains("arg 0 \"out\" \"int*\"")
            && stdout.contains("global_id 0"),
        "{stdout}"
    );
    let out = lockstep(&["compile", spv.to_str().unwrap(), "--emit", "llvm-input"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("define spir_kernel void @specialized("),
        "{stdout}"
    );
    // A .sim file can name a SPIR-V module as its program.
    let sim = dir.path().join("specialized.sim");
    std::fs::write(
        &sim,
        "specialized.spv\nspecialized\n4 1 1\n4 1 1\n<size=16 fill=0 dump>\n<size=16 fill=0>\n<size=32 fill=0>\n",
    )
    .unwrap();
    for engine in ["simd", "interp"] {
        let out = lockstep(&["run", "--engine", engine, sim.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("out[3] = 9"),
            "{engine}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn a_malformed_spirv_module_exits_1_saying_why() {
    let dir = tempfile::tempdir().unwrap();
    let spv = assemble_spirv("specialized", dir.path(), "k.spv");
    let mut bytes = std::fs::read(&spv).unwrap();
    bytes[4..8].copy_from_slice(&0x0001_0500u32.to_le_bytes());
    std::fs::write(&spv, &bytes).unwrap();
    let out = lockstep(&["compile", spv.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("k.spv") && stderr.contains("SPIR-V version 1.5"),
        "{stderr}"
    );
    // Without the translator: what to install.
    bytes[4..8].copy_from_slice(&0x0001_0000u32.to_le_bytes());
    std::fs::write(&spv, &bytes).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(["compile", spv.to_str().unwrap()])
        .env("LOCKSTEP_LLVM_SPIRV", dir.path().join("no-such-translator"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("SPIR-V translator was not found") && stderr.contains("llvm-spirv-15"),
        "{stderr}"
    );
    // A translator that faults, or writes what LLVM 19 cannot read: the
    // build fails saying so.
    for (script, want) in [
        (
            "echo about to fault >&2\nkill -SEGV $$\n",
            "(signal 11):\nabout to fault",
        ),
        (
            "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && echo junk > \"$2\"; shift; done\n",
            "LLVM 19 cannot read the SPIR-V translator's output",
        ),
    ] {
        let fake = dir.path().join("fake-llvm-spirv");
        // Written by a child process, so that no thread of this one holds
        // the file open for writing when it runs (ETXTBSY).
        let written = Command::new("sh")
            .args([
                "-c",
                "printf '#!/bin/sh\n%s' \"$1\" > \"$2\" && chmod +x \"$2\"",
                "sh",
            ])
            .arg(script)
            .arg(&fake)
            .status()
            .unwrap();
        assert!(written.success());
        let out = Command::new(env!("CARGO_BIN_EXE_lockstep"))
            .args(["compile", spv.to_str().unwrap()])
            .env("LOCKSTEP_LLVM_SPIRV", &fake)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(want) && !stderr.contains("panicked"),
            "{stderr}"
        );
    }
    // The translator's rejection is the error, not a crash.
    let words = bytes.len() / 4;
    bytes[4..8].copy_from_slice(&0x0001_0000u32.to_le_bytes());
    bytes.truncate((words - 1) * 4);
    bytes.extend_from_slice(&((1u32 << 16) | 0x7fff).to_le_bytes());
    bytes.extend_from_slice(&((1u32 << 16) | 56).to_le_bytes());
    std::fs::write(&spv, &bytes).unwrap();
    let out = lockstep(&["compile", spv.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("llvm-spirv")
            && stderr.contains("rejected")
            && !stderr.contains("panicked"),
        "{stderr}"
    );
}
