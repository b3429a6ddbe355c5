//! Checked mode's reports, in the layout Oclgrind users know:
//!
//! ```text
//! Invalid write of size 4 at global memory address 0x7f3a5c000040
//!     Kernel: scale
//!     Entity: Global(16,0,0) Local(0,0,0) Group(1,0,0)
//!     At line 5 of scale.cl:
//!       out[i] = in[i] * 2;
//!     The access is at byte 64 of argument 0 'out' (64 bytes).
//! ```
//!
//! The SIMD engine's checked code (`lockstep_codegen`'s `emit/check.rs`)
//! calls [`lockstep_rt_check_failed`] with the lanes that failed; this
//! module turns the first failing lane of each instruction into a report
//! (once per instruction and problem), and the interpreter's diagnostics
//! into the same layout.

use std::collections::HashMap;
use std::sync::Mutex;

use lockstep_interp as interp;
use lockstep_ir::abi::{arg_flags, CheckInfo, CheckObject, GroupContext};
use lockstep_ir::{AddrSpace, Module, Type};

use crate::kernel::ArgValue;
use crate::Kernel;

/// At most this many reports per launch.
const MAX_REPORTS: usize = 100;

/// What [`format_report`] lays out.
pub(crate) struct Finding<'a> {
    /// The first line: what went wrong.
    pub headline: String,
    pub kernel: &'a str,
    /// Global, local and group ids.
    pub entity: Option<([u64; 3], [u64; 3], [u64; 3])>,
    /// Line and column (0: unknown).
    pub line: Option<(u32, u32)>,
    /// More about it (the object and offset), if anything.
    pub detail: Option<String>,
}

/// A report's text, lines after the first indented by a tab.
pub(crate) fn format_report(f: &Finding, source_name: &str, source: Option<&str>) -> String {
    let mut out = f.headline.clone();
    out.push_str(&format!("\n\tKernel: {}", f.kernel));
    if let Some((g, l, grp)) = f.entity {
        out.push_str(&format!(
            "\n\tEntity: Global({},{},{}) Local({},{},{}) Group({},{},{})",
            g[0], g[1], g[2], l[0], l[1], l[2], grp[0], grp[1], grp[2]
        ));
    }
    match f.line {
        Some((line, col)) if line > 0 => {
            if col > 0 {
                out.push_str(&format!(
                    "\n\tAt line {line} (column {col}) of {source_name}:"
                ));
            } else {
                out.push_str(&format!("\n\tAt line {line} of {source_name}:"));
            }
            let text = source.and_then(|s| s.lines().nth(line as usize - 1));
            match text {
                Some(t) => out.push_str(&format!("\n\t  {}", t.trim())),
                None => out.push_str("\n\t  (source not available)"),
            }
        }
        _ => out.push_str("\n\tDebugging information not available."),
    }
    if let Some(d) = &f.detail {
        out.push_str(&format!("\n\t{d}"));
    }
    out
}

/// The name of an address space as Oclgrind prints it.
fn space_name(space: AddrSpace) -> &'static str {
    match space {
        AddrSpace::Private => "private",
        AddrSpace::Global | AddrSpace::Generic => "global",
        AddrSpace::Constant => "constant",
        AddrSpace::Local => "local",
    }
}

/// Per argument: its size in bytes and `arg_flags` (what checked code
/// reads through `GroupContext::arg_info`).
pub(crate) fn arg_info(kernel: &Kernel, bound: &[ArgValue]) -> Vec<u64> {
    let mut info = Vec::with_capacity(2 * bound.len());
    for (i, a) in bound.iter().enumerate() {
        let meta = &kernel.args()[i];
        let (size, mut flags) = match a {
            ArgValue::Buffer(s) => (s.len() as u64, s.kernel_access()),
            ArgValue::Local(n) => (*n as u64, 0),
            ArgValue::Bytes(b) => (b.len() as u64, 0),
            // Bound, a self-contained image is its storage's buffer (a
            // checked launch makes the others so) and a sampler a scalar;
            // as given, the same.
            ArgValue::Image(i) => (i.storage().len() as u64, 0),
            // Bound, a pipe is its storage's buffer.
            ArgValue::Pipe(p) => (p.storage().len() as u64, 0),
            // The bytes from the pointer to its allocation's end; a system
            // pointer's extent is unknown, so its accesses pass.
            ArgValue::Pointer { addr, allocation } => (
                allocation.map_or(u64::MAX, |(start, len)| (start + len).saturating_sub(*addr)),
                0,
            ),
            ArgValue::Null | ArgValue::Scalar(..) | ArgValue::Sampler(_) => (0, 0),
        };
        if meta.is_const && matches!(a, ArgValue::Buffer(_)) {
            flags |= arg_flags::READ_ONLY;
        }
        info.push(size);
        info.push(flags);
    }
    info
}

