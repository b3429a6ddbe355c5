//! Emits the work-group function of one kernel specialization (local size,
//! SIMD width W) as LLVM IR over gangs of W work-items.
//!
//! Values are scalars when the uniformity analysis says they are uniform and
//! `<W x T>` vectors otherwise (consecutive values also keep their lane-0
//! base for addressing). Control flow takes one of two forms:
//!
//! * **Uniform control flow** (no divergent branch): the CFG is emitted as
//!   it is, block parameters become phis, and the gang's mask only guards
//!   memory accesses and other side effects.
//! * **Divergent control flow** (any CFG): blocks are laid out in a
//!   loop-contiguous topological order, each with a mask of the lanes
//!   waiting for it. A block runs only when its mask is not empty (one mask
//!   test and a branch), routes its lanes to its successors' masks (a
//!   uniform condition routes them with a real branch), and a loop's blocks
//!   run again while any lane waits at its header — or, for an irreducible
//!   loop, at any of its blocks (lanes may enter it at different blocks), so
//!   every CFG runs without duplicating code. Values that cross blocks live
//!   in slots; a value defined in a loop whose exit diverges is blended per
//!   lane, so each lane keeps the value of its own last iteration.
//! * **Barriers** arrive as suspend points (`split_barriers` ran in the
//!   pass pipeline): the gang function stops there, returning the resume
//!   point's number, with only the resume block's parameters (and, when
//!   linearized, the lanes waiting there) stored in the gang's state, which
//!   also holds private arrays; the work-group function calls every gang
//!   again at that point once all have arrived. Everything else lives in
//!   allocas (registers) for one call.

mod llvm;
mod ops;
mod private;

use std::collections::HashMap;

use cranelift_entity::SecondaryMap;
use llvm_sys::prelude::LLVMBasicBlockRef;
use lockstep_ir::{self as ir, Block, FuncId, InstData, Value, ValueDef};
use lockstep_passes::analysis::{loop_contiguous_order, Shape, Uniformity, UniformityConfig};
use lockstep_passes::pipeline::Pass;

use crate::report::Report;
use crate::CodegenError;
use llvm::{Llvm, T, V};

/// What a kernel is specialized on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    /// The work-group size the code runs (each dimension ≥ 1).
    pub local_size: [u32; 3],
    /// Work-items per gang: 4, 8, 16 or 32.
    pub width: u32,
    /// How divergent control flow is linearized.
    pub linearization: Linearization,
}

impl Spec {
    /// A specialization with the default linearization.
    pub fn new(local_size: [u32; 3], width: u32) -> Spec {
        Spec {
            local_size,
            width,
            linearization: Linearization::default(),
        }
    }
}

/// How a kernel with divergent control flow keeps track of which lanes wait
/// for which block. Every scheme runs every CFG (irreducible ones included)
/// over the same loop-contiguous block order without duplicating code.
/// The default is the `linearize` pass's gang-level IR, which this module
/// only translates; `Masks` and `BlockIp` are the emitter's own
/// linearizations, kept for comparison until block-IP is a pass too.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Linearization {
    /// The measured default (see [`Linearization::resolve`]).
    #[default]
    Auto,
    /// The emitter's per-block masks: each block tests its mask (kept in
    /// memory) and is skipped when it is empty; a loop's end tests whether
    /// lanes wait at its header (any block, for an irreducible loop).
    Masks,
    /// The emitter's block-IP scheme: one block number per lane; after
    /// each block the gang goes to the smallest number any lane waits for,
    /// forward past every block no lane needs, or back to a loop's block.
    BlockIp,
    /// Per-block masks as the `linearize` pass writes them in gang-level
    /// IR (masks are SSA values), translated instruction by instruction.
    GangIr,
}

impl Linearization {
    /// The scheme a kernel uses. `Auto` is the `linearize` pass's gang-level
    /// IR: against the emitter's masks (lockstep-bench, best of 10, two
    /// interleaved runs each, AVX-512 at width 16) it took 54.6 vs 84.7 ms
    /// on mandelbrot, 53.0 vs 59.2 on AO, 272 vs 301 on the goto parser,
    /// 391 vs 439 on its irreducible variant, 12.2 vs 13.6 on sobel, and
    /// the same within noise on scan, reduction, histogram and bitonic
    /// (masks as SSA values instead of memory, blends only where a value
    /// leaves a divergent loop). The emitter's masks were themselves
    /// measured ahead of its block-IP (269 vs 338 ms on mandelbrot with one
    /// worker; block-IP 1.04x the time on random fuzz kernels).
    pub fn resolve(self) -> Linearization {
        match self {
            Linearization::Auto => Linearization::GangIr,
            chosen => chosen,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Linearization::Auto => "auto",
            Linearization::Masks => "masks",
            Linearization::BlockIp => "block-ip",
            Linearization::GangIr => "gang-ir",
        }
    }
}

impl std::str::FromStr for Linearization {
    type Err = String;
    fn from_str(s: &str) -> Result<Linearization, String> {
        match s {
            "auto" => Ok(Linearization::Auto),
            "masks" => Ok(Linearization::Masks),
            "block-ip" => Ok(Linearization::BlockIp),
            "gang-ir" => Ok(Linearization::GangIr),
            other => Err(format!(
                "unknown linearization '{other}' (use auto, masks, block-ip or gang-ir)"
            )),
        }
    }
}

/// Where the lanes of a linearized kernel wait (see [`Linearization`]).
enum Waiting {
    /// Per block but the entry: the gang memory of its mask (see
    /// [`Emitter::lanes_i32`]).
    Masks(HashMap<Block, V>),
    /// The gang memory of the `<W x i32>` block numbers: positions in the
    /// block order, the order's length (`position.len()`) for lanes that
    /// are done; and the block that jumps to any block's check.
    BlockIp {
        ip: V,
        position: HashMap<Block, usize>,
        dispatch: LLVMBasicBlockRef,
    },
}

/// Where the kernel's `__local` variables live in a work-group's local memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalLayout {
    /// Byte offset of each local variable.
    pub offsets: Vec<(ir::GlobalId, u64)>,
    /// Bytes the variables take (local arguments follow, 64-byte aligned).
    pub size: u64,
    /// For kernels with barriers: bytes of state each gang keeps between
    /// barriers (in `GroupContext::scratch`); 0 otherwise.
    pub gang_state: u64,
}

/// The resume point a gang function returns when its gang finished.
const DONE: u64 = u32::MAX as u64;

/// The name of the exported work-group function.
pub const WORK_GROUP_FN: &str = "lockstep_work_group";

/// How a value is held.
#[derive(Copy, Clone, Debug)]
pub(crate) enum Repr {
    Scalar(V),
    Vector(V),
}

