//! Filetests: `.lir` files holding Lockstep IR, a header naming the checks,
//! and the expected results as comments (Cranelift's `.clif` tests, rustc's
//! mir-opt tests).
//!
//! A file starts with one or more `test <kind>` lines, then IR in the text
//! format. Expectations:
//!
//! * `; error: <text>` lines: the check must fail with these errors, in
//!   order, each containing its text (verifier and parse errors).
//! * a `; expected output:` line followed by `; `-prefixed lines: the exact
//!   output of a check that prints something. `LOCKSTEP_BLESS=1` rewrites
//!   this block from the actual output.
//! * `; check: <text>` lines, for long outputs (generated LLVM IR): each
//!   text must occur in the output, in this order (FileCheck's CHECK);
//!   `; not: <text>` lines: the text must occur nowhere in it. Code the
//!   generator shapes after the host's vector ISA has its checks for each:
//!   `; check avx512: <text>` counts only where the compiled-for CPU has
//!   AVX-512's mask registers (`avx512f` and `avx512vl`), `; check
//!   no-avx512: <text>` only where it has not.
//! * `; run: @kernel global G local L (args) => argK = values` lines, for
//!   `test run`: the kernel runs on the interpreter as written and after
//!   the pass pipeline, and its buffers must hold these values ([`run`]).
//!
//! Every file that parses is also checked to round-trip: print → parse →
//! print gives the same text.

pub mod run;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use lockstep_ir::{module_to_string, parse_module, verify_module, Module};

/// The marker line that opens an expected-output block.
pub const EXPECTED_MARKER: &str = "; expected output:";

/// A parsed filetest file.
pub struct TestFile {
    pub path: PathBuf,
    pub source: String,
    /// The kinds named by `test` lines, in order.
    pub kinds: Vec<String>,
    /// The `; error:` expectations, in order.
    pub expected_errors: Vec<String>,
    /// The expected-output block, if present.
    pub expected_output: Option<String>,
    /// `; check:` texts, in order.
    pub checks: Vec<String>,
    /// `; not:` texts, which must occur nowhere in the output.
    pub absent: Vec<String>,
}

impl TestFile {
    pub fn read(path: &Path) -> Result<TestFile> {
        let source =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let kinds: Vec<String> = source
            .lines()
            .filter_map(|l| l.trim().strip_prefix("test "))
            .map(|k| k.trim().to_string())
            .collect();
        if kinds.is_empty() {
            bail!("no `test <kind>` line");
        }
        let expected_errors = source
            .lines()
            .filter_map(|l| l.split_once("; error:").map(|(_, e)| e.trim().to_string()))
            .collect();
        let expected_output = source.find(EXPECTED_MARKER).map(|at| {
            let mut out = String::new();
            for line in source[at..].lines().skip(1) {
                match line
                    .strip_prefix("; ")
                    .or_else(|| (line == ";").then_some(""))
                {
                    Some(text) => {
                        out.push_str(text);
                        out.push('\n');
                    }
                    None => break,
                }
            }
            out
        });
        // The texts of the lines that start with any of `prefixes`, in order.
        let directive = |prefixes: &[&str]| -> Vec<String> {
            source
                .lines()
                .filter_map(|l| {
                    let l = l.trim();
                    prefixes.iter().find_map(|p| l.strip_prefix(p))
                })
                .map(|c| c.trim().to_string())
                .collect()
        };
        let isa_check = if has_mask_registers() {
            "; check avx512:"
        } else {
            "; check no-avx512:"
        };
        let checks = directive(&["; check:", isa_check]);
        let absent = directive(&["; not:"]);
        Ok(TestFile {
            path: path.to_path_buf(),
            source,
            kinds,
            expected_errors,
            expected_output,
            checks,
            absent,
        })
    }