/// Where a SIMD launch's checked code reports (`GroupContext::check_sink`).
pub(crate) struct CheckSink<'a> {
    kernel: &'a Kernel,
    /// Abort the process at the first report (`LOCKSTEP_CHECK_ABORT`).
    abort: bool,
    state: Mutex<SinkState>,
}

/// One report per (instruction, problem), in the order first found: the
/// one of the first work-item in launch order (group, then local linear
/// id), whichever worker thread found the problem first, so that which
/// work-item a report names does not depend on thread timing.
#[derive(Default)]
struct SinkState {
    by_site: HashMap<(u64, u8), usize>,
    /// (group's linear index, local linear id) and text.
    reports: Vec<((u64, u64), String)>,
}

impl<'a> CheckSink<'a> {
    pub fn new(kernel: &'a Kernel, abort: bool) -> CheckSink<'a> {
        CheckSink {
            kernel,
            abort,
            state: Mutex::default(),
        }
    }

    pub fn into_reports(self) -> Vec<String> {
        let state = self.state.into_inner().unwrap_or_else(|e| e.into_inner());
        state.reports.into_iter().map(|(_, text)| text).collect()
    }

    fn module(&self) -> &Module {
        &self.kernel.program.module
    }

    /// The object's name and address space.
    fn describe(&self, object: CheckObject) -> (String, Option<AddrSpace>) {
        match object {
            CheckObject::Arg(i) => {
                let name = self
                    .kernel
                    .args()
                    .get(i as usize)
                    .map_or(String::new(), |m| format!(" '{}'", m.name));
                let func = &self.module().functions[self.kernel.func];
                let space = func.signature.params.get(i as usize).and_then(|t| match t {
                    Type::Ptr(s) => Some(*s),
                    _ => None,
                });
                let what = match space {
                    Some(AddrSpace::Local) => "__local argument",
                    Some(AddrSpace::Private) => "by-value argument",
                    _ => "argument",
                };
                (format!("{what} {i}{name}"), space)
            }
            CheckObject::Global(i) => {
                let g = self.module().globals.values().nth(i as usize);
                match g {
                    Some(g) => {
                        let what = match g.space {
                            AddrSpace::Local => "__local variable",
                            AddrSpace::Constant => "__constant variable",
                            _ => "program-scope variable",
                        };
                        (format!("{what} '{}'", g.name), Some(g.space))
                    }
                    None => ("a variable".to_string(), None),
                }
            }
            CheckObject::Stack(_) => (
                "a private array or variable".to_string(),
                Some(AddrSpace::Private),
            ),
        }
    }

    /// Records the failing lanes of one instruction.
    #[allow(clippy::too_many_arguments)]
    fn failed(
        &self,
        ctx: &GroupContext,
        info: CheckInfo,
        site: u64,
        problems: [u64; 3],
        lanes: &[u64],
        addrs: &[u64],
        offsets: &[u64],
        object_size: u64,
    ) {
        for (p, &bits) in problems.iter().enumerate() {
            if bits == 0 {
                continue;
            }
            let lane = bits.trailing_zeros() as usize;
            if lane >= lanes.len() {
                continue;
            }
            let g = ctx.group_id;
            let n = ctx.num_groups;
            let order = (g[0] + n[0] * (g[1] + n[1] * g[2]), lanes[lane]);
            let earlier = |st: &SinkState| match st.by_site.get(&(site, p as u8)) {
                Some(&i) => st.reports[i].0 <= order,
                None => st.reports.len() >= MAX_REPORTS,
            };
            if earlier(&self.state.lock().unwrap_or_else(|e| e.into_inner())) {
                continue;
            }
            let (object, object_space) = self.describe(info.object);
            let space = match info.space {
                AddrSpace::Generic => object_space.unwrap_or(AddrSpace::Global),
                s => s,
            };
            let rw = if info.write { "write" } else { "read" };
            let size = if info.size == 0 {
                String::new()
            } else {
                format!(" of size {}", info.size)
            };
            let (addr, offset) = (addrs[lane], offsets[lane] as i64);
            let headline = match p {
                0 => format!(
                    "Invalid {rw}{size} at {} memory address {addr:#x}",
                    space_name(space)
                ),
                1 => format!(
                    "Unaligned {rw}{size} at {} memory address {addr:#x}",
                    space_name(space)
                ),
                _ if info.write => "Invalid write to read-only buffer".to_string(),
                _ => "Invalid read from write-only buffer".to_string(),
            };
            let detail = match p {
                0 if offset < 0 => format!(
                    "The access starts {} bytes before {object} ({object_size} bytes); it was skipped.",
                    -offset
                ),
                0 => format!(
                    "The access is at byte {offset} of {object} ({object_size} bytes); it was skipped."
                ),
                _ => format!("The access is at byte {offset} of {object} ({object_size} bytes)."),
            };
            let entity = entity(ctx, self.kernel_local_size(ctx), lanes[lane]);
            let text = format_report(
                &Finding {
                    headline,
                    kernel: self.kernel.name(),
                    entity: Some(entity),
                    line: Some((info.line, 0)),
                    detail: Some(detail),
                },
                &self.kernel.program.source_name,
                self.kernel.program.source_text.as_deref(),
            );
            if self.abort {
                abort_with(&text);
            }
            let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if earlier(&st) {
                continue;
            }
            match st.by_site.get(&(site, p as u8)) {
                Some(&i) => st.reports[i] = (order, text),
                None => {
                    let i = st.reports.len();
                    st.by_site.insert((site, p as u8), i);
                    st.reports.push((order, text));
                }
            }
        }
    }

    /// The size of the group `ctx` runs (the last group in a dimension
    /// may be smaller).
    fn kernel_local_size(&self, ctx: &GroupContext) -> [u64; 3] {
        std::array::from_fn(|d| {
            let l = ctx.enqueued_local_size[d].max(1);
            let start = ctx.group_id[d] * l;
            ctx.global_size[d].saturating_sub(start).min(l).max(1)
        })
    }
}

/// Global, local and group ids of the work-item of local linear id `lin`.
fn entity(ctx: &GroupContext, local_size: [u64; 3], lin: u64) -> ([u64; 3], [u64; 3], [u64; 3]) {
    let local = [
        lin % local_size[0],
        (lin / local_size[0]) % local_size[1],
        lin / (local_size[0] * local_size[1]),
    ];
    let global = std::array::from_fn(|d| {
        ctx.global_offset[d] + ctx.group_id[d] * ctx.enqueued_local_size[d] + local[d]
    });
    (global, local, ctx.group_id)
}

/// Whether checked mode stops the process at the first report
/// (`LOCKSTEP_CHECK_ABORT=1`).
pub(crate) fn abort_requested() -> bool {
    std::env::var("LOCKSTEP_CHECK_ABORT").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Prints a report and aborts the process (`LOCKSTEP_CHECK_ABORT=1`).
pub(crate) fn abort_with(text: &str) -> ! {
    eprintln!("{text}\n\nLockstep checked mode: stopping at the first problem (LOCKSTEP_CHECK_ABORT is set).");
    std::process::abort()
}

/// Checked SIMD code found bad accesses (see `runtime_symbols::CHECK_FAILED`).
/// A panic is caught: it must not unwind into generated code.
///
/// # Safety
/// Called by generated code with the launch's live sink and context, and
/// `width` elements at each of `lanes`, `addrs` and `offsets`.
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe extern "C" fn lockstep_rt_check_failed(
    sink: *mut std::ffi::c_void,
    ctx: *const GroupContext,
    info: u64,
    site: u64,
    out_of_bounds: u64,
    unaligned: u64,
    mode: u64,
    lanes: *const u64,
    addrs: *const u64,
    offsets: *const u64,
    object_size: u64,
    width: u64,
) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        if sink.is_null() || ctx.is_null() {
            return;
        }
        // SAFETY: the caller's contract above.
        let (sink, ctx, lanes, addrs, offsets) = unsafe {
            (
                &*(sink as *const CheckSink),
                &*ctx,
                std::slice::from_raw_parts(lanes, width as usize),
                std::slice::from_raw_parts(addrs, width as usize),
                std::slice::from_raw_parts(offsets, width as usize),
            )
        };
        sink.failed(
            ctx,
            CheckInfo::unpack(info),
            site,
            [out_of_bounds, unaligned, mode],
            lanes,
            addrs,
            offsets,
            object_size,
        );
    }));
}

/// An interpreter diagnostic in the report layout.
pub(crate) fn interp_report(
    d: &interp::Diagnostic,
    kernel: &str,
    source_name: &str,
    source: Option<&str>,
) -> String {
    let w = d.site.work_item;
    format_report(
        &Finding {
            headline: d.message.clone(),
            kernel,
            entity: Some((w.global_id, w.local_id, w.group_id)),
            line: d.site.loc.map(|l| (l.line, l.col)),
            detail: None,
        },
        source_name,
        source,
    )
}
