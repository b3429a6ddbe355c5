//! `lockstep demo` and `lockstep info` as a user runs them: exit codes,
//! what they print, and the picture the demo writes.

use std::fs::File;
use std::process::{Command, Output};

fn lockstep(args: &[&str], demo_dir: Option<&std::path::Path>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_lockstep"));
    cmd.args(args);
    if let Some(dir) = demo_dir {
        cmd.env("LOCKSTEP_DEMO_DIR", dir);
    }
    cmd.output().expect("lockstep runs")
}

#[test]
fn demo_runs_checks_and_writes_the_picture() {
    let dir = tempfile::tempdir().unwrap();
    let out = lockstep(&["demo", "--size", "40x30"], Some(dir.path()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        out.status.code()
    );
    let lines: Vec<&str> = stdout.lines().collect();
    for name in ["mandelbrot", "reduce", "matmul"] {
        let at = lines
            .iter()
            .position(|l| l.starts_with(&format!("kernel {name}:")))
            .unwrap_or_else(|| panic!("no line for kernel {name}:\n{stdout}"));
        // The SIMD engine is the default.
        assert!(lines[at].contains("engine: SIMD"), "{}", lines[at]);
        // The verdict follows, after a note if the kernel ran on the interpreter.
        let verdict = lines[at + 1..]
            .iter()
            .find(|l| l.contains(" ms, "))
            .copied()
            .unwrap_or_default();
        assert!(
            verdict.contains(" ms, ok: "),
            "{name} did not match:\n{stdout}"
        );
    }
    assert!(
        stdout.contains("NDRange 40x30, work-group 16x16"),
        "{stdout}"
    );
    assert!(stdout.contains("at all 1200 pixels"), "{stdout}");

    let picture = dir.path().join("mandelbrot.png");
    assert!(
        stdout.contains(&format!("picture: {}", picture.display())),
        "{stdout}"
    );
    let decoder = png::Decoder::new(File::open(&picture).expect("the picture exists"));
    let reader = decoder.read_info().expect("a PNG");
    let info = reader.info();
    assert_eq!((info.width, info.height), (40, 30));
    assert_eq!(info.color_type, png::ColorType::Rgb);
}

#[test]
fn demo_runs_on_both_engines_with_the_same_verdicts() {
    for engine in ["simd", "interp"] {
        let dir = tempfile::tempdir().unwrap();
        let out = lockstep(
            &["demo", "--engine", engine, "--size", "48x32"],
            Some(dir.path()),
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{engine}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(stdout.matches(", ok:").count(), 3, "{engine}: {stdout}");
    }
}

#[test]
fn demo_rejects_a_bad_size() {
    let out = lockstep(&["demo", "--size", "0x10"], None);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("between 1 and"), "{stderr}");
}

#[test]
fn info_describes_the_device() {
    let out = lockstep(&["info"], None);
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    for key in [
        "device:",
        "cores:",
        "SIMD features:",
        "avx2",
        "avx512f",
        "SIMD width:",
        "max work-group:",
        "4096",
        "engines:",
        "interp",
        "clang:",
    ] {
        assert!(stdout.contains(key), "missing {key}:\n{stdout}");
    }
}