    /// The IR part of the file: everything but the `test` lines.
    pub fn ir_source(&self) -> String {
        self.source
            .lines()
            .map(|l| if l.trim().starts_with("test ") { "" } else { l })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// True if the CPU the code generator compiles for has AVX-512's mask
/// registers at every width (see `; check avx512:`).
fn has_mask_registers() -> bool {
    lockstep_codegen::target().is_ok_and(|t| t.has_feature("avx512f") && t.has_feature("avx512vl"))
}

/// What a check produced: errors it reported (compared with `; error:`
/// lines) and text it printed (compared with the expected-output block).
#[derive(Default)]
pub struct Outcome {
    pub errors: Vec<String>,
    pub output: Option<String>,
}

/// A check that the passes crate (or a later stage) provides; gets the parsed
/// module and returns its printed result or an error message.
pub type Check = lockstep_passes::FiletestCheck;

/// Runs one file with the given table of extra checks (kind → check).
/// Returns `Ok(Some(new_source))` when blessing changed the file.
pub fn run_file(file: &TestFile, checks: &[(&str, Check)], bless: bool) -> Result<Option<String>> {
    let parsed = parse_module(&file.ir_source());
    let mut outcome = Outcome::default();
    let mut outputs = Vec::new();
    for kind in &file.kinds {
        match kind.as_str() {
            "parse-error" => match &parsed {
                Ok(_) => bail!("expected a parse error, but the file parsed"),
                Err(e) => outcome.errors.push(e.to_string()),
            },
            "verifier" => {
                let module = parsed.as_ref().map_err(|e| anyhow!("parse error: {e}"))?;
                if let Err(errs) = verify_module(module) {
                    outcome.errors.extend(errs.0.iter().map(|e| e.to_string()));
                }
            }
            "roundtrip" => {
                let module = parsed.as_ref().map_err(|e| anyhow!("parse error: {e}"))?;
                outputs.push(module_to_string(module));
            }
            "run" => {
                let module = parsed.as_ref().map_err(|e| anyhow!("parse error: {e}"))?;
                run::check_runs(module, &run::run_lines(&file.source)?)
                    .map_err(|e| anyhow!("test run: {e:#}"))?;
            }
            other => {
                let module = parsed.as_ref().map_err(|e| anyhow!("parse error: {e}"))?;
                let Some((_, check)) = checks.iter().find(|(k, _)| *k == other) else {
                    bail!("unknown test kind `{other}`");
                };
                if let Err(errs) = verify_module(module) {
                    bail!("the input does not verify:\n{errs}");
                }
                outputs.push(check(module).map_err(|e| anyhow!("test {other}: {e}"))?);
            }
        }
    }
    if let Ok(module) = &parsed {
        check_roundtrip(module)?;
    }
    check_errors(&file.expected_errors, &outcome.errors)?;
    if !outputs.is_empty() {
        outcome.output = Some(outputs.concat());
    }
    if !file.checks.is_empty() || !file.absent.is_empty() {
        let output = outcome.output.as_deref().unwrap_or_default();
        check_in_order(&file.checks, output)?;
        if let Some(a) = file.absent.iter().find(|a| output.contains(a.as_str())) {
            bail!("`; not: {a}` found in the output:\n{output}");
        }
        return Ok(None);
    }
    compare_output(file, outcome.output.as_deref(), bless)
}

/// print → parse → print must give the same text.
pub fn check_roundtrip(module: &Module) -> Result<()> {
    let first = module_to_string(module);
    let reparsed = parse_module(&first)
        .map_err(|e| anyhow!("printed IR does not parse again: {e}\n{first}"))?;
    let second = module_to_string(&reparsed);
    if first != second {
        bail!("print → parse → print changed the text:\n--- first\n{first}--- second\n{second}");
    }
    Ok(())
}

/// Each of `checks` must occur in `output`, each after the previous one.
fn check_in_order(checks: &[String], output: &str) -> Result<()> {
    let mut at = 0;
    for c in checks {
        match output[at..].find(c.as_str()) {
            Some(i) => at += i + c.len(),
            None => bail!("`; check: {c}` not found (after byte {at}) in the output:\n{output}"),
        }
    }
    Ok(())
}

fn check_errors(expected: &[String], actual: &[String]) -> Result<()> {
    let matches = expected.len() == actual.len()
        && expected
            .iter()
            .zip(actual)
            .all(|(e, a)| a.contains(e.as_str()));
    if !matches {
        bail!(
            "errors differ\nexpected (as substrings, in order):\n{}\nactual:\n{}",
            list(expected),
            list(actual)
        );
    }
    Ok(())
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        return "  (none)".to_string();
    }
    items
        .iter()
        .map(|i| format!("  {i}"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn compare_output(file: &TestFile, actual: Option<&str>, bless: bool) -> Result<Option<String>> {
    let Some(actual) = actual else {
        if file.expected_output.is_some() {
            bail!("file has an expected-output block, but no check printed anything");
        }
        return Ok(None);
    };
    if file.expected_output.as_deref() == Some(actual) {
        return Ok(None);
    }
    if bless {
        return Ok(Some(with_expected_block(&file.source, actual)));
    }
    match &file.expected_output {
        None => bail!("no `{EXPECTED_MARKER}` block; actual output:\n{actual}(run with LOCKSTEP_BLESS=1 to record it)"),
        Some(expected) => bail!("output differs\n--- expected\n{expected}--- actual\n{actual}(run with LOCKSTEP_BLESS=1 to accept)"),
    }
}

/// `source` with its expected-output block replaced by (or extended with) `output`.
pub fn with_expected_block(source: &str, output: &str) -> String {
    let body = match source.find(EXPECTED_MARKER) {
        Some(at) => {
            let rest = &source[at..];
            let block_len: usize = rest
                .lines()
                .enumerate()
                .take_while(|(i, l)| *i == 0 || l.starts_with("; ") || *l == ";")
                .map(|(_, l)| l.len() + 1)
                .sum();
            let after = rest.get(block_len..).unwrap_or("");
            format!(
                "{}{}",
                source[..at].trim_end(),
                if after.trim().is_empty() {
                    String::new()
                } else {
                    format!("\n\n{}", after.trim_start())
                }
            )
        }
        None => source.trim_end().to_string(),
    };
    let mut out = format!("{body}\n\n{EXPECTED_MARKER}\n");
    for line in output.lines() {
        if line.is_empty() {
            out.push_str(";\n");
        } else {
            let _ = writeln!(out, "; {line}");
        }
    }
    out
}

/// All `.lir` files under `dir`, sorted.
pub fn collect_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "lir") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}
