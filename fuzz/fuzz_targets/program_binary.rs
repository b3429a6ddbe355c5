//! The OpenCL platform's program-binary loader (`clCreateProgramWithBinary`
//! then `clBuildProgram`, short of compiling OpenCL C) on arbitrary bytes:
//! `CL_INVALID_BINARY` or a program, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = lockstep_icd::load_binary(data);
});
