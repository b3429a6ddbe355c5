//! The cold-start benchmark: a typical PyOpenCL session
//! (`bench/pyopencl_session.py`: elementwise operations, reductions, a
//! scan, a large `zeros`, a bitonic sort) in a fresh Python process with
//! every cache off, on each platform through the system's ICD loader, timed
//! as the child's CPU time (user + system). Most of it is building
//! programs, which is what a new PyOpenCL user waits for. Lockstep is
//! reached through its ICD (`liblockstep_icd.so` beside this binary), pocl
//! and Intel's runtime through the loader's vendor files
//! (`OCL_ICD_VENDORS`, else `/etc/OpenCL/vendors`); runs are interleaved
//! platform by platform.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context as _, Result};

/// One platform's sessions.
pub struct Sessions {
    /// The bench's key for the platform (`lockstep`, `pocl`, `intel`).
    pub key: &'static str,
    /// CPU seconds (user + system) and wall seconds of each session, or why
    /// a session failed.
    pub runs: Result<Vec<(f64, f64)>>,
}

impl Sessions {
    /// The least CPU time of the sessions.
    pub fn best_cpu(&self) -> Option<f64> {
        let runs = self.runs.as_ref().ok()?;
        runs.iter().map(|r| r.0).min_by(f64::total_cmp)
    }

    /// The median CPU time of the sessions.
    pub fn median_cpu(&self) -> Option<f64> {
        let mut cpu: Vec<f64> = self.runs.as_ref().ok()?.iter().map(|r| r.0).collect();
        cpu.sort_by(f64::total_cmp);
        cpu.get(cpu.len() / 2).copied()
    }

    /// The least wall time of the sessions.
    pub fn best_wall(&self) -> Option<f64> {
        let runs = self.runs.as_ref().ok()?;
        runs.iter().map(|r| r.1).min_by(f64::total_cmp)
    }
}

/// The platforms: the bench's key and a part of the OpenCL platform name
/// the session script picks it by.
pub const PLATFORMS: [(&str, &str); 3] = [
    ("lockstep", "lockstep"),
    ("pocl", "portable"),
    ("intel", "intel"),
];

pub fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("pyopencl_session.py")
}

/// Runs the session `runs` times on each of `platforms` (keys of
/// [`PLATFORMS`]), interleaved.
pub fn run(platforms: &[&'static str], runs: usize) -> Result<Vec<Sessions>> {
    let vendors = vendor_dir()?;
    let mut out: Vec<Sessions> = platforms
        .iter()
        .map(|&key| Sessions {
            key,
            runs: Ok(Vec::new()),
        })
        .collect();
    for _ in 0..runs {
        for s in out.iter_mut() {
            let Ok(done) = &mut s.runs else { continue };
            let name = PLATFORMS
                .iter()
                .find(|(k, _)| *k == s.key)
                .map(|(_, n)| *n)
                .expect("a known platform");
            match session(vendors.path(), name) {
                Ok(r) => done.push(r),
                Err(e) => s.runs = Err(e),
            }
        }
    }
    Ok(out)
}

/// A vendor directory with Lockstep's ICD and every other vendor file the
/// loader would use.
fn vendor_dir() -> Result<tempfile::TempDir> {
    let dir = tempfile::tempdir()?;
    let icd = std::env::current_exe()?.with_file_name("liblockstep_icd.so");
    if !icd.exists() {
        bail!(
            "{} is missing (cargo build --release -p lockstep-icd)",
            icd.display()
        );
    }
    std::fs::write(
        dir.path().join("lockstep.icd"),
        format!("{}\n", icd.display()),
    )?;
    let others = std::env::var_os("OCL_ICD_VENDORS")
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .unwrap_or_else(|| PathBuf::from("/etc/OpenCL/vendors"));
    if let Ok(entries) = std::fs::read_dir(&others) {
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name();
            if path.extension().is_some_and(|x| x == "icd") && name != "lockstep.icd" {
                std::fs::copy(&path, dir.path().join(name))?;
            }
        }
    }
    Ok(dir)
}

/// CPU seconds (user + system) of the process's waited-for children.
fn children_cpu() -> f64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage fills the struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// One session on the platform named like `name`: (CPU s, wall s).
fn session(vendors: &Path, name: &str) -> Result<(f64, f64)> {
    let before = children_cpu();
    let start = Instant::now();
    let out = Command::new("python3")
        .arg(script())
        .arg(name)
        .env("OCL_ICD_VENDORS", vendors)
        .env("PYOPENCL_NO_CACHE", "1")
        .env("LOCKSTEP_CACHE", "0")
        .env("POCL_KERNEL_CACHE", "0")
        .output()
        .context("running python3")?;
    let wall = start.elapsed().as_secs_f64();
    let cpu = children_cpu() - before;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !stdout.contains("SESSION OK") {
        bail!(
            "the session failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("")
        );
    }
    Ok((cpu, wall))
}
