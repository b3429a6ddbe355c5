//! Runs clang 19 on OpenCL C source and returns LLVM bitcode for `spir64`,
//! or clang's diagnostics as the user's build log. Build options reach
//! clang only if they are OpenCL's or on a vetted list ([`BuildOptions::parse`]),
//! so an application's options cannot make clang read or write other files.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::error::{CompileError, Diagnostic, Severity};

/// OpenCL C source to compile.
#[derive(Clone, Debug)]
pub struct Source {
    /// The name diagnostics use for this source (e.g. `kernel.cl`).
    pub name: String,
    pub text: String,
    /// The directory `#include "..."` is resolved against (the source file's
    /// directory when compiling a file).
    pub include_dir: Option<PathBuf>,
}

impl Source {
    /// Source text with a name for diagnostics.
    pub fn from_string(name: impl Into<String>, text: impl Into<String>) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
            include_dir: None,
        }
    }

    /// Reads a source file; includes resolve against its directory.
    pub fn from_file(path: &Path) -> Result<Source, CompileError> {
        let text = std::fs::read_to_string(path).map_err(|e| CompileError::Io {
            what: format!("reading {}", path.display()),
            message: e.to_string(),
        })?;
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let include_dir = path.parent().map(|p| {
            if p.as_os_str().is_empty() {
                PathBuf::from(".")
            } else {
                p.to_path_buf()
            }
        });
        Ok(Source {
            name,
            text,
            include_dir,
        })
    }
}

/// What clang produced: bitcode and the warnings it printed.
pub struct ClangOutput {
    pub bitcode: Vec<u8>,
    pub log: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// Finds clang 19: `$LOCKSTEP_CLANG`, else `clang-19` on `PATH`, else the
/// `clang` in `llvm-config-19 --bindir`.
pub fn find_clang() -> Result<PathBuf, CompileError> {
    if let Some(path) = std::env::var_os("LOCKSTEP_CLANG") {
        return Ok(PathBuf::from(path));
    }
    if let Some(path) = search_path("clang-19") {
        return Ok(path);
    }
    let bindir = Command::new("llvm-config-19")
        .arg("--bindir")
        .output()
        .ok()
        .filter(|o| o.status.success());
    if let Some(out) = bindir {
        let candidate = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("clang");
        if candidate.exists() {
            return Ok(candidate);
        }
    }
    Err(CompileError::ClangNotFound)
}

pub(crate) fn search_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The OpenCL C version (as `-cl-std=` names it) a compile gets when the
/// user gives none: OpenCL C 3.1 with the optional features Lockstep
/// supports.
pub const DEFAULT_CL_STD: &str = "CL3.1";

/// The clang arguments that select OpenCL C `version` (`CL1.0` … `CL3.1`,
/// as `-cl-std=` names it).
///
/// clang 19 knows OpenCL C up to 3.0. OpenCL C 3.1 adds to 3.0 the
/// functions of extensions it promotes to core (extended bit operations,
/// integer dot products, the subgroup shuffles, rotates and extended
/// types), which the device offers as extensions from OpenCL C 2.0 on,
/// and `printf`'s `z` and `t` length modifiers, which Lockstep's `printf`
/// takes in every version. So 3.1 compiles as 3.0, and the prelude makes
/// `__OPENCL_C_VERSION__` 310 ([`crate::features::OPENCL_C_3_1_MARKER`]).
pub(crate) fn clang_cl_std(version: &str) -> Vec<String> {
    if version == "CL3.1" {
        vec![
            "-cl-std=CL3.0".to_string(),
            format!("-D{}", crate::features::OPENCL_C_3_1_MARKER),
        ]
    } else {
        vec![format!("-cl-std={version}")]
    }
}

/// Build options understood by Lockstep itself (the rest go to clang).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Options passed to clang, in order (`-D`, `-I`, `-cl-std=`, `-w`, `-Werror`…).
    pub clang_args: Vec<String>,
    /// LLVM optimization level, 0 to 3 (`-O0`…`-O3`; `-cl-opt-disable` is
    /// 0; the default is 2). At 0 only inlining runs, so the importer sees
    /// clang's unoptimized code.
    pub opt_level: u8,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            clang_args: Vec::new(),
            opt_level: 2,
        }
    }
}

