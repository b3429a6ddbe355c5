//! Every kernel of the corpus (`tests/kernels/**.cl`) imports at -O0, -O2
//! and -O3 into IR that verifies and round-trips through the text format.
//!
//! One test per file, named for its path under `tests/` without the
//! extension (`kernels/barrier/scan_divergent_load`).

mod common;

use std::path::Path;

use common::*;
use libtest_mimic::Failed;

/// One corpus file at every optimization level.
fn check(cl: &Path) -> Result<(), Failed> {
    let mut failures = Vec::new();
    for level in ["-O0", "-O2", "-O3"] {
        match compile_file(cl, level) {
            Ok(compiled) => {
                assert!(
                    compiled.module.kernels().count() > 0,
                    "{}: no kernels",
                    cl.display()
                );
                assert_roundtrip(&compiled.module, &format!("{} {level}", cl.display()));
            }
            Err(e) => failures.push(format!("{} {level}: {e}", cl.display())),
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of 3 imports failed:\n{}",
            failures.len(),
            failures.join("\n")
        )
        .into())
    }
}

fn main() {
    run_corpus(check)
}
