//! Runs every `.lir` file under `tests/filetests` (or the files and folders
//! given as arguments). `LOCKSTEP_BLESS=1` rewrites expected-output blocks.
//!
//! One test per file, named for its path under `tests/` without the
//! extension (`filetests/verifier/phase_rules`): `cargo test -p
//! lockstep-filetests -- verifier/` runs the files whose name contains
//! `verifier/`. An argument that is a `.lir` file or a folder of them
//! (relative to `crates/filetests`, or absolute) runs those files instead of
//! the tree.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use lockstep_filetests::{collect_files, run_file, TestFile};

/// One file: its checks, its expected output (rewritten when blessing).
fn check(
    path: &Path,
    checks: &[(&str, lockstep_filetests::Check)],
    bless: bool,
) -> Result<(), Failed> {
    let file = TestFile::read(path).map_err(|e| format!("{e:#}"))?;
    match run_file(&file, checks, bless) {
        Ok(Some(new_source)) => {
            std::fs::write(path, new_source).map_err(|e| format!("{}: {e}", path.display()))?;
            println!("blessed {}", path.display());
            Ok(())
        }
        Ok(None) => Ok(()),
        Err(e) => Err(format!("{e:#}").into()),
    }
}

/// An existing `.lir` file, or a folder with `.lir` files under it.
fn is_filetest_path(path: &Path) -> bool {
    if path.is_dir() {
        !collect_files(path).is_empty()
    } else {
        path.is_file() && path.extension().is_some_and(|e| e == "lir")
    }
}

fn main() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    // Arguments that name `.lir` files or folders holding them choose what
    // runs; everything else is libtest's (a filter, `--list`, ...).
    let (paths, rest): (Vec<String>, Vec<String>) = std::env::args()
        .skip(1)
        .partition(|a| is_filetest_path(Path::new(a)));
    let args = Arguments::from_iter(std::env::args().take(1).chain(rest));
    let roots: Vec<PathBuf> = if paths.is_empty() {
        vec![tests.join("filetests")]
    } else {
        paths.into_iter().map(PathBuf::from).collect()
    };
    let files: Vec<PathBuf> = roots
        .iter()
        .flat_map(|r| {
            if r.is_dir() {
                collect_files(r)
            } else {
                vec![r.clone()]
            }
        })
        .collect();
    let bless = std::env::var_os("LOCKSTEP_BLESS").is_some_and(|v| v != "0");
    let mut checks: Vec<(&str, lockstep_filetests::Check)> =
        lockstep_passes::filetest_checks().to_vec();
    checks.push(("codegen", codegen_check));
    checks.push(("codegen-refill", codegen_refill_check));
    let checks = Arc::new(checks);
    let count = files.len();
    let mut trials = vec![Trial::test("filetests_found", move || {
        if count > 0 {
            Ok(())
        } else {
            Err("no .lir files found".into())
        }
    })];
    let tests = tests.canonicalize().unwrap_or(tests);
    trials.extend(files.into_iter().map(|path| {
        let full = path.canonicalize().unwrap_or_else(|_| path.clone());
        let name = full
            .strip_prefix(&tests)
            .unwrap_or(&path)
            .with_extension("")
            .display()
            .to_string();
        let checks = checks.clone();
        Trial::test(name, move || check(&path, &checks, bless))
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// `test codegen`: the SIMD LLVM IR of each kernel (width 8; local size from
/// `reqd_work_group_size`, else 64; lane refill off; buffers below 2 GiB, as
/// nearly every launch has them), before LLVM's optimizer.
fn codegen_check(module: &lockstep_ir::Module) -> Result<String, String> {
    codegen_listing(module, lockstep_passes::pipeline::RefillMode::Off)
}

/// `test codegen-refill`: as `test codegen`, with lane refill on.
fn codegen_refill_check(module: &lockstep_ir::Module) -> Result<String, String> {
    codegen_listing(module, lockstep_passes::pipeline::RefillMode::On)
}

fn codegen_listing(
    module: &lockstep_ir::Module,
    refill: lockstep_passes::pipeline::RefillMode,
) -> Result<String, String> {
    let mut out = String::new();
    for (id, f) in module.kernels() {
        let local_size = f
            .kernel
            .as_ref()
            .and_then(|k| k.reqd_work_group_size)
            .unwrap_or([64, 1, 1]);
        let spec = lockstep_codegen::Spec {
            refill,
            small_buffers: true,
            ..lockstep_codegen::Spec::new(local_size, 8)
        };
        let text =
            lockstep_codegen::kernel_listing(module, id, &spec, lockstep_codegen::Listing::Llvm)
                .map_err(|e| e.to_string())?;
        out.push_str(&text);
    }
    Ok(out)
}
