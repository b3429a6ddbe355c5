//! Every kernel of the corpus (`tests/kernels/**.cl`) imports at -O0, -O2
//! and -O3 into IR that verifies and round-trips through the text format.

mod common;

use common::*;

#[test]
fn corpus_imports_at_every_opt_level() {
    let kernels = files(&repo().join("tests/kernels"), "cl");
    assert!(!kernels.is_empty(), "no corpus kernels found");
    let mut failures = Vec::new();
    for cl in &kernels {
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
    }
    assert!(
        failures.is_empty(),
        "{} of {} imports failed:\n{}",
        failures.len(),
        kernels.len() * 3,
        failures.join("\n")
    );
}
