//! The runtime's errors: each says what is wrong and what to change.

use thiserror::Error;

/// A program failed to build.
#[derive(Debug, Error)]
pub enum BuildError {
    /// The build options are invalid (`CL_INVALID_BUILD_OPTIONS`).
    #[error("bad build options: {0}")]
    Options(String),
    /// The source file could not be read.
    #[error("reading {}: {message}", path.display())]
    Read {
        path: std::path::PathBuf,
        message: String,
    },
    /// The bytes given as SPIR-V are not a SPIR-V module this device runs
    /// (`CL_INVALID_VALUE` from `clCreateProgramWithIL`).
    #[error("invalid SPIR-V module: {0}")]
    InvalidSpirv(String),
    /// The source has errors (the message is the build log) or uses
    /// something Lockstep does not support: the toolchain's error, which
    /// callers that know the toolchain may downcast.
    // Transparent: with `{0}` and a source, `anyhow`'s `{:#}` would print
    // the message twice.
    #[error(transparent)]
    Compile(Box<dyn std::error::Error + Send + Sync>),
}

impl BuildError {
    /// The build log: the compiler's diagnostics, or the unsupported construct.
    pub fn build_log(&self) -> String {
        self.to_string()
    }
}

/// A program binary (Lockstep IR text) that cannot be loaded.
#[derive(Debug, Error, PartialEq)]
pub enum BinaryError {
    #[error("the program binary's IR does not parse: {0}")]
    Parse(String),
    #[error("the program binary's IR does not verify: {0}")]
    Verify(String),
    #[error("the program binary: {0}")]
    TooLarge(lockstep_ir::TooLarge),
    #[error("the program binary's build options are invalid: {0}")]
    Options(String),
}

/// An engine name that does not name an engine of this build.
#[derive(Debug, Error, PartialEq)]
pub enum EngineError {
    #[error("unknown engine '{name}' (engines: interp, simd)")]
    Unknown { name: String },
}

/// A kernel could not be created, an argument not set, or a launch not run.
#[derive(Debug, Error, PartialEq)]
pub enum LaunchError {
    #[error("no kernel named '{name}' in the program (kernels: {available})")]
    NoSuchKernel { name: String, available: String },
    #[error("argument index {index} is out of range: kernel '{kernel}' takes {count} arguments")]
    ArgIndex {
        kernel: String,
        index: usize,
        count: usize,
    },
    #[error(
        "argument {index} ('{name}') of kernel '{kernel}' is {expected}, but {given} was given"
    )]
    ArgKind {
        kernel: String,
        index: usize,
        name: String,
        expected: String,
        given: String,
    },
    #[error("argument {index} ('{name}') of kernel '{kernel}' was not set")]
    ArgNotSet {
        kernel: String,
        index: usize,
        name: String,
    },
    #[error("kernel '{kernel}' asks for {bytes} bytes of local memory per work-group (its __local variables and arguments), more than the device's {max}; use smaller __local arrays or give smaller LocalMem sizes")]
    LocalMemoryTooLarge {
        kernel: String,
        bytes: u64,
        max: u64,
    },
    #[error("the work dimension must be 1, 2 or 3, not {0}")]
    WorkDim(u32),
    #[error(
        "the global size in dimension {dim} is 0; every dimension needs at least one work-item"
    )]
    ZeroGlobalSize { dim: usize },
    #[error(
        "the local size in dimension {dim} is 0; every dimension needs at least one work-item"
    )]
    ZeroLocalSize { dim: usize },
    #[error("a work-group of {total} work-items is larger than the device maximum of {max}")]
    WorkGroupTooLarge { total: u64, max: u64 },
    /// The global size (times its dimensions, or plus the offset) does not
    /// fit 64 bits: nothing could index it.
    #[error("the NDRange is too large: {what} does not fit in 64 bits")]
    RangeTooLarge { what: String },
    #[error("kernel '{kernel}' requires the work-group size {required:?} (reqd_work_group_size), but {given:?} was given")]
    ReqdWorkGroupSize {
        kernel: String,
        required: [u64; 3],
        given: [u64; 3],
    },
    #[error("local size {local} does not divide global size {global} in dimension {dim}; {why}")]
    NonUniformWorkGroups {
        dim: usize,
        global: u64,
        local: u64,
        why: String,
    },
    #[error("arguments {first} and {second} of kernel '{kernel}' are overlapping buffers or SVM memory; the interpreter engine needs distinct memory (or the same buffer twice)")]
    AliasedBuffers {
        kernel: String,
        first: usize,
        second: usize,
    },
    /// A system pointer (fine-grained system SVM) on the interpreter, which
    /// addresses memory by region.
    #[error("argument {index} of kernel '{kernel}' is a system pointer (fine-grained system SVM), whose extent the interpreter engine cannot know; run it on the SIMD engine or pass memory from clSVMAlloc")]
    SystemPointer { kernel: String, index: usize },
    /// The SIMD engine could not compile the kernel.
    #[error("kernel '{kernel}' could not be compiled for the SIMD engine: {message}")]
    Compile { kernel: String, message: String },
    /// The private arrays of a gang do not fit any worker's stack.
    #[error("kernel '{kernel}' needs {bytes} bytes of private memory per SIMD gang, more than the {max} a worker's stack may have; use smaller private arrays, a narrower --width, or the interpreter engine")]
    PrivateMemoryTooLarge {
        kernel: String,
        bytes: u64,
        max: u64,
    },
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {message}; ask for fewer (--threads, LOCKSTEP_THREADS)")]
    WorkerThreads { threads: usize, message: String },
    /// An image argument whose texels are a buffer's could not be copied
    /// for the interpreter or checked code, which run on a self-contained
    /// copy.
    #[error("argument {index} of kernel '{kernel}' is an image in a buffer, which the interpreter and checked mode run on a copy of; the copy failed: {message}")]
    ImageCopy {
        kernel: String,
        index: usize,
        message: String,
    },
    /// The kernel faulted while running (out-of-bounds access, barrier
    /// divergence…); the message has the source location.
    #[error("kernel '{kernel}' failed: {message}")]
    Execution { kernel: String, message: String },
}
