//! Lockstep as an installable OpenCL platform: the OpenCL 3.0 host API
//! (with the 1.x entry points programs still use) behind the Khronos ICD
//! loader.
//!
//! The loader finds the library through an `.icd` file, calls
//! `clIcdGetPlatformIDsKHR`, and from then on calls through the dispatch
//! table every object starts with ([`dispatch`]). The entry points live in
//! one module per object kind; [`handle`] validates handles and counts
//! references, [`queue`] says how commands run.
//!
//! Only `clIcdGetPlatformIDsKHR`, `clGetPlatformInfo` and
//! `clGetExtensionFunctionAddress(ForPlatform)` are exported by name: the
//! other entry points are reached through the table, so their symbols can
//! never interpose on the loader's own `cl*` functions in the same process.

mod cl;
mod context;
mod device;
mod dispatch;
mod handle;
mod image;
mod info;
mod kernel;
mod memory;
mod pipe;
mod platform;
mod program;
mod queue;
mod stubs;
mod svm;

pub use dispatch::DISPATCH_SLOTS;
pub use platform::{ICD_SUFFIX, PLATFORM_NAME};
pub use program::load_binary;