/// A slot for a value used outside its block (divergent control flow).
#[derive(Copy, Clone)]
struct Slot {
    ptr: V,
    ty: T,
    vector: bool,
    /// Blend the value under the defining block's mask (a varying value
    /// defined in a loop whose exit diverges).
    blend: bool,
    /// For a value uniform (or consecutive) inside a loop whose exit
    /// diverges: a per-lane copy, blended under the block's mask, that uses
    /// after the loop read (each lane sees its own last iteration's value).
    outside: Option<(V, T)>,
}

pub(crate) struct Emitter<'a> {
    pub l: Llvm,
    pub func: &'a ir::Function,
    pub uni: Uniformity,
    pub w: u32,
    pub spec: Spec,
    pub report: Report,
    /// The gang function and its parameters.
    pub f: V,
    pub ctx: V,
    pub gang: V,
    /// `<W x i64>` local linear ids of the gang's lanes.
    pub lin: V,
    /// The lanes active at this point.
    pub mask: V,
    /// The lanes that hold a work-item (the gang function's mask).
    pub gang_mask: V,
    /// Values available everywhere (uniform control flow; entry block values).
    direct: SecondaryMap<Value, Option<Repr>>,
    /// Values available in the block being emitted.
    local: HashMap<Value, Repr>,
    slots: SecondaryMap<Value, Option<Slot>>,
    /// Lane-0 values of consecutive values, where known.
    pub bases: HashMap<Value, V>,
    pub cur_block: Block,
    /// Per stack slot: the gang's private array and the bytes per lane.
    pub stack: SecondaryMap<ir::StackSlot, Option<(V, u64)>>,
    /// Interleaved private arrays and the pointers into them.
    private: private::PrivatePlan,
    /// Each pointer into an interleaved private array: its slot and the
    /// byte offset (scalar or `<W x i64>`) in the lane's view.
    pub private_ptrs: HashMap<Value, (ir::StackSlot, Repr)>,
    pub local_layout: LocalLayout,
    alloca_block: LLVMBasicBlockRef,
    /// Set for kernels with barriers: where the gang's state lives.
    barrier: Option<BarrierMode>,
    /// Kernels with barriers: the block a resumed gang enters for each resume point.
    resume_blocks: HashMap<Block, LLVMBasicBlockRef>,
}

/// Kernels with barriers keep all of a gang's state in memory the work-group
/// function provides, so a gang can stop at a barrier and resume there.
struct BarrierMode {
    /// The gang's state area and the resume point it is called with (0: start).
    state: V,
    resume: V,
    /// Bytes of state allocated so far.
    size: u64,
    /// The resume blocks (targets of `suspend`): resume point `k` is
    /// `blocks[k - 1]`. Their parameters live in the state.
    blocks: Vec<Block>,
    /// In the state: the lanes waiting at the resume block when the gang
    /// suspended (`<W x i32>`, all ones or zero), allocated on first use.
    saved_lanes: Option<V>,
    /// Sizes of LLVM types, by the x86-64 data layout.
    layout: llvm_sys::target::LLVMTargetDataRef,
}

/// Emits `kernel` specialized on `spec` into `module` (an empty LLVM module
/// of `ctx`), and returns the local-memory layout and the report.
pub fn emit_kernel(
    llvm_ctx: llvm_sys::prelude::LLVMContextRef,
    llvm_module: llvm_sys::prelude::LLVMModuleRef,
    module: &ir::Module,
    kernel: FuncId,
    spec: &Spec,
) -> Result<(LocalLayout, Report), CodegenError> {
    let func = &module.functions[kernel];
    let unsupported = |what: String| CodegenError::Unsupported {
        kernel: func.name.clone(),
        construct: what,
    };
    if !matches!(spec.width, 4 | 8 | 16 | 32) {
        return Err(unsupported(format!(
            "SIMD width {} (use 4, 8, 16 or 32)",
            spec.width
        )));
    }
    for (_, inst) in func.insts_in_layout() {
        if let InstData::Call { .. } = &func.insts[inst] {
            return Err(unsupported("a call that was not inlined".into()));
        }
    }
    let config = UniformityConfig {
        local_size: spec.local_size,
        width: spec.width,
    };
    // Up to `split_barriers`; then the `linearize` pass makes gang-level IR,
    // which is translated as it is, unless the kernel has divergent
    // branches and the emitter's own linearization was asked for (the
    // default until the pass's code is as fast: see `Linearization`).
    let ice = |e: lockstep_passes::pipeline::PipelineError| CodegenError::Internal(e.to_string());
    let pipeline_options = lockstep_passes::pipeline::Options {
        stop_after: Some(Pass::SplitBarriers),
        ..Default::default()
    };
    let mut transformed =
        lockstep_passes::pipeline::run(module, func, &config, pipeline_options).map_err(ice)?;
    let mut uni = Uniformity::for_function(&transformed, &config);
    let divergent_source = transformed.layout.iter().any(|&b| uni.is_divergent(b));
    let mut report = Report::new(&func.name, spec);
    report.note_divergence(&transformed, &uni);
    if !divergent_source || spec.linearization.resolve() == Linearization::GangIr {
        if divergent_source {
            report.linearization = Some("per-block masks, by the linearize pass");
        }
        lockstep_passes::pipeline::run_pass(module, &mut transformed, Pass::Linearize, &config)
            .map_err(ice)?;
        uni = Uniformity::for_function(&transformed, &config);
    }
    let func = &transformed;
    let resume_blocks = suspend_targets(func);
    let has_barriers = !resume_blocks.is_empty();
    let divergent = func.layout.iter().any(|&b| uni.is_divergent(b));
    let l = Llvm::new(llvm_ctx, llvm_module);
    let w = spec.width;
    // The gang function: (ctx, gang index, local linear ids, mask).
    let lin_ty = l.vec(l.i64(), w);
    let mask_ty = l.vec(l.i1(), w);
    let gang_ty = if has_barriers {
        l.func_type(
            l.i32(),
            &[l.ptr(), l.i64(), lin_ty, mask_ty, l.ptr(), l.i32()],
        )
    } else {
        l.func_type(l.void(), &[l.ptr(), l.i64(), lin_ty, mask_ty])
    };
    let f = l.add_function("lockstep_gang", gang_ty);
    l.set_internal(f);
    l.add_fn_attr(f, "alwaysinline");
    let alloca_block = l.append_block(f, "allocas");
    let mut e = Emitter {
        func,
        w,
        spec: *spec,
        report,
        f,
        ctx: l.param(f, 0),
        gang: l.param(f, 1),
        lin: l.param(f, 2),
        mask: l.param(f, 3),
        gang_mask: l.param(f, 3),
        direct: SecondaryMap::new(),
        local: HashMap::new(),
        slots: SecondaryMap::new(),
        bases: HashMap::new(),
        cur_block: func
            .entry_block()
            .expect("verified functions have an entry"),
        stack: SecondaryMap::new(),
        private: private::plan(func),
        private_ptrs: HashMap::new(),
        local_layout: layout_locals(module),
        alloca_block,
        resume_blocks: HashMap::new(),
        barrier: has_barriers.then(|| BarrierMode {
            state: l.param(f, 4),
            resume: l.param(f, 5),
            size: 0,
            blocks: resume_blocks,
            saved_lanes: None,
            layout: unsafe {
                llvm_sys::target::LLVMCreateTargetData(
                    c"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128".as_ptr(),
                )
            },
        }),
        uni,
        l,
    };
    e.report.note_shapes(func, &e.uni);
    // What each gang keeps across each suspend point: its arguments.
    for (_, inst) in func.insts_in_layout() {
        if let InstData::Suspend { dest, .. } = &func.insts[inst] {
            let params = &func.blocks[dest.block].params;
            let saved: Vec<(String, u64)> = dest
                .args
                .iter()
                .zip(params)
                .map(|(&v, &p)| {
                    let shape = e.uni.shape(p);
                    let lanes = if shape.is_uniform() { 1 } else { w as u64 };
                    (
                        format!("{v}: {} ({shape})", func.value_type(v)),
                        func.value_type(v).bytes() as u64 * lanes,
                    )
                })
                .collect();
            e.report
                .note_barrier(inst, func.srclocs[inst].map(|l| l.line), saved);
        }
    }
    e.kernel_params();
    e.stack_slots();
    // Gang-level IR branches only on uniform values: it is translated as
    // it stands, whatever the analysis makes of its branches.
    if divergent && func.gang.is_none() {
        e.emit_linearized()?;
    } else {
        e.emit_uniform()?;
    }
    e.emit_work_group_function();
    if let Some(b) = &e.barrier {
        e.local_layout.gang_state = b.size.div_ceil(64) * 64;
        e.report.barriers = b.blocks.len();
        e.report.gang_state = e.local_layout.gang_state;
        unsafe { llvm_sys::target::LLVMDisposeTargetData(b.layout) };
    }
    Ok((e.local_layout.clone(), e.report))
}

