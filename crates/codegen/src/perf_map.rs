//! `perf` symbols for JIT-compiled kernels: with `LOCKSTEP_PERF_MAP=1`, every
//! function of every object the JIT loads is appended to
//! `/tmp/perf-<pid>.map`, the file `perf report` reads to name addresses in
//! anonymous executable memory. Without it, profiles of kernels show bare
//! addresses.
//!
//! The object's symbol table gives each function's offset and size; one
//! looked-up symbol fixes where its section was placed, and the other
//! functions of that section (internal ones included, which the JIT cannot
//! look up by name) are placed relative to it. The object itself is saved
//! beside the map as `/tmp/perf-<pid>-<symbol>.o`, so `objdump -d` shows the
//! instructions at a profile's offsets (perf cannot read JIT code back).

use std::fs::OpenOptions;
use std::io::Write;
use std::sync::OnceLock;

use object::{Object, ObjectSymbol, SymbolKind};

/// Whether `LOCKSTEP_PERF_MAP` asks for a perf map (read once).
pub(crate) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var("LOCKSTEP_PERF_MAP").is_ok_and(|v| !v.is_empty() && v != "0"))
}

/// Appends the functions of `object` to this process's perf map, given that
/// its symbol `anchor` was loaded at `address`. `prefix` goes before every
/// name (the kernel's name, since every kernel object has the same entry
/// symbols). Failures are ignored: a missing map only costs names.
pub(crate) fn record(object: &[u8], anchor_name: &str, address: usize, prefix: &str) {
    let Ok(file) = object::File::parse(object) else {
        return;
    };
    let Some(anchor) = file.symbols().find(|s| s.name() == Ok(anchor_name)) else {
        return;
    };
    let (Some(section), base) = (anchor.section_index(), anchor.address()) else {
        return;
    };
    let mut lines = String::new();
    for symbol in file.symbols() {
        if symbol.kind() != SymbolKind::Text
            || symbol.size() == 0
            || symbol.section_index() != Some(section)
        {
            continue;
        }
        let Some(start) =
            (address as u64).checked_add_signed(symbol.address() as i64 - base as i64)
        else {
            continue;
        };
        let name = symbol.name().unwrap_or("?");
        lines.push_str(&format!("{start:x} {:x} {prefix}:{name}\n", symbol.size()));
    }
    let pid = std::process::id();
    let _ = std::fs::write(format!("/tmp/perf-{pid}-{anchor_name}.o"), object);
    if let Ok(mut f) = OpenOptions::new()
        .create(true)
        .append(true)
        .open(format!("/tmp/perf-{pid}.map"))
    {
        let _ = f.write_all(lines.as_bytes());
    }
}
