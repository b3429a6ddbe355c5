//! The vectorization report (`lockstep compile --emit report`): per kernel
//! specialization, the width, which values are uniform, consecutive or
//! varying, which branches diverge, and how each memory access was emitted.

use std::fmt::{self, Write as _};

use lockstep_ir::{self as ir, ConvertOp, Rounding};
use lockstep_passes::analysis::{Shape, Uniformity};

use crate::emit::Spec;

/// How a memory access was emitted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    /// One scalar access for the gang (uniform address).
    Scalar,
    /// One (masked) vector access (consecutive address, stride = size).
    Vector,
    /// Every `factor`-th element of a (masked) vector access `factor`
    /// times as wide (consecutive address, stride = `factor` × size).
    Strided { factor: u32 },
    /// One of `factor` stores whose values are written side by side (an
    /// interleaved group): one masked vector access `factor` times as
    /// wide for the group.
    Interleaved { factor: u32 },
    /// A gather or scatter; the address's shape says why.
    Gather {
        shape: Shape,
        /// Addressed as 32-bit offsets from an object's start.
        offsets_32: bool,
        /// Tested at run time for consecutive lanes (then one vector
        /// access).
        consecutive_test: bool,
    },
    /// Lane by lane (atomics).
    PerLane,
    /// An atomic at one address for the gang: one access with the lanes'
    /// operands combined.
    Combined,
    /// An atomic add at per-lane addresses in local memory: a gather and a
    /// scatter, lanes with the same address combined.
    Conflicts,
}

/// A barrier and what each gang keeps across it.
#[derive(Clone, Debug, Default)]
pub struct BarrierSave {
    /// The barrier instruction, and its source line if known.
    pub barrier: String,
    pub line: Option<u32>,
    /// Each value live across the barrier (printed with its type and shape)
    /// and the bytes a gang keeps for it.
    pub values: Vec<(String, u64)>,
}

/// What code generation did for one kernel specialization.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub kernel: String,
    pub width: u32,
    pub local_size: [u32; 3],
    pub uniform_values: usize,
    pub consecutive_values: usize,
    pub varying_values: usize,
    /// Blocks ending in a divergent branch.
    pub divergent_branches: Vec<String>,
    /// Loops whose exit diverges.
    pub divergent_loops: Vec<String>,
    /// `(instruction, kind, access)` for every memory access.
    pub accesses: Vec<(String, String, Access)>,
    /// Operations done lane by lane, with why.
    pub scalarized: Vec<String>,
    /// How private arrays are laid out.
    pub private_arrays: Vec<String>,
    /// Loads prefetched ahead in their loops, with how far.
    pub prefetches: Vec<String>,
    /// Each barrier with the values a gang keeps across it.
    pub barrier_values: Vec<BarrierSave>,
    /// Barriers, and the bytes of state each gang keeps between them.
    pub barriers: usize,
    pub gang_state: u64,
    /// How divergent control flow was linearized ("per-block masks", "block-IP").
    pub linearization: Option<&'static str>,
    /// Whether the kernel runs with lane refill, and why.
    pub refill: String,
    /// Checked mode: how many accesses go through pointers whose object
    /// the provenance analysis cannot name (not checked); `None` unchecked.
    pub unchecked_accesses: Option<usize>,
}

impl Report {
    pub fn new(kernel: &str, spec: &Spec) -> Report {
        Report {
            kernel: kernel.to_string(),
            width: spec.width,
            local_size: spec.local_size,
            ..Report::default()
        }
    }

    pub fn note_shapes(&mut self, func: &ir::Function, uni: &Uniformity) {
        for &b in &func.layout {
            for &p in &func.blocks[b].params {
                self.count(uni.shape(p));
            }
            for &i in &func.blocks[b].insts {
                if let Some(r) = func.results[i] {
                    self.count(uni.shape(r));
                }
            }
        }
    }

    /// Notes the divergent branches and loops of `func` (before it is
    /// linearized: afterwards every branch is uniform).
    /// Notes the divergent branches and loops of `func` before `linearize`
    /// turns them into masks by `scheme`.
    pub fn note_divergence(
        &mut self,
        func: &ir::Function,
        uni: &Uniformity,
        scheme: crate::Linearization,
    ) {
        for &b in &func.layout {
            if uni.is_divergent(b) {
                self.divergent_branches.push(format!("{b}"));
            }
        }
        if !self.divergent_branches.is_empty() {
            self.linearization = Some(match scheme {
                crate::Linearization::Masks => "per-block masks, by the linearize pass",
                crate::Linearization::BlockIp => "block-IP, by the linearize pass",
            });
        }
        for lp in uni.loops().loops() {
            if uni.is_divergent_loop(lp) {
                self.divergent_loops
                    .push(format!("{}", uni.loops().header(lp)));
            }
        }
    }

    fn count(&mut self, s: Shape) {
        match s {
            Shape::Uniform => self.uniform_values += 1,
            Shape::Consecutive { .. } => self.consecutive_values += 1,
            Shape::Varying => self.varying_values += 1,
        }
    }

    pub fn note_access(&mut self, inst: ir::Inst, kind: &str, access: Access) {
        self.accesses
            .push((format!("{inst}"), kind.to_string(), access));
    }

