//! The OpenCL C builtin library, as LLVM bitcode to link into every kernel
//! module before import.
//!
//! `build.rs` compiles `crates/frontend/builtins/*.cl` with clang 19 for
//! `spir64` (OpenCL C 3.0, with both the generic and the named address
//! space overloads) and links the units into one module. It defines every
//! OpenCL C builtin a kernel can call - math, common, integer, geometric,
//! relational, vector load/store, shuffle, conversions, atomics, async
//! copies - under the mangled names clang gives user calls, for OpenCL C
//! 1.2, 2.0 and 3.0 kernels. `builtins/lockstep_builtins.cl` states the
//! contract in full; in short:
//!
//! * Left as external declarations, for the importer to map to IR
//!   operations ("core"): the work-item functions (`get_global_id`, ...,
//!   `get_local_linear_id`), `barrier`, `work_group_barrier`, `mem_fence`,
//!   `read_mem_fence`, `write_mem_fence`, `atomic_work_item_fence`,
//!   `printf`, and the conversion hooks
//!   `__lockstep_convert_{s,u,f}_{rte,rtz,rtp,rtn}[_sat]` (overloaded on
//!   the source type; the destination type is the *call's* return type - the
//!   same mangled hook is declared with several return types, and
//!   llvm-link keeps only one declaration).
//! * Also left external: LLVM intrinsics (`llvm.sin.*`, `llvm.fma.*`,
//!   `llvm.fmuladd.*`, `llvm.ctlz.*`, `llvm.is.fpclass.*`, half variants,
//!   ...) and C libm functions without an intrinsic (`erff`, `lgamma`,
//!   `hypotf`, ...). `builtins/check_coverage.py --externals` prints the
//!   exact list.
//! * Atomics are LLVM `atomicrmw` / `cmpxchg` / atomic `load` / `store`
//!   instructions; async copies are plain loops over the work-group plus a
//!   barrier in `wait_group_events`.
//!
//! How to link: parse lazily and link with `LinkOnlyNeeded` so only the
//! called functions are materialized (the module defines about 12 750
//! functions, 3.6 MB; linking only the needed ones takes milliseconds
//! instead of most of a second),
//! then internalize everything but the kernels. All library functions carry
//! clang's OpenCL `convergent` attribute; only the ones that reach a
//! barrier need it, so stripping it from the rest before optimizing is
//! safe and gives LLVM more freedom.
pub const BUILTINS_BC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/lockstep_builtins.bc"));
