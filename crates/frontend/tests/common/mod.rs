//! Shared helpers for the front end's tests.

// Each test binary that includes this module uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use lockstep_frontend::{compile, BuildOptions, Compiled, Source};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// All files under `dir` with extension `ext`, sorted.
pub fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The build options in `NAME.options` beside a `.cl` file, plus `extra`.
pub fn options_for(cl: &Path, extra: &str) -> BuildOptions {
    let text = std::fs::read_to_string(cl.with_extension("options")).unwrap_or_default();
    BuildOptions::parse(&format!("{} {extra}", text.trim())).expect("valid build options")
}

pub fn compile_file(cl: &Path, extra: &str) -> Result<Compiled, lockstep_frontend::CompileError> {
    let source = Source::from_file(cl)?;
    compile(&source, &options_for(cl, extra))
}

/// print → parse → print must be identical.
pub fn assert_roundtrip(module: &lockstep_ir::Module, what: &str) {
    let first = lockstep_ir::module_to_string(module);
    let parsed = lockstep_ir::parse_module(&first)
        .unwrap_or_else(|e| panic!("{what}: printed IR does not parse: {e}"));
    assert_eq!(
        first,
        lockstep_ir::module_to_string(&parsed),
        "{what}: print → parse → print changed the text"
    );
}

/// Runs `check` on every corpus kernel (`tests/kernels/**/*.cl`), one
/// libtest-mimic test each, named for its path under `tests/` without the
/// extension (`kernels/barrier/scan_divergent_load`), plus a test that the
/// corpus is not empty; exits with the result.
pub fn run_corpus(check: fn(&Path) -> Result<(), libtest_mimic::Failed>) -> ! {
    let args = libtest_mimic::Arguments::from_args();
    let tests = repo().join("tests");
    let kernels = files(&tests.join("kernels"), "cl");
    let count = kernels.len();
    let mut trials = vec![libtest_mimic::Trial::test(
        "corpus_is_not_empty",
        move || {
            if count > 0 {
                Ok(())
            } else {
                Err("no corpus kernels found".into())
            }
        },
    )];
    trials.extend(kernels.into_iter().map(|cl| {
        let name = cl
            .strip_prefix(&tests)
            .unwrap_or(&cl)
            .with_extension("")
            .display()
            .to_string();
        libtest_mimic::Trial::test(name, move || check(&cl))
    }));
    libtest_mimic::run(&args, trials).exit()
}
