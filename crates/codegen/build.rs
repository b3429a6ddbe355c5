//! Compiles `src/cpu_features.cpp`, the one piece of the back end that LLVM's
//! C API cannot do: the feature list of a CPU named by `LOCKSTEP_CPU` (see
//! `src/target.rs`). It uses LLVM's C++ headers, found like llvm-sys finds
//! LLVM: `$LLVM_SYS_191_PREFIX/bin/llvm-config`, else `llvm-config-19` on
//! PATH, else `llvm-config`. The symbols come from the libLLVM that llvm-sys
//! links.

use std::path::PathBuf;
use std::process::Command;

fn llvm_config(arg: &str) -> Result<String, String> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(prefix) = std::env::var_os("LLVM_SYS_191_PREFIX") {
        candidates.push(PathBuf::from(prefix).join("bin").join("llvm-config"));
    }
    candidates.push("llvm-config-19".into());
    candidates.push("llvm-config".into());
    let mut tried = Vec::new();
    for tool in &candidates {
        match Command::new(tool).arg(arg).output() {
            Ok(out) if out.status.success() => {
                return Ok(String::from_utf8_lossy(&out.stdout).trim().to_string());
            }
            Ok(out) => tried.push(format!("{} {arg}: {}", tool.display(), out.status)),
            Err(e) => tried.push(format!("{}: {e}", tool.display())),
        }
    }
    Err(format!(
        "no usable llvm-config (install llvm-19-dev): {}",
        tried.join("; ")
    ))
}

fn main() {
    println!("cargo:rerun-if-changed=src/cpu_features.cpp");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    let cxxflags = llvm_config("--cxxflags").unwrap_or_else(|e| {
        eprintln!("error: building lockstep-codegen's C++ part: {e}");
        std::process::exit(1);
    });
    let mut build = cc::Build::new();
    build.cpp(true).file("src/cpu_features.cpp");
    for flag in cxxflags.split_whitespace() {
        // LLVM's headers as system headers: their warnings are not ours.
        match flag.strip_prefix("-I") {
            Some(dir) => build.flag("-isystem").flag(dir),
            None => build.flag(flag),
        };
    }
    // LLVM is built without RTTI; the shim must not ask for its type info.
    build.flag("-fno-rtti").warnings(true);
    build.compile("lockstep_cpu_features");
}
