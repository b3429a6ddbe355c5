//! The front end: runs clang 19 on OpenCL C and imports the LLVM IR it produces into Lockstep IR. The only crate that reads LLVM IR.
