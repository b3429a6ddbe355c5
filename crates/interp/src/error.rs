//! The interpreter's errors and checked-mode diagnostics.

use std::fmt;

use lockstep_ir::SourceLoc;
use thiserror::Error;

/// Which work-item did something: its global, local and group ids.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkItemId {
    pub global_id: [u64; 3],
    pub local_id: [u64; 3],
    pub group_id: [u64; 3],
}

impl fmt::Display for WorkItemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.global_id;
        let [d, e, g] = self.local_id;
        let [h, i, j] = self.group_id;
        write!(
            f,
            "work-item ({a}, {b}, {c}) (local ({d}, {e}, {g}), group ({h}, {i}, {j}))"
        )
    }
}

/// Where something happened: the instruction (printed as in the text
/// format), its function and source location, and the work-item.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Site {
    pub function: String,
    pub inst: String,
    pub loc: Option<SourceLoc>,
    pub work_item: WorkItemId,
}

impl fmt::Display for Site {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = self.loc {
            write!(f, "at {}:{}, ", loc.line, loc.col)?;
        }
        write!(
            f,
            "`{}` in @{}, {}",
            self.inst, self.function, self.work_item
        )
    }
}

/// The kind of memory access that faulted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Load,
    Store,
    Atomic,
    /// A read by `memcpy` or `printf("%s")`.
    Read,
    /// A write by `memcpy` or `memset`.
    Write,
}

impl fmt::Display for AccessKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AccessKind::Load => "load",
            AccessKind::Store => "store",
            AccessKind::Atomic => "atomic access",
            AccessKind::Read => "read",
            AccessKind::Write => "write",
        })
    }
}

/// Why a launch stopped. Every error a kernel can cause is one of these;
/// the interpreter never panics on a kernel's behalf.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum InterpError {
    /// An access outside every live memory region, or past the end of the
    /// region its pointer points into (including through a null pointer:
    /// `region` is then "null pointer"). `offset` is relative to the
    /// region's start and may be negative.
    #[error("out-of-bounds {access} of {size} bytes at offset {offset} of {region}{}: {site}", .region_size.map(|s| format!(" ({s} bytes)")).unwrap_or_default())]
    OutOfBounds {
        access: AccessKind,
        region: String,
        region_size: Option<u64>,
        offset: i64,
        size: u64,
        site: Box<Site>,
    },
    /// A store, atomic or memset/memcpy destination in `__constant` memory.
    #[error("{access} to read-only {region}: {site}")]
    ReadOnly {
        access: AccessKind,
        region: String,
        site: Box<Site>,
    },
    /// An atomic whose address is not a multiple of its size.
    #[error("misaligned atomic access of {size} bytes at offset {offset} of {region}: {site}")]
    MisalignedAtomic {
        region: String,
        offset: i64,
        size: u64,
        site: Box<Site>,
    },
    /// Work-items of one group did not all reach the same barrier (or some
    /// returned while others wait at a barrier). Unchecked only: checked
    /// mode reports [`DiagnosticKind::BarrierDivergence`] and goes on.
    #[error("barrier divergence in work-group ({}, {}, {}): {message}", .group[0], .group[1], .group[2])]
    BarrierDivergence { group: [u64; 3], message: String },
    /// A construct the interpreter does not execute (e.g. recursion deeper
    /// than its call-stack limit, a call to a function without a body).
    #[error("unsupported: {what}{}", .site.as_ref().map(|s| format!(": {s}")).unwrap_or_default())]
    Unsupported {
        what: String,
        site: Option<Box<Site>>,
    },
    /// `Options::max_steps` instructions were executed.
    #[error("step limit of {limit} instructions exceeded: {site}")]
    StepLimit { limit: u64, site: Box<Site> },
    /// Control reached `unreachable` (undefined behaviour in the source).
    #[error("reached `unreachable`: {site}")]
    Unreachable { site: Box<Site> },
    /// The arguments do not fit the kernel's parameters.
    #[error("kernel @{kernel}, argument {index}: {message}")]
    ArgMismatch {
        kernel: String,
        index: usize,
        message: String,
    },
    /// The function is not a kernel, or the argument count is wrong.
    #[error("{0}")]
    BadKernel(String),
    /// The NDRange is malformed (work_dim not 1..=3, a zero local size, ...).
    #[error("invalid NDRange: {0}")]
    InvalidRange(String),
    /// The IR is malformed in a way that stops execution (a branch to a
    /// block outside the layout, a wrong number of block arguments, ...).
    #[error("invalid IR in @{function}: {message}")]
    InvalidIr { function: String, message: String },
    /// The kernels enqueued on the device cannot all run (they wait for
    /// events that never complete), or their bookkeeping failed.
    #[error("device enqueue: {message}")]
    DeviceEnqueue { message: String },
}

/// What checked mode found.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DiagnosticKind {
    /// Two work-items of a group accessed the same byte of `__local` or
    /// `__global` memory in one barrier interval, at least one of them
    /// writing, neither atomically (or, for `__global`, work-items of
    /// different groups).
    DataRace,
    /// A read of `__local` memory that no work-item of the group wrote, or
    /// of `__private` memory (an array, a variable whose address is taken)
    /// that its work-item did not write.
    Uninitialized,
    /// An access outside the object its pointer points into (skipped).
    InvalidAccess,
    /// An access whose address is not a multiple of its size.
    Unaligned,
    /// A write to a read-only buffer or a read of a write-only one.
    AccessMode,
    /// An integer division or remainder by zero.
    DivisionByZero,
    /// Work-items of a group reached different barriers, or some returned
    /// while others wait at one (the waiting ones go on together).
    BarrierDivergence,
    /// Async copies misused: work-items of a group made different copies
    /// (or waited for different events), waited for an event no copy
    /// returned, touched a copy's memory before waiting for it, or never
    /// waited.
    AsyncCopy,
}

/// A checked-mode finding: reported once per instruction (pair).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: DiagnosticKind,
    /// A one-line description, without the location.
    pub message: String,
    /// The instruction that made the finding (the second access of a race).
    pub site: Site,
}

impl Diagnostic {
    pub fn loc(&self) -> Option<SourceLoc> {
        self.site.loc
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.site)
    }
}