/// The host's vector width in bits when SLEEF's vector math is loaded in
/// the JIT (its functions then serve vector math), else `None`.
pub(crate) fn sleef_vector_bits() -> Option<u32> {
    static BITS: std::sync::OnceLock<Option<u32>> = std::sync::OnceLock::new();
    *BITS.get_or_init(|| {
        let jit = crate::backend::Jit::global().ok()?;
        let host = crate::backend::HostTarget::detect().ok()?;
        jit.has_sleef().then(|| host.vector_bits())
    })
}

/// The targets of the `suspend` points of `func`, in layout order: resume
/// point `k` (the gang function's argument) is element `k - 1`.
fn suspend_targets(func: &ir::Function) -> Vec<Block> {
    func.insts_in_layout()
        .filter_map(|(_, inst)| match &func.insts[inst] {
            InstData::Suspend { dest, .. } => Some(dest.block),
            _ => None,
        })
        .collect()
}

fn layout_locals(module: &ir::Module) -> LocalLayout {
    let mut layout = LocalLayout::default();
    for (id, g) in module.globals.iter() {
        if g.space == ir::AddrSpace::Local {
            let align = (g.align as u64).max(64);
            layout.size = layout.size.div_ceil(align) * align;
            layout.offsets.push((id, layout.size));
            layout.size += g.size;
        }
    }
    layout.size = layout.size.div_ceil(64) * 64;
    layout
}

impl<'a> Emitter<'a> {
    pub fn unsupported(&self, what: impl Into<String>) -> CodegenError {
        CodegenError::Unsupported {
            kernel: self.func.name.clone(),
            construct: what.into(),
        }
    }

    pub fn shape(&self, v: Value) -> Shape {
        self.uni.shape(v)
    }

    /// The shape of `v` where it is used in the current block.
    pub fn use_shape(&self, v: Value) -> Shape {
        self.uni.operand_shape(v, self.cur_block)
    }

    /// The LLVM type of an IR scalar type (`i1` in memory is `i8`).
    pub fn ty(&self, t: ir::Type) -> T {
        match t {
            ir::Type::I1 => self.l.i1(),
            ir::Type::I8 => self.l.i8(),
            ir::Type::I16 => self.l.int(16),
            ir::Type::I32 => self.l.i32(),
            ir::Type::I64 => self.l.i64(),
            ir::Type::F16 => self.l.f16(),
            ir::Type::F32 => self.l.f32(),
            ir::Type::F64 => self.l.f64(),
            ir::Type::Ptr(_) => self.l.ptr(),
        }
    }

    pub fn vty(&self, t: ir::Type) -> T {
        self.l.vec(self.ty(t), self.w)
    }

