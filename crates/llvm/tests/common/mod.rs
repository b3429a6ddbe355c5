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

/// The widths a `.ref` file has sections for: a kernel whose output
/// depends on the subgroup size (the SIMD width) has its expected lines
/// under `WIDTH w` headers, one section per width; other files have none.
#[allow(dead_code)]
pub fn reference_widths(reference: &str) -> Vec<u32> {
    reference
        .lines()
        .filter_map(|l| l.strip_prefix("WIDTH "))
        .filter_map(|w| w.trim().parse().ok())
        .collect()
}

/// The part of a `.ref` file that holds for `width`: its `WIDTH width`
/// section, or the whole file when it has no sections; `None` when it has
/// sections but none for `width`.
#[allow(dead_code)]
pub fn reference_for(reference: &str, width: u32) -> Option<String> {
    if reference_widths(reference).is_empty() {
        return Some(reference.to_string());
    }
    let mut out = None::<String>;
    let mut inside = false;
    for line in reference.lines() {
        if let Some(w) = line.strip_prefix("WIDTH ") {
            inside = w.trim().parse() == Ok(width);
            if inside {
                out = Some(String::new());
            }
            continue;
        }
        if let (true, Some(text)) = (inside, out.as_mut()) {
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}
