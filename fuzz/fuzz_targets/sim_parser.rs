//! The `.sim` parser on arbitrary text: an error or success, never a panic
//! or an abort. The kernel's arguments are made up from the text (one per
//! `<`, cycling through every argument kind) so headers meet every kind.

#![no_main]

use libfuzzer_sys::fuzz_target;
use lockstep_runtime::{sim, ArgKind, ArgMeta, ScalarKind};

/// The argument kinds and type names the made-up kernels cycle through.
const KINDS: &[(fn() -> ArgKind, &str)] = &[
    (|| ArgKind::GlobalBuffer, "float*"),
    (|| ArgKind::ConstantBuffer, "int*"),
    (|| ArgKind::LocalMemory, "char*"),
    (|| ArgKind::Scalar(ScalarKind::Int(32)), "int"),
    (|| ArgKind::ByValue { size: 16 }, "float4"),
    (|| ArgKind::GlobalBuffer, "void*"),
    (|| ArgKind::GlobalBuffer, "ulong*"),
    (|| ArgKind::Scalar(ScalarKind::Float(64)), "double"),
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let args = text.matches('<').count().min(16);
    let metas: Vec<ArgMeta> = (0..args)
        .map(|i| {
            let (kind, type_name) = KINDS[i % KINDS.len()];
            ArgMeta {
                name: format!("a{i}"),
                type_name: type_name.to_string(),
                kind: kind(),
                is_const: false,
                is_restrict: false,
                is_volatile: false,
            }
        })
        .collect();
    // Buffers up to 1 MiB: larger ones are refused before any allocation.
    let _ = sim::parse_text("fuzz.sim", text, &metas, 1 << 20);
});