    /// Runs `f` with the builder at the end of the alloca block.
    pub(super) fn in_allocas<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let here = self.l.current_block();
        // Before the block's branch once it has one, else at its end.
        let term = unsafe { llvm_sys::core::LLVMGetBasicBlockTerminator(self.alloca_block) };
        if term.is_null() {
            self.l.position_at_end(self.alloca_block);
        } else {
            unsafe { llvm_sys::core::LLVMPositionBuilderBefore(self.l.builder, term) };
        }
        let r = f(self);
        if !here.is_null() {
            self.l.position_at_end(here);
        }
        r
    }

    /// Memory for a value of type `t` that lives while the gang function
    /// runs: an alloca (a register after LLVM's mem2reg).
    pub(super) fn gang_memory(&mut self, t: T) -> V {
        self.in_allocas(|e| e.l.alloca(t))
    }

    /// Memory for a value of type `t` that survives suspend points: a
    /// place in the gang's state (kernels with barriers only).
    fn state_memory(&mut self, t: T) -> V {
        let b = self.barrier.as_ref().expect("barrier mode");
        // SAFETY: `b.layout` is a live target data of this emitter and `t` a type of its context.
        let (size, align) = unsafe {
            (
                llvm_sys::target::LLVMABISizeOfType(b.layout, t),
                llvm_sys::target::LLVMABIAlignmentOfType(b.layout, t),
            )
        };
        self.state_bytes(size, align.max(16) as u64)
    }

    /// `bytes` of gang memory aligned to `align` that keeps its contents for
    /// the gang's whole run (private arrays): in the state for kernels with
    /// barriers, else an alloca.
    fn gang_bytes(&mut self, bytes: u64, align: u64) -> V {
        match &self.barrier {
            None => {
                self.in_allocas(|e| e.l.alloca_aligned(e.l.array(e.l.i8(), bytes), align as u32))
            }
            Some(_) => self.state_bytes(bytes, align),
        }
    }

    fn state_bytes(&mut self, bytes: u64, align: u64) -> V {
        let b = self.barrier.as_mut().expect("barrier mode");
        let offset = b.size.div_ceil(align) * align;
        b.size = offset + bytes.max(1);
        let state = b.state;
        self.in_allocas(|e| e.l.gep_i8(state, e.l.const_int(e.l.i64(), offset)))
    }

    /// Sets `ptr` (gang memory) to `value` each time the gang function
    /// starts, fresh or resumed.
    fn init_gang_memory(&mut self, ptr: V, value: V) {
        self.in_allocas(|e| e.l.store(value, ptr, 1));
    }

    /// The state's `<W x i32>` of the lanes that wait at the resume block
    /// while the gang is suspended.
    fn saved_lanes(&mut self) -> V {
        if let Some(v) = self.barrier.as_ref().and_then(|b| b.saved_lanes) {
            return v;
        }
        let t = self.lanes_i32();
        let v = self.state_memory(t);
        self.barrier.as_mut().expect("barrier mode").saved_lanes = Some(v);
        v
    }

    // ---- Values ----

    /// Forgets the values (and lane-0 bases) of the previous block: only
    /// values available everywhere carry over.
    fn start_block_values(&mut self) {
        self.local.clear();
        let direct = &self.direct;
        self.bases.retain(|v, _| direct[*v].is_some());
    }

    pub fn define(&mut self, v: Value, r: Repr) {
        self.local.insert(v, r);
    }

    /// The value of `v` as held (loading it from its slot if it crosses blocks).
    pub fn get(&mut self, v: Value) -> Repr {
        if let Some(&r) = self.local.get(&v) {
            return r;
        }
        if let Some(r) = self.direct[v] {
            return r;
        }
        if let Some(slot) = self.slots[v] {
            let r = match slot.outside {
                Some((ptr, ty)) if self.use_shape(v).is_varying() => {
                    Repr::Vector(self.l.load(ty, ptr, 1))
                }
                _ => {
                    let x = self.l.load(slot.ty, slot.ptr, 1);
                    if slot.vector {
                        Repr::Vector(x)
                    } else {
                        Repr::Scalar(x)
                    }
                }
            };
            self.local.insert(v, r);
            return r;
        }
        panic!(
            "codegen: {v} used before it was emitted (in {})",
            self.func.name
        )
    }

    /// `v` as a vector (broadcast if uniform).
    pub fn vector(&mut self, v: Value) -> V {
        match self.get(v) {
            Repr::Vector(x) => x,
            Repr::Scalar(x) => self.l.splat(x, self.w),
        }
    }

    /// `v` as a scalar: the value if uniform, else lane 0 (only meaningful
    /// where the analysis says all lanes agree, or for a consecutive base).
    pub fn scalar(&mut self, v: Value) -> V {
        match self.get(v) {
            Repr::Scalar(x) => x,
            Repr::Vector(x) => {
                if let Some(&b) = self.bases.get(&v) {
                    return b;
                }
                self.l.extract(x, 0)
            }
        }
    }

    /// The lanes of mask `m` as the bits of an `iW` (lane `i` is bit `i`).
    pub fn mask_bits(&self, m: V) -> V {
        self.l.bitcast(m, self.l.int(self.w))
    }

    /// Any lane of `m` set.
    pub fn any(&self, m: V) -> V {
        let bits = self.mask_bits(m);
        self.l.icmp(
            llvm_sys::LLVMIntPredicate::LLVMIntNE,
            bits,
            self.l.const_null(self.l.int(self.w)),
        )
    }

    fn kernel_params(&mut self) {
        let entry = self.func.entry_block().expect("entry");
        let params = self.func.blocks[entry].params.clone();
        self.l.position_at_end(self.alloca_block);
        let args = self.ctx_field_ptr(crate::abi::offsets::ARGS);
        for (i, p) in params.into_iter().enumerate() {
            let ty = self.func.value_type(p);
            let slot = self
                .l
                .gep_i8(args, self.l.const_int(self.l.i64(), 8 * i as u64));
            let bits = self.l.load(self.l.i64(), slot, 8);
            let v = match ty {
                ir::Type::Ptr(ir::AddrSpace::Local) => {
                    let base = self.ctx_field_ptr(crate::abi::offsets::LOCAL_MEM);
                    self.l.gep_i8(base, bits)
                }
                ir::Type::Ptr(_) => {
                    self.l
                        .cast(llvm_sys::LLVMOpcode::LLVMIntToPtr, bits, self.l.ptr())
                }
                t if t.is_float() => {
                    let int = self.l.int(t.bits());
                    let narrow = if t.bits() < 64 {
                        self.l.cast(llvm_sys::LLVMOpcode::LLVMTrunc, bits, int)
                    } else {
                        bits
                    };
                    self.l.bitcast(narrow, self.ty(t))
                }
                ir::Type::I64 => bits,
                t => self
                    .l
                    .cast(llvm_sys::LLVMOpcode::LLVMTrunc, bits, self.ty(t)),
            };
            self.direct[p] = Some(Repr::Scalar(v));
        }
    }

    /// Loads a pointer-sized field of the group context.
    pub fn ctx_field_ptr(&self, offset: u64) -> V {
        let p = self
            .l
            .gep_i8(self.ctx, self.l.const_int(self.l.i64(), offset));
        self.l.load(self.l.ptr(), p, 8)
    }

    /// Loads element `index` of a `[u64; 3]` (or a single `u64`) field.
    pub fn ctx_field_u64(&self, offset: u64, index: u64) -> V {
        let p = self
            .l
            .gep_i8(self.ctx, self.l.const_int(self.l.i64(), offset + 8 * index));
        self.l.load(self.l.i64(), p, 8)
    }

    /// Private arrays: one copy per lane, side by side.
    fn stack_slots(&mut self) {
        let slots: Vec<_> = self.func.stack_slots.iter().map(|(s, d)| (s, *d)).collect();
        for (slot, data) in slots {
            if let Some(e) = self.private.elem[slot] {
                // Interleaved: element i of lane l at (i·W + l)·E.
                let elems = (data.size as u64).div_ceil(e as u64);
                let arr = self.gang_bytes(elems * e as u64 * self.w as u64, 64);
                self.stack[slot] = Some((arr, e as u64));
                self.report.note_private_interleaved(slot, e);
                continue;
            }
            let align = data.align.max(8) as u64;
            let per_lane = (data.size as u64).div_ceil(align) * align;
            let bytes = per_lane * self.w as u64;
            let arr = self.gang_bytes(bytes, align.max(64));
            self.stack[slot] = Some((arr, per_lane));
        }
    }

    // ---- Uniform control flow ----

    fn emit_uniform(&mut self) -> Result<(), CodegenError> {
        let func = self.func;
        // Reverse postorder: a value's block is emitted before its uses.
        let reachable: Vec<Block> = self.uni.cfg().rpo().to_vec();
        let bbs: HashMap<Block, LLVMBasicBlockRef> = reachable
            .iter()
            .map(|&b| (b, self.l.append_block(self.f, &format!("{b}"))))
            .collect();
        let entry = func.entry_block().expect("entry");
        // Phis for block parameters.
        let mut phis: HashMap<Value, V> = HashMap::new();
        for &b in &reachable {
            if b == entry {
                continue;
            }
            self.l.position_at_end(bbs[&b]);
            for &p in &func.blocks[b].params {
                let ty = self.func.value_type(p);
                let t = if self.shape(p).is_uniform() {
                    self.ty(ty)
                } else {
                    self.vty(ty)
                };
                let phi = self.l.phi(t);
                phis.insert(p, phi);
                self.direct[p] = Some(if self.shape(p).is_uniform() {
                    Repr::Scalar(phi)
                } else {
                    Repr::Vector(phi)
                });
            }
        }
        // Kernels with barriers: a resumed gang enters its resume block
        // with the parameters the suspend point kept in the state.
        let mut kept: HashMap<Value, V> = HashMap::new();
        let mut cases = Vec::new();
        let resume_blocks = self.barrier.as_ref().map(|b| b.blocks.clone());
        for (k, &rb) in resume_blocks.iter().flatten().enumerate() {
            let Some(&body) = bbs.get(&rb) else {
                continue;
            };
            let resumed = self.l.append_block(self.f, &format!("{rb}.resume"));
            self.l.position_at_end(resumed);
            for &p in &func.blocks[rb].params {
                let t = self.l.type_of(phis[&p]);
                let slot = self.state_memory(t);
                kept.insert(p, slot);
                let x = self.l.load(t, slot, 1);
                self.l.add_incoming(phis[&p], x, resumed);
            }
            self.l.br(body);
            cases.push((self.l.const_int(self.l.i32(), k as u64 + 1), resumed));
        }
        self.l.position_at_end(self.alloca_block);
        match &self.barrier {
            Some(b) => self.l.switch(b.resume, bbs[&entry], &cases),
            None => self.l.br(bbs[&entry]),
        }
        for &b in &reachable {
            self.cur_block = b;
            self.l.position_at_end(bbs[&b]);
            self.local.clear();
            for &inst in &func.blocks[b].insts {
                let data = &func.insts[inst];
                if data.is_terminator() {
                    break;
                }
                self.emit_inst(inst)?;
                if let Some(r) = func.results[inst] {
                    if let Some(&repr) = self.local.get(&r) {
                        self.direct[r] = Some(repr);
                    }
                }
            }
            let term = func.terminator(b).expect("verified");
            let from = self.l.current_block();
            let incoming = |e: &mut Self, call: &ir::BlockCall| {
                for (&p, &a) in func.blocks[call.block].params.iter().zip(&call.args) {
                    let v = if e.shape(p).is_uniform() {
                        e.scalar(a)
                    } else {
                        e.vector(a)
                    };
                    e.l.add_incoming(phis[&p], v, from);
                }
            };
            match &func.insts[term] {
                InstData::Jump { dest } => {
                    incoming(self, dest);
                    self.l.br(bbs[&dest.block]);
                }
                InstData::Brif {
                    cond,
                    then_dest,
                    else_dest,
                } => {
                    incoming(self, then_dest);
                    incoming(self, else_dest);
                    let c = self.scalar(*cond);
                    self.l
                        .cond_br(c, bbs[&then_dest.block], bbs[&else_dest.block]);
                }
                InstData::Switch {
                    arg,
                    default,
                    cases,
                } => {
                    incoming(self, default);
                    for (_, d) in cases {
                        incoming(self, d);
                    }
                    let x = self.scalar(*arg);
                    let t = self.l.type_of(x);
                    let cases: Vec<(V, LLVMBasicBlockRef)> = cases
                        .iter()
                        .map(|(v, d)| (self.l.const_int(t, *v), bbs[&d.block]))
                        .collect();
                    self.l.switch(x, bbs[&default.block], &cases);
                }
                InstData::Suspend { dest, .. } => {
                    // Keep the resume block's arguments; stop with its number.
                    let params = func.blocks[dest.block].params.clone();
                    for (p, &a) in params.into_iter().zip(&dest.args) {
                        let v = if self.shape(p).is_uniform() {
                            self.scalar(a)
                        } else {
                            self.vector(a)
                        };
                        self.l.store(v, kept[&p], 1);
                    }
                    let k = self.resume_point(dest.block).expect("a resume block");
                    self.ret_resume_point(k as u64);
                }
                InstData::Return { .. } if self.barrier.is_some() => {
                    self.ret_resume_point(DONE);
                }
                InstData::Return { .. } => self.l.ret_void(),
                _ => self.l.unreachable(),
            }
        }
        Ok(())
    }

    /// Kernels with barriers: returns from the gang function with the
    /// resume point where the gang stopped ([`DONE`]: it finished).
    fn ret_resume_point(&self, k: u64) {
        // SAFETY: the builder is positioned in a block of the gang function, which returns i32.
        unsafe { llvm_sys::core::LLVMBuildRet(self.l.builder, self.l.const_int(self.l.i32(), k)) };
    }

    // ---- Divergent control flow ----

    fn emit_linearized(&mut self) -> Result<(), CodegenError> {
        let func = self.func;
        let order = loop_contiguous_order(func, self.uni.cfg(), self.uni.loops());
        let entry = order[0];
        let index: HashMap<Block, usize> = order.iter().enumerate().map(|(i, &b)| (b, i)).collect();
        let mask_ty = self.l.vec(self.l.i1(), self.w);
        let scheme = self.spec.linearization.resolve();
        let waiting = match scheme {
            Linearization::BlockIp => {
                self.report.linearization = Some("block-IP");
                let ip = self.gang_memory(self.lanes_i32());
                let done = self.block_number(order.len());
                self.init_gang_memory(ip, done);
                Waiting::BlockIp {
                    ip,
                    position: index.clone(),
                    dispatch: self.l.append_block(self.f, "dispatch"),
                }
            }
            _ => {
                self.report.linearization = Some("per-block masks");
                let mut slots = HashMap::new();
                let slot_ty = self.lanes_i32();
                for &b in &order[1..] {
                    let s = self.gang_memory(slot_ty);
                    let zero = self.l.const_null(slot_ty);
                    self.init_gang_memory(s, zero);
                    slots.insert(b, s);
                }
                Waiting::Masks(slots)
            }
        };
        self.create_slots(&order);
        let checks: Vec<LLVMBasicBlockRef> = order
            .iter()
            .map(|b| self.l.append_block(self.f, &format!("{b}.check")))
            .collect();
        let exit = self.l.append_block(self.f, "exit");
        let loop_ends = self.loop_ends(&index);
        let exit = self.emit_start(&checks, exit, &order);
        let gang_mask = self.mask;
        for (i, &b) in order.iter().enumerate() {
            self.cur_block = b;
            self.start_block_values();
            let body = self.l.append_block(self.f, &format!("{b}"));
            let after = self.l.append_block(self.f, &format!("{b}.after"));
            self.l.position_at_end(checks[i]);
            let resume_point = self.resume_point(b);
            if b == entry {
                self.mask = gang_mask;
                self.l.br(body);
            } else if let Some(k) = resume_point {
                // Lanes waiting after a barrier: the gang stops here until
                // every gang of the group has arrived, then resumes at `body`.
                // Only the waiting lanes and the block's parameters (in the
                // state) survive; everything else starts afresh on resuming.
                let m = self.waiting_lanes(&waiting, b);
                let any = self.any(m);
                let suspend = self.l.append_block(self.f, &format!("{b}.suspend"));
                self.l.cond_br(any, suspend, after);
                self.l.position_at_end(suspend);
                let saved = self.saved_lanes();
                let lanes = self
                    .l
                    .cast(llvm_sys::LLVMOpcode::LLVMSExt, m, self.lanes_i32());
                self.l.store(lanes, saved, 1);
                self.ret_resume_point(k as u64);
                self.l.position_at_end(self.resume_blocks[&b]);
                let lanes = self.l.load(self.lanes_i32(), saved, 1);
                let resumed = self.l.icmp(
                    llvm_sys::LLVMIntPredicate::LLVMIntNE,
                    lanes,
                    self.l.const_null(self.lanes_i32()),
                );
                self.wait_for(&waiting, Some(b), resumed);
                let m = self.waiting_lanes(&waiting, b);
                let any = self.any(m);
                self.l.cond_br(any, body, after);
                self.l.position_at_end(body);
                self.mask = self.waiting_lanes(&waiting, b);
            } else {
                self.mask = self.waiting_lanes(&waiting, b);
                match waiting {
                    // Block-IP only comes here when a lane waits for `b`.
                    Waiting::BlockIp { .. } => self.l.br(body),
                    Waiting::Masks(_) => {
                        let any = self.any(self.mask);
                        self.l.cond_br(any, body, after);
                    }
                }
            }
            if resume_point.is_none() {
                self.l.position_at_end(body);
            }
            if b != entry {
                if let Waiting::Masks(slots) = &waiting {
                    self.l
                        .store(self.l.const_null(self.lanes_i32()), slots[&b], 1);
                }
                for &p in &func.blocks[b].params {
                    let _ = self.get(p);
                    self.store_outside_copy(p);
                }
            }
            for &inst in &func.blocks[b].insts {
                if func.insts[inst].is_terminator() {
                    break;
                }
                self.emit_inst(inst)?;
                if let Some(r) = func.results[inst] {
                    if b == entry && self.barrier.is_none() {
                        if let Some(&repr) = self.local.get(&r) {
                            self.direct[r] = Some(repr);
                        }
                    }
                    self.store_to_slot(r);
                }
            }
            let term = func.terminator(b).expect("verified");
            self.route_terminator(term, &waiting, after);
            self.l.position_at_end(after);
            match &waiting {
                Waiting::Masks(_) => {
                    // Back edges: repeat each loop ending here while lanes wait at its header.
                    let next = checks.get(i + 1).copied().unwrap_or(exit);
                    for (first, repeat_for) in
                        loop_ends.get(&i).map(|v| v.as_slice()).unwrap_or(&[])
                    {
                        let mut m = self.l.const_null(mask_ty);
                        for &w in repeat_for {
                            let mw = self.waiting_lanes(&waiting, w);
                            m = self.l.or(m, mw);
                        }
                        let again = self.any(m);
                        let cont = self
                            .l
                            .append_block(self.f, &format!("{}.loop_exit", order[*first]));
                        self.l.cond_br(again, checks[*first], cont);
                        self.l.position_at_end(cont);
                    }
                    self.l.br(next);
                }
                Waiting::BlockIp {
                    ip,
                    position,
                    dispatch,
                } => {
                    // Go to the first block any lane waits for: the likely
                    // ones (the successors, the next block, the end) by a
                    // compare each, the others by the table of all blocks.
                    let mut likely: Vec<usize> = self
                        .uni
                        .cfg()
                        .succs(b)
                        .iter()
                        .map(|s| index[s])
                        .chain([i + 1, position.len()])
                        .collect();
                    likely.sort_unstable();
                    likely.dedup();
                    let first = self.first_waiting(*ip);
                    let cases: Vec<_> = likely
                        .iter()
                        .map(|&j| {
                            let target = checks.get(j).copied().unwrap_or(exit);
                            (self.l.const_int(self.l.i32(), j as u64), target)
                        })
                        .collect();
                    self.l.switch(first, *dispatch, &cases);
                }
            }
        }
        if let Waiting::BlockIp { ip, dispatch, .. } = &waiting {
            // The table of all blocks, for jumps to unlikely ones.
            self.l.position_at_end(*dispatch);
            let first = self.first_waiting(*ip);
            let cases: Vec<_> = checks[1..]
                .iter()
                .enumerate()
                .map(|(j, &c)| (self.l.const_int(self.l.i32(), j as u64 + 1), c))
                .collect();
            self.l.switch(first, exit, &cases);
        }
        self.l.position_at_end(exit);
        if self.barrier.is_some() {
            self.ret_resume_point(DONE);
        } else {
            self.l.ret_void();
        }
        self.mask = gang_mask;
        Ok(())
    }

    /// Per-block masks: the loops that end at each position of the block
    /// order (innermost first), with their first position and the blocks
    /// whose waiting lanes make them run again — the header of a reducible
    /// loop, every block of an irreducible one (lanes may wait at any of
    /// its entries).
    fn loop_ends(&self, index: &HashMap<Block, usize>) -> HashMap<usize, Vec<(usize, Vec<Block>)>> {
        let loops = self.uni.loops();
        let mut loop_ends: HashMap<usize, Vec<(usize, Vec<Block>)>> = HashMap::new();
        for lp in loops.loops() {
            let positions: Vec<usize> = loops
                .blocks(lp)
                .iter()
                .filter_map(|b| index.get(b))
                .copied()
                .collect();
            let (Some(&first), Some(&last)) = (positions.iter().min(), positions.iter().max())
            else {
                continue;
            };
            let repeat_for = if loops.is_reducible(lp) {
                vec![loops.header(lp)]
            } else {
                loops
                    .blocks(lp)
                    .iter()
                    .copied()
                    .filter(|b| index.contains_key(b))
                    .collect()
            };
            loop_ends.entry(last).or_default().push((first, repeat_for));
        }
        for ends in loop_ends.values_mut() {
            ends.sort_by_key(|(first, _)| std::cmp::Reverse(*first));
        }
        loop_ends
    }

    /// `<W x i32>`: block-IP's block numbers, and per-block masks, kept
    /// as lanes of all ones or zeros — the form vector compares produce, so
    /// that joining and testing masks needs no packing (an `<8 x i1>` on
    /// AVX2 lives in 16-bit lanes).
    fn lanes_i32(&self) -> T {
        self.l.vec(self.l.i32(), self.w)
    }

    /// Block-IP: a `<W x i32>` of block number `n`.
    fn block_number(&self, n: usize) -> V {
        self.l
            .splat(self.l.const_int(self.l.i32(), n as u64), self.w)
    }

    /// Block-IP: the smallest block number any lane waits for.
    fn first_waiting(&self, ip: V) -> V {
        let ip_ty = self.lanes_i32();
        let ips = self.l.load(ip_ty, ip, 1);
        self.l
            .intrinsic("llvm.vector.reduce.umin", &[ip_ty], &[ips])
    }

    /// The lanes waiting for block `b`.
    fn waiting_lanes(&self, waiting: &Waiting, b: Block) -> V {
        match waiting {
            Waiting::Masks(slots) => {
                let slot_ty = self.lanes_i32();
                let lanes = self.l.load(slot_ty, slots[&b], 1);
                self.l.icmp(
                    llvm_sys::LLVMIntPredicate::LLVMIntNE,
                    lanes,
                    self.l.const_null(slot_ty),
                )
            }
            Waiting::BlockIp { ip, position, .. } => {
                let ip_ty = self.lanes_i32();
                let ips = self.l.load(ip_ty, *ip, 1);
                self.l.icmp(
                    llvm_sys::LLVMIntPredicate::LLVMIntEQ,
                    ips,
                    self.block_number(position[&b]),
                )
            }
        }
    }

    /// Makes the lanes of `m` wait for block `target` (`None`: they are done).
    fn wait_for(&self, waiting: &Waiting, target: Option<Block>, m: V) {
        match waiting {
            Waiting::Masks(slots) => {
                if let Some(t) = target {
                    let slot_ty = self.lanes_i32();
                    let cur = self.l.load(slot_ty, slots[&t], 1);
                    let m = self.l.cast(llvm_sys::LLVMOpcode::LLVMSExt, m, slot_ty);
                    let joined = self.l.or(cur, m);
                    self.l.store(joined, slots[&t], 1);
                }
            }
            Waiting::BlockIp { ip, position, .. } => {
                let n = target.map_or(position.len(), |t| position[&t]);
                let ip_ty = self.lanes_i32();
                let ips = self.l.load(ip_ty, *ip, 1);
                let new = self.l.select(m, self.block_number(n), ips);
                self.l.store(new, *ip, 1);
            }
        }
    }

    /// The resume point number of `b`, if it starts after a barrier.
    fn resume_point(&self, b: Block) -> Option<usize> {
        self.barrier
            .as_ref()?
            .blocks
            .iter()
            .position(|&r| r == b)
            .map(|i| i + 1)
    }

    /// Ends the alloca block: a fresh gang initializes its state and starts
    /// at the first block; a resumed one goes to its resume point.
    fn emit_start(
        &mut self,
        checks: &[LLVMBasicBlockRef],
        exit: LLVMBasicBlockRef,
        order: &[Block],
    ) -> LLVMBasicBlockRef {
        let Some(b) = &self.barrier else {
            self.l.position_at_end(self.alloca_block);
            self.l.br(checks[0]);
            return exit;
        };
        let resume = b.resume;
        let blocks = b.blocks.clone();
        let fresh = self.l.append_block(self.f, "fresh");
        let mut cases = Vec::new();
        for (k, &rb) in blocks.iter().enumerate() {
            if order.contains(&rb) {
                let bb = self.l.append_block(self.f, &format!("{rb}.resume"));
                self.resume_blocks.insert(rb, bb);
                cases.push((self.l.const_int(self.l.i32(), k as u64 + 1), bb));
            }
        }
        self.l.position_at_end(self.alloca_block);
        let is_fresh = self.l.icmp(
            llvm_sys::LLVMIntPredicate::LLVMIntEQ,
            resume,
            self.l.const_int(self.l.i32(), 0),
        );
        let dispatch = self.l.append_block(self.f, "resume");
        self.l.cond_br(is_fresh, fresh, dispatch);
        self.l.position_at_end(fresh);
        self.l.br(checks[0]);
        self.l.position_at_end(dispatch);
        self.l.switch(resume, exit, &cases);
        exit
    }

    /// Slots for block parameters and for values used outside their block.
    fn create_slots(&mut self, order: &[Block]) {
        let func = self.func;
        let entry = order[0];
        let mut used_outside: SecondaryMap<Value, bool> = SecondaryMap::new();
        for &b in order {
            for &inst in &func.blocks[b].insts {
                func.insts[inst].visit_args(|v| {
                    let def_block = match func.values[v].def {
                        ValueDef::Result(i) => func.inst_block[i],
                        ValueDef::Param(pb, _) => Some(pb),
                        ValueDef::Unused => None,
                    };
                    if def_block != Some(b) {
                        used_outside[v] = true;
                    }
                });
            }
        }
        for &b in order {
            let params = if b == entry {
                Vec::new()
            } else {
                func.blocks[b].params.clone()
            };
            let results = func.blocks[b].insts.iter().filter_map(|&i| func.results[i]);
            let candidates: Vec<Value> = params
                .iter()
                .copied()
                .chain(
                    results.filter(|&v| used_outside[v] && (b != entry || self.barrier.is_some())),
                )
                .collect();
            for v in candidates {
                if self.private.pointers.contains(&v) {
                    continue;
                }
                let ty = func.value_type(v);
                let temporal = self.uni.varying_outside(v).is_some();
                let shape = self.shape(v);
                let vector = !shape.is_uniform();
                let t = if vector { self.vty(ty) } else { self.ty(ty) };
                let ptr = if self.resume_point(b).is_some() && params.contains(&v) {
                    self.state_memory(t)
                } else {
                    self.gang_memory(t)
                };
                let blend = temporal && shape.is_varying() && !params.contains(&v);
                let outside = (temporal && !shape.is_varying()).then(|| {
                    let vt = self.vty(ty);
                    (self.gang_memory(vt), vt)
                });
                self.slots[v] = Some(Slot {
                    ptr,
                    ty: t,
                    vector,
                    blend,
                    outside,
                });
            }
        }
    }

    /// After defining `v` in a non-entry block: keep it in its slot.
    fn store_to_slot(&mut self, v: Value) {
        let Some(slot) = self.slots[v] else { return };
        if self.slots[v].is_some() && self.direct[v].is_some() {
            return;
        }
        let x = if slot.vector {
            self.vector(v)
        } else {
            self.scalar(v)
        };
        let x = if slot.blend {
            let old = self.l.load(slot.ty, slot.ptr, 1);
            self.l.select(self.mask, x, old)
        } else {
            x
        };
        self.l.store(x, slot.ptr, 1);
        self.store_outside_copy(v);
    }

    /// Updates the per-lane copy of a value that varies outside its loop.
    fn store_outside_copy(&mut self, v: Value) {
        let Some((ptr, ty)) = self.slots[v].and_then(|s| s.outside) else {
            return;
        };
        let x = match self.local.get(&v).copied() {
            Some(Repr::Vector(x)) => x,
            Some(Repr::Scalar(x)) => self.l.splat(x, self.w),
            None => self.vector(v),
        };
        let old = self.l.load(ty, ptr, 1);
        let blended = self.l.select(self.mask, x, old);
        self.l.store(blended, ptr, 1);
    }

    /// Routes the current block's lanes along its terminator, then branches to `after`.
    fn route_terminator(&mut self, term: ir::Inst, waiting: &Waiting, after: LLVMBasicBlockRef) {
        let func = self.func;
        let m = self.mask;
        match &func.insts[term] {
            InstData::Jump { dest } | InstData::Suspend { dest, .. } => {
                self.route(dest, m, waiting)
            }
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                if self.use_shape(*cond).is_uniform() {
                    // Load the arguments here, where both routes can use them.
                    for &a in then_dest.args.iter().chain(&else_dest.args) {
                        let _ = self.get(a);
                    }
                    let c = self.scalar(*cond);
                    let t = self.l.append_block(self.f, "uniform.then");
                    let f = self.l.append_block(self.f, "uniform.else");
                    self.l.cond_br(c, t, f);
                    self.l.position_at_end(t);
                    self.route(then_dest, m, waiting);
                    self.l.br(after);
                    self.l.position_at_end(f);
                    self.route(else_dest, m, waiting);
                } else {
                    let c = self.vector(*cond);
                    let mt = self.l.and(m, c);
                    let nc = self.l.not(c);
                    let mf = self.l.and(m, nc);
                    self.route(then_dest, mt, waiting);
                    self.route(else_dest, mf, waiting);
                }
            }
            InstData::Switch {
                arg,
                default,
                cases,
            } => {
                let x = self.vector(*arg);
                let t = self.l.elem_type(self.l.type_of(x));
                let mut rest = m;
                for (value, dest) in cases {
                    let k = self.l.splat(self.l.const_int(t, *value), self.w);
                    let hit = self.l.icmp(llvm_sys::LLVMIntPredicate::LLVMIntEQ, x, k);
                    let mc = self.l.and(rest, hit);
                    let not_hit = self.l.not(hit);
                    rest = self.l.and(rest, not_hit);
                    self.route(dest, mc, waiting);
                }
                self.route(default, rest, waiting);
            }
            // Return and unreachable: the lanes are done.
            _ => self.wait_for(waiting, None, m),
        }
        self.l.br(after);
    }

    /// Sends the lanes of `m` to `call.block` with its arguments.
    fn route(&mut self, call: &ir::BlockCall, m: V, waiting: &Waiting) {
        self.wait_for(waiting, Some(call.block), m);
        let params = self.func.blocks[call.block].params.clone();
        for (&p, &a) in params.iter().zip(&call.args) {
            let slot = self.slots[p].expect("block parameters have slots");
            let old = self.l.load(slot.ty, slot.ptr, 1);
            let new = if self.shape(p).is_varying() {
                let x = self.vector(a);
                self.l.select(m, x, old)
            } else {
                let x = if slot.vector {
                    self.vector(a)
                } else {
                    self.scalar(a)
                };
                let any = self.any(m);
                self.l.select(any, x, old)
            };
            self.l.store(new, slot.ptr, 1);
        }
    }

    /// The exported work-group function: runs every gang of one group. With
    /// barriers it runs phases: every gang runs until it stops at a barrier
    /// (or finishes), then every gang resumes there, until all finish.
    fn emit_work_group_function(&mut self) {
        let w = self.w as u64;
        let [lx, ly, lz] = self.spec.local_size.map(|x| x.max(1) as u64);
        let total = lx * ly * lz;
        let gangs = total.div_ceil(w);
        let i64t = self.l.i64();
        let i32t = self.l.i32();
        let wg_ty = self.l.func_type(self.l.void(), &[self.l.ptr()]);
        let wg = self.l.add_function(WORK_GROUP_FN, wg_ty);
        let ctx = self.l.param(wg, 0);
        let entry = self.l.append_block(wg, "entry");
        let phase = self.l.append_block(wg, "phase");
        let body = self.l.append_block(wg, "gang");
        let phase_end = self.l.append_block(wg, "phase.end");
        let done = self.l.append_block(wg, "done");
        self.l.position_at_end(entry);
        let scratch = {
            let p = self
                .l
                .gep_i8(ctx, self.l.const_int(i64t, crate::abi::offsets::SCRATCH));
            self.l.load(self.l.ptr(), p, 8)
        };
        self.l.br(phase);
        self.l.position_at_end(phase);
        let resume = self.l.phi(i32t);
        self.l
            .add_incoming(resume, self.l.const_int(i32t, 0), entry);
        self.l.br(body);
        self.l.position_at_end(body);
        let g = self.l.phi(i64t);
        self.l.add_incoming(g, self.l.const_int(i64t, 0), phase);
        let base = self.l.mul(g, self.l.const_int(i64t, w));
        let iota: Vec<V> = (0..w).map(|i| self.l.const_int(i64t, i)).collect();
        let lin = self
            .l
            .add(self.l.splat(base, self.w), self.l.const_vector(&iota));
        let limit = self.l.splat(self.l.const_int(i64t, total), self.w);
        let mask = self
            .l
            .icmp(llvm_sys::LLVMIntPredicate::LLVMIntULT, lin, limit);
        let (lin_t, mask_t) = (self.l.type_of(lin), self.l.type_of(mask));
        let stopped_at = match &self.barrier {
            None => {
                let gang_ty = self
                    .l
                    .func_type(self.l.void(), &[self.l.ptr(), i64t, lin_t, mask_t]);
                self.l.call(gang_ty, self.f, &[ctx, g, lin, mask]);
                None
            }
            Some(b) => {
                let state_size = b.size.div_ceil(64) * 64;
                let state = self
                    .l
                    .gep_i8(scratch, self.l.mul(g, self.l.const_int(i64t, state_size)));
                let ptr = self.l.ptr();
                let gang_ty = self
                    .l
                    .func_type(i32t, &[ptr, i64t, lin_t, mask_t, ptr, i32t]);
                Some(
                    self.l
                        .call(gang_ty, self.f, &[ctx, g, lin, mask, state, resume]),
                )
            }
        };
        let next = self.l.add(g, self.l.const_int(i64t, 1));
        let more = self.l.icmp(
            llvm_sys::LLVMIntPredicate::LLVMIntULT,
            next,
            self.l.const_int(i64t, gangs),
        );
        self.l.add_incoming(g, next, body);
        self.l.cond_br(more, body, phase_end);
        self.l.position_at_end(phase_end);
        match stopped_at {
            None => self.l.br(done),
            Some(r) => {
                // Every gang stops at the same barrier (OpenCL requires it).
                let finished = self.l.icmp(
                    llvm_sys::LLVMIntPredicate::LLVMIntEQ,
                    r,
                    self.l.const_int(i32t, DONE),
                );
                self.l.add_incoming(resume, r, phase_end);
                self.l.cond_br(finished, done, phase);
            }
        }
        self.l.position_at_end(done);
        self.l.ret_void();
    }
}
