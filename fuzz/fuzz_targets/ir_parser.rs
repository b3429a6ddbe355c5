//! The Lockstep IR text parser on arbitrary text: an error or a module,
//! never a panic. A module that parses goes through the verifier, and one
//! that verifies prints to text that parses again.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(module) = lockstep_ir::parse_module(text) else {
        return;
    };
    if lockstep_ir::verify_module(&module).is_err() {
        return;
    }
    let printed = lockstep_ir::module_to_string(&module);
    if let Err(e) = lockstep_ir::parse_module(&printed) {
        panic!("a verified module prints to text that does not parse: {e}\n{printed}");
    }
});
