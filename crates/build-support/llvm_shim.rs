// Shared by the build scripts of lockstep-frontend and lockstep-codegen
// (each `include!`s this file): compiling the crate's small C++ shim
// against LLVM's C++ headers, for what LLVM's C API cannot do. LLVM is found
// as llvm-sys finds it: `$LLVM_SYS_191_PREFIX/bin/llvm-config`, else
// `llvm-config-19` on PATH, else `llvm-config`; the shim's symbols come from
// the libLLVM that llvm-sys links.

/// Compiles `src/<name>.cpp` into the static library `lockstep_<name>`.
fn compile_llvm_shim(name: &str) -> Result<(), String> {
    let file = format!("src/{name}.cpp");
    println!("cargo:rerun-if-changed={file}");
    println!("cargo:rerun-if-changed=../build-support/llvm_shim.rs");
    println!("cargo:rerun-if-env-changed=LLVM_SYS_191_PREFIX");
    let cxxflags = llvm_config("--cxxflags")?;
    let mut build = cc::Build::new();
    build.cpp(true).file(&file);
    for flag in cxxflags.split_whitespace() {
        // LLVM's headers as system headers: their warnings are not ours.
        match flag.strip_prefix("-I") {
            Some(dir) => build.flag("-isystem").flag(dir),
            None => build.flag(flag),
        };
    }
    // LLVM is built without RTTI; the shim must not ask for its type info.
    build.flag("-fno-rtti").warnings(true);
    build
        .try_compile(&format!("lockstep_{name}"))
        .map_err(|e| format!("compiling {file}: {e}"))
}

/// The output of `llvm-config ARG` for the LLVM that llvm-sys links.
fn llvm_config(arg: &str) -> Result<String, String> {
    let mut candidates: Vec<std::path::PathBuf> = Vec::new();
    if let Some(prefix) = std::env::var_os("LLVM_SYS_191_PREFIX") {
        candidates.push(std::path::PathBuf::from(prefix).join("bin").join("llvm-config"));
    }
    candidates.push("llvm-config-19".into());
    candidates.push("llvm-config".into());
    let mut tried = Vec::new();
    for tool in &candidates {
        match std::process::Command::new(tool).arg(arg).output() {
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
