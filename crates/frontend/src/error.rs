//! The front end's errors: a user's compile error (clang's diagnostics), an
//! unsupported construct, or an environment problem.

use std::fmt;

use thiserror::Error;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One diagnostic from clang's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub severity: Severity,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {severity}: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

/// A place in the user's source, from debug info.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

#[derive(Debug, Error)]
pub enum CompileError {
    /// The program has errors; `log` is clang's output, the build log.
    #[error("{log}")]
    Clang {
        log: String,
        diagnostics: Vec<Diagnostic>,
    },
    /// Something valid OpenCL C that Lockstep does not support yet.
    #[error("{}unsupported: {construct}{}", location.as_ref().map(|l| format!("{l}: ")).unwrap_or_default(), in_function.as_ref().map(|f| format!(" (in function '{f}')")).unwrap_or_default())]
    Unsupported {
        construct: String,
        location: Option<Location>,
        in_function: Option<String>,
    },
    #[error("clang 19 was not found: install clang-19 (e.g. `make deps` or `apt-get install clang-19`) or set LOCKSTEP_CLANG to a clang 19 binary")]
    ClangNotFound,
    /// Bytes that are not a SPIR-V module of the OpenCL environment this
    /// device runs ([`crate::spirv::Module::parse`] says why).
    #[error("invalid SPIR-V module: {0}")]
    SpirvInvalid(String),
    /// The SPIR-V translator rejected the module; `log` is its message.
    #[error("{log}")]
    SpirvTranslation { log: String },
    #[error("the SPIR-V translator was not found ({why}): install the llvm-spirv-15 package (`make deps` or `apt-get install llvm-spirv-15`) or set LOCKSTEP_LLVM_SPIRV to an llvm-spirv binary for LLVM 19 or older")]
    SpirvTranslatorNotFound { why: String },
    #[error("bad build options: {0}")]
    BadOption(String),
    /// Separately compiled objects that do not link (a symbol defined
    /// twice, two kernels of one name): the user's error, the link log.
    #[error("link error: {0}")]
    Link(String),
    /// A kernel past the compile-time budget ([`lockstep_ir::limits`]).
    #[error(transparent)]
    TooLarge(#[from] lockstep_ir::TooLarge),
    #[error("{what}: {message}")]
    Io { what: String, message: String },
    /// LLVM rejected something Lockstep produced: a compiler bug.
    #[error("internal compiler error: {0}")]
    Internal(String),
}

impl CompileError {
    /// The text a user reads as the build log.
    pub fn build_log(&self) -> String {
        self.to_string()
    }
}

pub type CompileResult<T> = Result<T, CompileError>;
