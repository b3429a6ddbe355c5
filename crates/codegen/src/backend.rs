//! The back end after SIMD code generation: host target, LLVM optimization
//! and object emission, the ORC JIT, and the on-disk object cache.
//!
//! The emitter (`crate::emit`) builds one `inkwell` module per kernel
//! specialization; everything here takes such a module and turns it into
//! callable machine code for this CPU:
//!
//! * [`target`]: what the host is (triple, CPU, features, preferred SIMD
//!   width) and `default<O3>` + object/assembly emission for it;
//! * [`jit`]: one ORC LLJIT per process that links those objects against the
//!   runtime's helpers, libm and SLEEF;
//! * [`cache`]: compiled objects on disk, keyed by everything that shapes
//!   them, so a second run of the same kernel skips LLVM entirely.
//!
//! The three modules are declared here (with `#[path]`, since they live
//! beside this file rather than under `backend/`) so that they compile
//! whether or not the crate root also names them.

#[path = "cache.rs"]
pub mod cache;
#[path = "jit.rs"]
pub mod jit;
#[path = "target.rs"]
pub mod target;

pub use cache::ObjectCache;
pub use jit::Jit;
pub use target::{BackendError, BackendResult, HostTarget};
