//! Lockstep analyses and transforms over Lockstep IR: CFG, dominance, loops, uniformity, liveness, and the passes that linearize divergent control flow.

/// A filetest check: takes the parsed (and verified) module, returns the
/// text to compare with the file's expected output, or an error message.
pub type FiletestCheck = fn(&lockstep_ir::Module) -> Result<String, String>;

/// The filetest checks this crate provides, as `(test kind, check)`.
pub fn filetest_checks() -> &'static [(&'static str, FiletestCheck)] {
    &[]
}