impl BuildOptions {
    /// Splits a `clBuildProgram`-style option string. Relative `-I` paths are
    /// made absolute against the current directory.
    pub fn parse(options: &str) -> Result<BuildOptions, CompileError> {
        let words = split_words(options)?;
        let mut out = BuildOptions::default();
        let mut iter = words.into_iter();
        while let Some(word) = iter.next() {
            match word.as_str() {
                "-cl-opt-disable" | "-O0" => out.opt_level = 0,
                "-O1" => out.opt_level = 1,
                "-O" | "-O2" => out.opt_level = 2,
                "-O3" => out.opt_level = 3,
                "-I" | "-D" | "-U" => {
                    let Some(value) = iter.next() else {
                        return Err(CompileError::BadOption(format!("'{word}' needs a value")));
                    };
                    let value = if word == "-I" { absolute(&value) } else { value };
                    out.clang_args.push(word);
                    out.clang_args.push(value);
                }
                w if w.starts_with("-I") => out.clang_args.push(format!("-I{}", absolute(&w[2..]))),
                w if w.starts_with("-D") || w.starts_with("-U") => out.clang_args.push(word),
                w if w.starts_with("-cl-std=") => {
                    let version = &w["-cl-std=".len()..];
                    if !CL_STD_VERSIONS.contains(&version) {
                        return Err(CompileError::BadOption(format!(
                            "unknown OpenCL C version in '{w}' (Lockstep accepts -cl-std=CL1.0, CL1.1, CL1.2, CL2.0, CL3.0 and CL3.1)"
                        )));
                    }
                    out.clang_args.extend(clang_cl_std(version))
                }
                w if is_warning_option(w) => out.clang_args.push(word),
                "-cl-kernel-arg-info" | "-g" => out.clang_args.push(word),
                "-cl-mad-enable"
                | "-cl-no-signed-zeros"
                | "-cl-unsafe-math-optimizations"
                | "-cl-finite-math-only"
                | "-cl-fast-relaxed-math"
                | "-cl-single-precision-constant"
                | "-cl-denorms-are-zero"
                | "-cl-fp32-correctly-rounded-divide-sqrt"
                | "-cl-uniform-work-group-size" => out.clang_args.push(word),
                // Subgroups need no independent forward progress: nothing
                // to do on a device without subgroups (and clang 19 does
                // not know the option).
                "-cl-no-subgroup-ifp" => {}
                other => {
                    return Err(CompileError::BadOption(format!(
                        "unknown build option '{other}' (Lockstep accepts -D, -U, -I, -cl-std=, -w, -Werror, -W<warning>, -Wno-<warning>, -g, -O0…-O3 and the -cl-* options of the OpenCL spec)"
                    )))
                }
            }
        }
        Ok(out)
    }

    /// True if the user chose an OpenCL C version.
    fn has_cl_std(&self) -> bool {
        self.clang_args.iter().any(|a| a.starts_with("-cl-std="))
    }
}

/// The OpenCL C versions `-cl-std=` may name.
const CL_STD_VERSIONS: &[&str] = &["CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0", "CL3.1"];

/// A warning option clang may get: `-w`, `-Werror`, `-W<name>`,
/// `-Wno-<name>`, `-Werror=<name>` — names of letters, digits, `-`, `_`,
/// `=` and `+` only, so `-Wp,…`, `-Wl,…` and `-Wa,…` (options handed to the
/// preprocessor, linker or assembler: `-Wp,-MD,FILE` writes any file) are
/// not.
fn is_warning_option(w: &str) -> bool {
    if w == "-w" {
        return true;
    }
    let Some(name) = w.strip_prefix("-W") else {
        return false;
    };
    !name.is_empty()
        && !matches!(name, "p" | "l" | "a")
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_=+".contains(&b))
}

fn absolute(path: &str) -> String {
    let p = Path::new(path);
    if p.is_absolute() {
        return path.to_string();
    }
    std::env::current_dir()
        .map(|d| d.join(p).display().to_string())
        .unwrap_or_else(|_| path.to_string())
}

/// Splits an option string at white space, honouring double and single quotes.
fn split_words(s: &str) -> Result<Vec<String>, CompileError> {
    let mut words = Vec::new();
    let mut current = String::new();
    let mut in_word = false;
    let mut quote = None;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => current.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut current));
                    in_word = false;
                }
            }
            (None, c) => {
                current.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(CompileError::BadOption(format!(
            "unterminated quote in build options: {s}"
        )));
    }
    if in_word {
        words.push(current);
    }
    Ok(words)
}

