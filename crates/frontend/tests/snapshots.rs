//! Snapshot tests: each `tests/frontend/NAME.cl` compiles to the Lockstep IR
//! in `NAME.lir` beside it. `LOCKSTEP_BLESS=1` rewrites the snapshots; read
//! the diff before committing it.

mod common;

use common::*;

#[test]
fn imported_ir_matches_snapshots() {
    let dir = repo().join("tests/frontend");
    let inputs = files(&dir, "cl");
    assert!(
        inputs.len() >= 40,
        "expected at least 40 snapshot inputs, found {}",
        inputs.len()
    );
    let bless = std::env::var_os("LOCKSTEP_BLESS").is_some_and(|v| v != "0");
    let mut failures = Vec::new();
    for cl in &inputs {
        let name = cl.file_name().unwrap().to_string_lossy().into_owned();
        let actual = match compile_file(cl, "") {
            Ok(compiled) => {
                assert_roundtrip(&compiled.module, &name);
                lockstep_ir::module_to_string(&compiled.module)
            }
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let snapshot = cl.with_extension("lir");
        let expected = std::fs::read_to_string(&snapshot).unwrap_or_default();
        if expected != actual {
            if bless {
                std::fs::write(&snapshot, &actual).unwrap();
            } else {
                failures.push(format!(
                    "{name}: IR differs from {} (LOCKSTEP_BLESS=1 to accept)",
                    snapshot.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} snapshot failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
