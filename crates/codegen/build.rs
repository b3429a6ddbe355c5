//! Compiles `src/cpu_features.cpp`, the one piece of the back end that LLVM's
//! C API cannot do: the feature list of a CPU named by `LOCKSTEP_CPU` (see
//! `src/target.rs`). It uses LLVM's C++ headers, found like llvm-sys finds
//! LLVM: `$LLVM_SYS_191_PREFIX/bin/llvm-config`, else `llvm-config-19` on
//! PATH, else `llvm-config`. The symbols come from the libLLVM that llvm-sys
//! links.

include!("../build-support/llvm_shim.rs");

fn main() {
    if let Err(e) = compile_llvm_shim("cpu_features") {
        eprintln!("error: building lockstep-codegen's C++ part: {e}");
        std::process::exit(1);
    }
}