/// Compiles `source` to `spir64` bitcode at -O0 (optimization happens after
/// the builtin library is linked in).
pub fn run_clang(source: &Source, options: &BuildOptions) -> Result<ClangOutput, CompileError> {
    let clang = find_clang()?;
    let dir = tempfile::tempdir().map_err(|e| CompileError::Io {
        what: "creating a temporary directory".into(),
        message: e.to_string(),
    })?;
    let file_name = sanitize_file_name(&source.name);
    let src_path = dir.path().join(&file_name);
    std::fs::write(&src_path, &source.text).map_err(|e| CompileError::Io {
        what: format!("writing {}", src_path.display()),
        message: e.to_string(),
    })?;
    let out_path = dir.path().join("out.bc");
    // In a directory of its own, so that no source name can clash with it.
    let prelude_dir = dir.path().join("lockstep");
    let prelude_path = prelude_dir.join("prelude.h");
    std::fs::create_dir(&prelude_dir)
        .and_then(|()| std::fs::write(&prelude_path, crate::features::prelude()))
        .map_err(|e| CompileError::Io {
            what: format!("writing {}", prelude_path.display()),
            message: e.to_string(),
        })?;
    let mut cmd = Command::new(&clang);
    cmd.current_dir(dir.path())
        .args(["-x", "cl", "-target", "spir64", "-emit-llvm", "-c", "-O0"])
        .args(["-Xclang", "-disable-O0-optnone"])
        .args([
            "-cl-kernel-arg-info",
            "-gline-tables-only",
            "-fno-discard-value-names",
        ])
        // A plain `inline` function (C99: an inline definition only, as in
        // PyOpenCL's complex header) gets a real definition; at -O0 clang
        // would otherwise emit just a declaration and a call to it.
        .arg("-fgnu89-inline")
        // The default header and exactly the device's extensions and features.
        .args(crate::features::clang_args(&prelude_path))
        .arg("-fno-color-diagnostics");
    if !options.has_cl_std() {
        cmd.args(clang_cl_std(DEFAULT_CL_STD));
    }
    if let Some(dir) = &source.include_dir {
        cmd.arg(format!("-I{}", absolute(&dir.display().to_string())));
    }
    cmd.args(&options.clang_args)
        .arg("-o")
        .arg(&out_path)
        .arg(&file_name);
    let output = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|e| CompileError::Io {
            what: format!("running {}", clang.display()),
            message: e.to_string(),
        })?;
    let log = String::from_utf8_lossy(&output.stderr).into_owned();
    let diagnostics = parse_diagnostics(&log);
    if !output.status.success() {
        return Err(CompileError::Clang { log, diagnostics });
    }
    let bitcode = std::fs::read(&out_path).map_err(|e| CompileError::Io {
        what: "reading clang's output".into(),
        message: e.to_string(),
    })?;
    Ok(ClangOutput {
        bitcode,
        log,
        diagnostics,
    })
}

/// A file name clang can be given that still reads like the user's.
fn sanitize_file_name(name: &str) -> String {
    let base = Path::new(name)
        .file_name()
        .map_or("kernel.cl".to_string(), |n| {
            n.to_string_lossy().into_owned()
        });
    let clean: String = base
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() || clean.starts_with('-') {
        format!("kernel{clean}")
    } else {
        clean
    }
}

/// Picks `file:line:col: severity: message` lines out of clang's output.
pub fn parse_diagnostics(log: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for line in log.lines() {
        for (marker, severity) in [
            (": error: ", Severity::Error),
            (": fatal error: ", Severity::Error),
            (": warning: ", Severity::Warning),
        ] {
            let Some(at) = line.find(marker) else {
                continue;
            };
            let location = &line[..at];
            let mut parts = location.rsplitn(3, ':');
            let (Some(col), Some(row), Some(file)) = (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let (Ok(col), Ok(row)) = (col.parse(), row.parse()) else {
                continue;
            };
            out.push(Diagnostic {
                file: file.to_string(),
                line: row,
                col,
                severity,
                message: line[at + marker.len()..].to_string(),
            });
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::BuildOptions;

    #[test]
    fn only_vetted_options_reach_clang() {
        for ok in [
            "-DN=4 -D M -UX -I /tmp -I. -w -Werror -Wall -Wno-unused-variable -Werror=format",
            "-cl-std=CL1.2 -cl-mad-enable -cl-fast-relaxed-math -g -O0 -cl-kernel-arg-info",
            "-cl-std=CL3.0",
            "-cl-std=CL3.1",
            "-cl-no-subgroup-ifp",
        ] {
            assert!(BuildOptions::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            "-Wp,-MD,/tmp/x",
            "-Wp,-include,/etc/passwd",
            "-Wl,-o,/tmp/x",
            "-Wa,--foo",
            "-Wp",
            "-include /etc/passwd",
            "-MD",
            "-MF /tmp/x",
            "-o /tmp/x",
            "-Xclang -load",
            "-fplugin=/tmp/x.so",
            "--include=/etc/passwd",
            "-cl-std=CL9.9",
            "-cl-std=",
        ] {
            let err = BuildOptions::parse(bad).expect_err(bad);
            assert!(
                matches!(err, crate::CompileError::BadOption(_)),
                "{bad}: {err}"
            );
        }
    }
}
