//! What the corpus tests (`corpus`, `differential`) share.

use std::path::{Path, PathBuf};

use lockstep_runtime::sim::simulation_files;

/// The `.sim` files of the kernel corpus (`tests/kernels/**`), each with its
/// test name: its path under `tests/` without the extension
/// (`kernels/barrier/scan_divergent_load`).
pub fn corpus_kernels() -> Vec<(String, PathBuf)> {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests");
    simulation_files(&tests.join("kernels"))
        .into_iter()
        .map(|sim| {
            let name = sim
                .strip_prefix(&tests)
                .unwrap_or(&sim)
                .with_extension("")
                .display()
                .to_string();
            (name, sim)
        })
        .collect()
}
