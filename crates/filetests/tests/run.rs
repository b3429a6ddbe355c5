//! Runs every `.lir` file under `tests/filetests` (or the files and folders
//! given as arguments). `LOCKSTEP_BLESS=1` rewrites expected-output blocks.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use lockstep_filetests::{collect_files, run_file, TestFile};

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/filetests");
    let args: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(PathBuf::from)
        .collect();
    let roots = if args.is_empty() { vec![root] } else { args };
    let files: Vec<PathBuf> = roots
        .iter()
        .flat_map(|r| {
            if r.is_dir() {
                collect_files(r)
            } else {
                vec![r.clone()]
            }
        })
        .collect();
    let bless = std::env::var_os("LOCKSTEP_BLESS").is_some_and(|v| v != "0");
    let mut checks: Vec<(&str, lockstep_filetests::Check)> =
        lockstep_passes::filetest_checks().to_vec();
    checks.push(("codegen", codegen_check));
    let (mut passed, mut failed) = (0, 0);
    for path in &files {
        let result = TestFile::read(path).and_then(|file| {
            if let Some(new_source) = run_file(&file, &checks, bless)? {
                std::fs::write(path, new_source)?;
                println!("blessed {}", path.display());
            }
            Ok(())
        });
        match result {
            Ok(()) => passed += 1,
            Err(e) => {
                failed += 1;
                println!("FAILED {}\n{e:#}\n", path.display());
            }
        }
    }
    println!("filetests: {passed} passed, {failed} failed");
    if failed == 0 && passed > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `test codegen`: the SIMD LLVM IR of each kernel (width 8; local size from
/// `reqd_work_group_size`, else 64), before LLVM's optimizer.
fn codegen_check(module: &lockstep_ir::Module) -> Result<String, String> {
    let mut out = String::new();
    for (id, f) in module.kernels() {
        let local_size = f
            .kernel
            .as_ref()
            .and_then(|k| k.reqd_work_group_size)
            .unwrap_or([64, 1, 1]);
        let spec = lockstep_codegen::Spec::new(local_size, 8);
        let text =
            lockstep_codegen::kernel_listing(module, id, &spec, lockstep_codegen::Listing::Llvm)
                .map_err(|e| e.to_string())?;
        out.push_str(&text);
    }
    Ok(out)
}
