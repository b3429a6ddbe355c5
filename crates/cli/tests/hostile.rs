//! Hostile `.sim` files and flags: each is a clear error (exit 1, the
//! message once, no panic, no abort), never a crash or a silent success.

use std::path::Path;
use std::process::{Command, Output};

fn lockstep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_lockstep"))
        .args(args)
        .output()
        .expect("lockstep runs")
}

const KERNEL: &str = "kernel void k(global float *a, global float *b) {\n    size_t i = get_global_id(0);\n    b[i] = a[i] * 2.0f;\n}\n";

/// Writes `k.cl` and a `.sim` whose sizes line and arguments are given.
fn sim(dir: &Path, sizes: &str, args: &str) -> String {
    std::fs::write(dir.join("k.cl"), KERNEL).unwrap();
    let path = dir.join("t.sim");
    std::fs::write(&path, format!("k.cl\nk\n{sizes}\n{args}\n")).unwrap();
    path.display().to_string()
}

/// Runs `lockstep run` with `extra` flags; asserts it fails cleanly with a
/// message containing `want`, printed once.
fn fails_with(file: &str, extra: &[&str], want: &str) {
    let mut args = vec!["run", file];
    args.extend_from_slice(extra);
    let out = lockstep(&args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(want), "expected '{want}' in: {stderr}");
    assert_eq!(
        stderr.matches(want).count(),
        1,
        "printed more than once: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn huge_sizes_are_errors_not_aborts() {
    let dir = tempfile::tempdir().unwrap();
    for size in ["1000000000000", "18446744073709551615"] {
        let file = sim(
            dir.path(),
            "4 1 1\n4 1 1",
            &format!("<size={size} uchar noinit>\n<size=16 fill=0 dump>"),
        );
        fails_with(&file, &[], "cannot be allocated");
    }
}

#[test]
fn ndranges_whose_size_overflows_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    for sizes in [
        "4294967296 4294967296 1\n4294967296 4294967296 1",
        "8589934592 4294967296 1\n1 1 1",
    ] {
        let file = sim(
            dir.path(),
            sizes,
            "<size=16 range=0:1:3>\n<size=16 fill=0 dump>",
        );
        for engine in ["simd", "interp"] {
            fails_with(&file, &["--engine", engine], "too large");
        }
    }
}

#[test]
fn a_null_buffer_the_kernel_reads_is_reported_on_every_engine() {
    let dir = tempfile::tempdir().unwrap();
    let file = sim(dir.path(), "4 1 1\n4 1 1", "<null>\n<size=16 fill=0 dump>");
    for engine in ["simd", "interp"] {
        fails_with(&file, &["--engine", engine], "null pointer");
    }
    // A NULL the kernel only tests runs on the SIMD engine as usual.
    std::fs::write(
        dir.path().join("k.cl"),
        "kernel void k(global float *a, global float *b) {\n    size_t i = get_global_id(0);\n    b[i] = a ? a[i] : -1.0f;\n}\n",
    )
    .unwrap();
    let out = lockstep(&["run", &file]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("b[3] = -1"), "{stdout}");
}

#[test]
fn a_range_whose_length_differs_from_the_buffer_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = sim(
        dir.path(),
        "4 1 1\n4 1 1",
        "<size=16 range=0:1:1>\n<size=16 fill=0 dump>",
    );
    fails_with(
        &file,
        &[],
        "range=0:1:1 gives 2 values, but the argument holds 4",
    );
    let file = sim(
        dir.path(),
        "4 1 1\n4 1 1",
        "<size=16 range=0:0:3>\n<size=16 fill=0 dump>",
    );
    fails_with(&file, &[], "range=0:0:3 gives no sequence of values");
    // Matching lengths, up and down, in integers and floats.
    for range in ["0:1:3", "3:-1:0", "0.5:0.25:1.25"] {
        let file = sim(
            dir.path(),
            "4 1 1\n4 1 1",
            &format!("<size=16 range={range}>\n<size=16 fill=0 dump>"),
        );
        let out = lockstep(&["run", &file]);
        assert!(
            out.status.success(),
            "{range}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn thread_counts_beyond_the_cap_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = sim(
        dir.path(),
        "4 1 1\n4 1 1",
        "<size=16 range=0:1:3>\n<size=16 fill=0 dump>",
    );
    let start = std::time::Instant::now();
    for threads in ["100000", "5000", "0"] {
        fails_with(
            &file,
            &["--threads", threads],
            &format!("--threads must be between 1 and 1024, not {threads}"),
        );
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(30));
    let out = lockstep(&["run", &file, "--threads", "3"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn header_errors_name_the_headers_line() {
    let dir = tempfile::tempdir().unwrap();
    // The bad header is on line 5 and another argument follows it.
    let file = sim(
        dir.path(),
        "4 1 1\n4 1 1",
        "<size=16 bogus>\n<size=16 fill=0 dump>",
    );
    fails_with(
        &file,
        &[],
        "t.sim:5: argument 0 ('a'): unknown header entry 'bogus'",
    );
    // A bad value names its own line.
    let file = sim(
        dir.path(),
        "4 1 1\n4 1 1",
        "<size=16>\n1 2\n3 x\n<size=16 fill=0 dump>",
    );
    fails_with(
        &file,
        &[],
        "t.sim:7: argument 0 ('a'): expected a floating-point value, found 'x'",
    );
}
