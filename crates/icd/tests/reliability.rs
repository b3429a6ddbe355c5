//! Hostile use of the OpenCL API through the ICD loader (`hostile.c`, one
//! process per case so that a crash or a hang fails only its case):
//! wrapping rect arithmetic, opposite lock orders on several threads,
//! huge `printf` fields, build options that reach the preprocessor,
//! headers that change between builds.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

/// The compiled `hostile` program (compiled once per test process).
fn hostile() -> &'static PathBuf {
    static EXE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &EXE.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temporary directory");
        let exe = common::compile_c("hostile", dir.path());
        (dir, exe)
    })
    .1
}

/// Runs one case of `hostile.c` (with `envs` set); its stdout.
fn run_case(case: &str, envs: &[(&str, &std::ffi::OsStr)]) -> String {
    let vendors = common::vendors_dir();
    let mut cmd = common::command(hostile(), vendors.path());
    cmd.arg(case);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("running hostile");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.lines().any(|l| l == "OK"),
        "case {case} failed ({}):\n{}\n{stderr}",
        out.status,
        &stdout[..stdout.len().min(4000)]
    );
    stdout
}

#[test]
fn rect_commands_whose_arithmetic_wraps_are_invalid() {
    run_case("rect_wrap", &[]);
}

#[test]
fn opposite_lock_orders_on_several_threads_do_not_deadlock() {
    run_case("opposite_orders", &[]);
}

#[test]
fn printf_with_a_huge_precision_prints_and_does_not_abort() {
    let out = run_case("printf_huge", &[]);
    let line = out
        .lines()
        .find(|l| l.starts_with('<'))
        .expect("the kernel's printf output");
    assert_eq!(line.len(), "<1.>".len() + 70000, "{}", &line[..40]);
    assert!(line.starts_with("<1.5000") && line.ends_with("000>"));
}

#[test]
fn a_changed_header_is_compiled_again() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let envs = [
        ("HOSTILE_DIR", dir.path().as_os_str()),
        ("XDG_CACHE_HOME", cache.path().as_os_str()),
    ];
    // Twice: the second process finds the first one's objects on disk.
    run_case("header_changes", &envs);
    run_case("header_changes", &envs);
}

#[test]
fn build_options_reaching_the_preprocessor_are_invalid() {
    let dir = tempfile::tempdir().unwrap();
    run_case("build_options", &[("HOSTILE_DIR", dir.path().as_os_str())]);
}

/// Many host threads, shared and separate queues, buffers shared in
/// opposite argument orders, sub-buffers of one parent, events across
/// queues and user events (`stress.c`): exact totals, no deadlock, in a
/// few seconds.
#[test]
fn concurrent_hosts_threads_on_shared_and_separate_queues() {
    let dir = tempfile::tempdir().unwrap();
    let exe = common::compile_c("stress", dir.path());
    let vendors = common::vendors_dir();
    let start = std::time::Instant::now();
    let out = common::command(&exe, vendors.path())
        .output()
        .expect("running stress");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("OK"),
        "stress failed ({}):\n{stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        start.elapsed() < std::time::Duration::from_secs(60),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn the_largest_buffer_is_created_at_once() {
    run_case("big_buffer", &[]);
}

#[test]
fn a_buffer_smaller_than_its_pointee_type_binds() {
    run_case("small_buffer", &[]);
}

/// The compiled-object cache is keyed on the build of the library that
/// compiles (liblockstep_icd.so), not on the host application: a rebuilt
/// library (here: a copy with another modification time) never loads the
/// objects an older one cached.
#[test]
fn a_rebuilt_library_does_not_reuse_cached_objects() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let lib_dir = tempfile::tempdir().unwrap();
    let lib = lib_dir.path().join("liblockstep_icd.so");
    std::fs::copy(common::library(), &lib).unwrap();
    let vendors = tempfile::tempdir().unwrap();
    std::fs::write(
        vendors.path().join("lockstep.icd"),
        format!("{}\n", lib.display()),
    )
    .unwrap();
    let entries = || {
        std::fs::read_dir(cache.path().join("lockstep"))
            .map(|d| d.count())
            .unwrap_or(0)
    };
    let run = || {
        let out = common::command(hostile(), vendors.path())
            .arg("header_changes")
            .env("HOSTILE_DIR", dir.path())
            .env("XDG_CACHE_HOME", cache.path())
            // Every kernel at -O3 in the first run (with tiers, a kernel
            // launched once caches its -O3 code only in the next run).
            .env("LOCKSTEP_TIER", "full")
            .output()
            .expect("running hostile");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run();
    let first = entries();
    assert!(first > 0, "nothing was cached");
    run();
    assert_eq!(entries(), first, "the same library reuses its objects");
    // "Rebuild" the library: same bytes, another modification time.
    let file = std::fs::File::options().write(true).open(&lib).unwrap();
    file.set_modified(std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1 << 30))
        .unwrap();
    drop(file);
    run();
    assert!(
        entries() > first,
        "the rebuilt library reused the old library's objects"
    );
}
