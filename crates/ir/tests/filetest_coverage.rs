//! The roundtrip filetests (`tests/filetests/roundtrip`) together exercise
//! every instruction, operation, condition, conversion modifier, atomic
//! order and scope, work-item query and piece of metadata of the IR: adding
//! a variant to `instructions.rs` fails this test until a filetest uses it.

mod common;

use std::path::Path;

use lockstep_ir::parse_module;

#[test]
fn roundtrip_filetests_cover_the_ir() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/filetests/roundtrip");
    let mut covered = std::collections::BTreeSet::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/filetests/roundtrip exists") {
        let path = entry.expect("readable directory").path();
        if path.extension().is_none_or(|e| e != "lir") {
            continue;
        }
        let source = std::fs::read_to_string(&path).expect("readable filetest");
        // The filetest runner blanks the `test` lines; so do we.
        let ir: String = source
            .lines()
            .map(|l| {
                if l.trim().starts_with("test ") {
                    "\n"
                } else {
                    l
                }
            })
            .flat_map(|l| [l, "\n"])
            .collect();
        let module = parse_module(&ir).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        covered.extend(common::coverage(&module));
        files += 1;
    }
    assert!(files > 0, "no filetests found in {}", dir.display());
    let mut required = common::required_coverage();
    required.extend(common::required_gang_coverage());
    let missing = common::missing(&required, &covered);
    assert!(
        missing.is_empty(),
        "the roundtrip filetests never use: {}",
        missing.join(", ")
    );
}