    pub fn note_barrier(
        &mut self,
        barrier: lockstep_ir::Inst,
        line: Option<u32>,
        saved: Vec<(String, u64)>,
    ) {
        self.barrier_values.push(BarrierSave {
            barrier: format!("{barrier}"),
            line,
            values: saved,
        });
    }

    pub fn note_prefetch(&mut self, load: ir::Inst, iterations: u64, step: String) {
        let note = format!(
            "{load}: {iterations} iterations ahead (its address moves by {step} bytes per iteration)"
        );
        if !self.prefetches.contains(&note) {
            self.prefetches.push(note);
        }
    }

    pub fn note_private_interleaved(&mut self, slot: lockstep_ir::StackSlot, elem: u32) {
        self.private_arrays.push(format!("{slot}: interleaved across lanes every {elem} bytes (a uniform index is one vector access)"));
    }

    pub fn note_scalarized_math(&mut self, function: &str, vector: bool) {
        if vector {
            let note = format!("{function}: no vector implementation, called once per lane");
            if !self.scalarized.contains(&note) {
                self.scalarized.push(note);
            }
        }
    }

    pub fn note_scalarized_conversion(&mut self, op: ConvertOp, rounding: Rounding) {
        let note = format!("{op}.{rounding}: exact directed-rounding conversion, once per lane");
        if !self.scalarized.contains(&note) {
            self.scalarized.push(note);
        }
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.local_size;
        writeln!(
            f,
            "kernel {}: width {}, local size {x}x{y}x{z}",
            self.kernel, self.width
        )?;
        writeln!(
            f,
            "  values: {} uniform, {} consecutive, {} varying",
            self.uniform_values, self.consecutive_values, self.varying_values
        )?;
        if self.divergent_branches.is_empty() {
            writeln!(f, "  control flow: uniform (all branches kept as branches)")?;
        } else {
            writeln!(
                f,
                "  divergent branches (linearized with {}): {}",
                self.linearization.unwrap_or("masks"),
                self.divergent_branches.join(", ")
            )?;
        }
        if !self.divergent_loops.is_empty() {
            writeln!(
                f,
                "  loops with a divergent exit: {}",
                self.divergent_loops.join(", ")
            )?;
        }
        match self.unchecked_accesses {
            Some(0) => writeln!(f, "  checked mode: every memory access is checked")?,
            Some(n) => writeln!(
                f,
                "  checked mode: {n} access(es) through pointers of unknown origin (loaded from memory, made from integers, or joining several objects) are not checked"
            )?,
            None => {}
        }
        if !self.refill.is_empty() {
            writeln!(f, "  lane refill: {}", self.refill)?;
        }
        let mut line = String::new();
        for (inst, kind, access) in &self.accesses {
            let how = match access {
                Access::Scalar => "scalar (uniform address)".to_string(),
                Access::Vector => "vector (consecutive)".to_string(),
                Access::Interleaved { factor } => format!(
                    "interleaved vector (one of {factor} stores side by side: a {factor}x wider masked access for them all)"
                ),
                Access::Strided { factor } => format!(
                    "strided vector (elements {factor} apart: a {factor}x wider masked access and a shuffle)"
                ),
                Access::Gather {
                    shape,
                    offsets_32,
                    consecutive_test,
                } => format!(
                    "{} (address {shape}{}{})",
                    if kind == "load" { "gather" } else { "scatter" },
                    if *offsets_32 {
                        "; 32-bit offsets from an address in the object"
                    } else {
                        ""
                    },
                    match (*consecutive_test, kind.as_str()) {
                        (true, "load") => "; one vector access when consecutive at run time, one load when the lanes share an address",
                        (true, _) => "; one vector access when consecutive at run time",
                        _ => "",
                    }
                ),
                Access::PerLane => "per lane (atomic)".to_string(),
                Access::Combined => {
                    "one access for the gang (lanes' operands combined)".to_string()
                }
                Access::Conflicts => {
                    "gather and scatter (lanes with the same address combined)".to_string()
                }
            };
            let _ = writeln!(line, "    {inst} {kind}: {how}");
        }
        if !line.is_empty() {
            write!(f, "  memory accesses:\n{line}")?;
        }
        for p in &self.private_arrays {
            writeln!(f, "  private array {p}")?;
        }
        for p in &self.prefetches {
            writeln!(f, "  prefetch {p}")?;
        }
        if self.barriers > 0 {
            writeln!(
                f,
                "  barriers: {} (each gang stops at a barrier until all gangs of the group arrive; {} bytes of state per gang: the values live across each barrier that are not computed again, and private arrays; every work-item of the group must arrive, and a gang that arrives without some stops the launch with a barrier-divergence error)",
                self.barriers, self.gang_state
            )?;
        }
        for BarrierSave {
            barrier,
            line,
            values: saved,
        } in &self.barrier_values
        {
            let at = line.map(|l| format!(" (line {l})")).unwrap_or_default();
            let total: u64 = saved.iter().map(|(_, b)| b).sum();
            writeln!(
                f,
                "    barrier {barrier}{at}: {} values saved, {total} bytes per gang",
                saved.len()
            )?;
            for (v, bytes) in saved {
                writeln!(f, "      {v}: {bytes} bytes")?;
            }
        }
        for s in &self.scalarized {
            writeln!(f, "  scalarized: {s}")?;
        }
        Ok(())
    }
}
