//! Translates one kernel specialization (local size, SIMD width W) into
//! LLVM IR: the work-group function over gangs of W work-items.
//!
//! The pass pipeline decided everything that makes the code SIMD: its
//! output is gang-level IR, whose branches are all uniform, whose masks are
//! values and whose barriers are suspend points. This module translates it
//! an instruction at a time:
//!
//! * uniform values are scalars, per-lane ones `<W x T>` vectors
//!   (consecutive values also keep their lane-0 base for addressing);
//! * the CFG is LLVM's, block parameters become phis;
//! * a predicated memory access, atomic or `printf` acts in its mask's lanes
//!   (`ops.rs`), gang operations become vector reductions and shuffles;
//! * a `suspend` stores its arguments (the resume block's parameters) in the
//!   gang's state and returns the resume point's number; the work-group
//!   function calls every gang again at that point once all have arrived.
//!   The state also holds private arrays; everything else lives in
//!   registers for one call.

mod atomics;
mod check;
mod llvm;
mod math;
mod ops;

use std::collections::HashMap;

use cranelift_entity::SecondaryMap;
use llvm_sys::prelude::LLVMBasicBlockRef;
use lockstep_ir::{self as ir, Block, FuncId, InstData, Value};
use lockstep_passes::analysis::{
    refill_choice, Gathers, Interleaved, Prefetches, Shape, Uniformity, UniformityConfig,
};
use lockstep_passes::pipeline::Pass;

use crate::report::Report;
use crate::CodegenError;
use llvm::{Llvm, T, V};

pub use lockstep_ir::abi::LocalLayout;
pub use lockstep_passes::pipeline::{Linearization, Spec};

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

impl Repr {
    /// The LLVM value, whichever way it is held.
    pub fn value(self) -> V {
        match self {
            Repr::Scalar(v) | Repr::Vector(v) => v,
        }
    }

    /// `v` held the same way as `self`.
    pub fn with_value(self, v: V) -> Repr {
        match self {
            Repr::Scalar(_) => Repr::Scalar(v),
            Repr::Vector(_) => Repr::Vector(v),
        }
    }
}

pub(crate) struct Emitter<'a> {
    pub l: Llvm,
    pub func: &'a ir::Function,
    pub uni: Uniformity,
    /// How per-lane addresses are accessed.
    pub gathers: Gathers,
    /// Stores written together as the interleaving of their values.
    pub interleaved: Interleaved,
    /// Loads in loops to prefetch ahead of, and how far.
    pub prefetches: Prefetches,
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
    /// Values available everywhere: block parameters and the results of
    /// blocks already emitted (a block's values dominate their uses).
    direct: SecondaryMap<Value, Option<Repr>>,
    /// Values available in the block being emitted.
    local: HashMap<Value, Repr>,
    /// Lane-0 values of consecutive values, where known.
    pub bases: HashMap<Value, V>,
    /// Consecutive values whose lane-0 base came through an unsigned
    /// narrowing (`zext`, `band` with a low mask, `ushr`): lanes where the
    /// narrow value wrapped below 0 leave the line, which only lanes outside
    /// an access's mask may do, so an access through them takes its base
    /// from an active lane.
    pub inexact_bases: std::collections::HashSet<Value>,
    pub cur_block: Block,
    /// Per stack slot: the gang's private array and the bytes per lane.
    pub stack: SecondaryMap<ir::StackSlot, Option<(V, u64)>>,
    /// Each pointer into an interleaved private array: its slot and the
    /// byte offset (scalar or `<W x i64>`) in the lane's view.
    pub private_ptrs: HashMap<Value, (ir::StackSlot, Repr)>,
    pub local_layout: LocalLayout,
    alloca_block: LLVMBasicBlockRef,
    /// Lane refill: the `i32` count of work-items `next_item` handed out.
    items_taken: Option<V>,
    /// Set for kernels with barriers: where the gang's state lives.
    barrier: Option<BarrierMode>,
    /// Checked mode (`Spec::checked`): what the access checks need.
    checks: Option<check::Checks>,
    /// Checked mode, a uniform load: whether its address is in bounds (else
    /// it reads zeros instead), set by `check_access` for the next load.
    redirect: Option<V>,
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
    if !matches!(spec.width, 1 | 4 | 8 | 16 | 32) {
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
    // The pass pipeline makes gang-level IR; this module translates it.
    let ice = |e: lockstep_passes::pipeline::PipelineError| CodegenError::Internal(e.to_string());
    let mut report = Report::new(&func.name, spec);
    let mut observe = |pass: Pass, f: &ir::Function| {
        if pass == Pass::SplitBarriers {
            let uni = Uniformity::for_function(f, &config);
            report.note_divergence(f, &uni, spec.linearization);
            report.refill = refill_choice(f, &config, spec.refill).reason;
        }
    };
    let pipeline_options = lockstep_passes::pipeline::Options {
        settings: spec.settings(),
        observe: Some(&mut observe),
        ..Default::default()
    };
    let transformed =
        lockstep_passes::pipeline::run(module, func, &config, pipeline_options).map_err(ice)?;
    let uni = Uniformity::for_function(&transformed, &config);
    let func = &transformed;
    let resume_blocks = suspend_targets(func);
    let has_barriers = !resume_blocks.is_empty();
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
    let gathers = Gathers::compute(func, |g| module.globals[g].size, spec.small_buffers);

    let mut e = Emitter {
        func,
        gathers,
        interleaved: Interleaved::default(),
        prefetches: Prefetches::default(),
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
        bases: HashMap::new(),
        inexact_bases: Default::default(),
        cur_block: func
            .entry_block()
            .expect("verified functions have an entry"),
        stack: SecondaryMap::new(),
        private_ptrs: HashMap::new(),
        local_layout: layout_locals(module),
        alloca_block,
        items_taken: None,
        checks: spec.checked.then(|| check::Checks::new(func, module)),
        redirect: None,
        barrier: has_barriers.then(|| BarrierMode {
            state: l.param(f, 4),
            resume: l.param(f, 5),
            size: 0,
            blocks: resume_blocks,
            layout: unsafe {
                llvm_sys::target::LLVMCreateTargetData(
                    c"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128".as_ptr(),
                )
            },
        }),
        uni,
        l,
    };
    // Stores written together (checked code checks each store by itself:
    // no groups there); `strided_factor` is the code generator's own rule.
    if !spec.checked {
        let factor = |ptr, ty: ir::Type, block| {
            let shape = e.uni.operand_shape(ptr, block);
            e.strided_factor(shape, ty, false, false)
                .map(|f| f as usize)
        };
        e.interleaved = Interleaved::compute(func, factor);
    }
    e.prefetches = Prefetches::compute(func);
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
    if func.refill {
        e.local_layout.refill = true;
        let counter = e.gang_memory(e.l.i32());
        e.in_allocas(|e| e.l.store(e.l.const_int(e.l.i32(), 0), counter, 4));
        e.items_taken = Some(counter);
    }
    e.emit_blocks()?;
    e.emit_work_group_function();
    e.report.unchecked_accesses = e.checks.as_ref().map(|c| c.unchecked);
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

    /// The alignment of the target's widest vector register, in bytes
    /// (at least 16).
    fn stack_align(&self) -> u32 {
        // A gang's widest value: `w` lanes of 64 bits, at most a register.
        let widest = (self.w as u32).saturating_mul(8);
        crate::target().map_or(16, |t| (t.vector_bits() / 8).min(widest).max(16))
    }

    /// Whether the target has the AVX-512 extension `feature` for a gang of
    /// this width: 16 lanes of 32 bits fill a zmm register; other widths
    /// need AVX-512VL's narrower forms too.
    pub fn has_avx512(&self, feature: &str) -> bool {
        crate::target()
            .is_ok_and(|t| t.has_feature(feature) && (self.w == 16 || t.has_feature("avx512vl")))
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

    // ---- Values ----

    pub fn define(&mut self, v: Value, r: Repr) {
        self.local.insert(v, r);
    }

    /// The value of `v` as held.
    pub fn get(&mut self, v: Value) -> Repr {
        if let Some(&r) = self.local.get(&v) {
            return r;
        }
        if let Some(r) = self.direct[v] {
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

    /// The lanes of mask `m` as the low bits of an `i64`, for the runtime's
    /// calls.
    pub fn mask_bits_u64(&self, m: V) -> V {
        let bits = self.mask_bits(m);
        self.l
            .cast(llvm_sys::LLVMOpcode::LLVMZExt, bits, self.l.i64())
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
            self.l.set_invariant_load(bits);
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
        self.field_ptr(self.ctx, offset)
    }

    /// Loads a pointer-sized field of the group context `ctx` (the gang
    /// function's, or the work-group function's own parameter). The
    /// context does not change during a call, nor do the arguments.
    fn field_ptr(&self, ctx: V, offset: u64) -> V {
        let p = self.l.gep_i8(ctx, self.l.const_int(self.l.i64(), offset));
        let v = self.l.load(self.l.ptr(), p, 8);
        self.l.set_invariant_load(v);
        v
    }

    /// Loads element `index` of a `[u64; 3]` (or a single `u64`) field.
    pub fn ctx_field_u64(&self, offset: u64, index: u64) -> V {
        let p = self
            .l
            .gep_i8(self.ctx, self.l.const_int(self.l.i64(), offset + 8 * index));
        let v = self.l.load(self.l.i64(), p, 8);
        self.l.set_invariant_load(v);
        v
    }

    /// Private arrays: one copy per lane, side by side.
    fn stack_slots(&mut self) {
        let slots: Vec<_> = self.func.stack_slots.iter().map(|(s, d)| (s, *d)).collect();
        for (slot, data) in slots {
            if let Some(e) = data.interleave {
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

    // ---- Control flow ----

    /// Translates the blocks: gang-level IR branches only on uniform
    /// values, so its CFG is LLVM's, with block parameters as phis.
    fn emit_blocks(&mut self) -> Result<(), CodegenError> {
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
                InstData::Suspend { dest, arriving, .. } => {
                    if let Some(m) = *arriving {
                        let line = func.srclocs[term].map_or(0, |l| l.line);
                        self.stop_unless_all_arrived(m, line);
                    }
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

    /// At a suspend point: if some active lane is not among the `arriving`
    /// ones (barrier divergence, which OpenCL forbids), reports the lanes
    /// to the runtime (`lockstep_rt_barrier_diverged`) and finishes the gang
    /// there, so that no lane runs past the barrier; the launch fails.
    fn stop_unless_all_arrived(&mut self, arriving: Value, line: u32) {
        let arrived = self.vector(arriving);
        let missing = self.l.and(self.gang_mask, self.l.not(arrived));
        let diverged = self.any(missing);
        let report = self.l.append_block(self.f, "barrier.diverged");
        let all_arrived = self.l.append_block(self.f, "barrier.arrived");
        self.l.cond_br(diverged, report, all_arrived);
        self.l.position_at_end(report);
        let sink = self.ctx_field_ptr(crate::abi::offsets::SINK);
        let first_id = self.l.extract(self.lin, 0);
        let args = [
            sink,
            self.ctx,
            self.l.const_int(self.l.i64(), line as u64),
            first_id,
            self.mask_bits_u64(arrived),
            self.mask_bits_u64(self.gang_mask),
        ];
        self.call_barrier_diverged(&args);
        self.ret_resume_point(DONE);
        self.l.position_at_end(all_arrived);
    }

    /// In the work-group function: the gang at `base` stopped at resume
    /// point `r` (or finished: [`DONE`]) where the group's first gang
    /// stopped at `first`. Reports the gang that missed the other's
    /// barrier: this one, or the first one if that one finished.
    fn report_gangs_diverged(&self, ctx: V, r: V, first: V, base: V, mask: V, total: u64) {
        let (i32t, i64t) = (self.l.i32(), self.l.i64());
        let eq = |a: V, k: u64| {
            self.l.icmp(
                llvm_sys::LLVMIntPredicate::LLVMIntEQ,
                a,
                self.l.const_int(i32t, k),
            )
        };
        let first_finished = eq(first, DONE);
        let waited_at = self.l.select(first_finished, r, first);
        // The source line of each resume point's barrier.
        let blocks = self.barrier.as_ref().map_or(&[][..], |b| &b.blocks[..]);
        let mut line = self.l.const_int(i64t, 0);
        for (_, inst) in self.func.insts_in_layout() {
            if let InstData::Suspend { dest, .. } = &self.func.insts[inst] {
                if let Some(k) = blocks.iter().position(|&b| b == dest.block) {
                    let l = self.func.srclocs[inst].map_or(0, |l| l.line);
                    line = self.l.select(
                        eq(waited_at, k as u64 + 1),
                        self.l.const_int(i64t, l as u64),
                        line,
                    );
                }
            }
        }
        let first_gang_bits = (1u64 << total.min(self.w as u64)) - 1;
        let missing = self.l.select(
            first_finished,
            self.l.const_int(i64t, first_gang_bits),
            self.mask_bits_u64(mask),
        );
        let first_id = self
            .l
            .select(first_finished, self.l.const_int(i64t, 0), base);
        let sink = self.field_ptr(ctx, crate::abi::offsets::SINK);
        let zero = self.l.const_int(i64t, 0);
        self.call_barrier_diverged(&[sink, ctx, line, first_id, zero, missing]);
    }

    /// Calls `lockstep_rt_barrier_diverged` (declared once, cold).
    fn call_barrier_diverged(&self, args: &[V; 6]) {
        let (ptr, i64t) = (self.l.ptr(), self.l.i64());
        let name = crate::abi::runtime_symbols::BARRIER_DIVERGED;
        let fty = self
            .l
            .func_type(self.l.void(), &[ptr, ptr, i64t, i64t, i64t, i64t]);
        let f = self.l.get_function(name).unwrap_or_else(|| {
            let f = self.l.add_function(name, fty);
            self.l.add_fn_attr(f, "cold");
            self.l.add_fn_attr(f, "nounwind");
            f
        });
        self.l.call(fty, f, args);
    }

    /// Kernels with barriers: returns from the gang function with the
    /// resume point where the gang stopped ([`DONE`]: it finished).
    fn ret_resume_point(&self, k: u64) {
        // SAFETY: the builder is positioned in a block of the gang function, which returns i32.
        unsafe { llvm_sys::core::LLVMBuildRet(self.l.builder, self.l.const_int(self.l.i32(), k)) };
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

    /// The exported work-group function: runs every gang of one group. With
    /// barriers it runs phases: every gang runs until it stops at a barrier
    /// (or finishes), then every gang resumes there, until all finish.
    fn emit_work_group_function(&mut self) {
        let w = self.w as u64;
        let [lx, ly, lz] = self.spec.local_size.map(|x| x.max(1) as u64);
        let total = lx * ly * lz;
        // With lane refill one gang runs the call's work-groups, its lanes
        // taking work-items with `next_item`: every lane starts active.
        let refill = self.func.refill;
        let (total, gangs) = if refill {
            (w, 1)
        } else {
            (total, total.div_ceil(w))
        };
        let i64t = self.l.i64();
        let i32t = self.l.i32();
        let wg_ty = self.l.func_type(self.l.void(), &[self.l.ptr()]);
        let wg = self.l.add_function(WORK_GROUP_FN, wg_ty);
        // Its frame aligned for the widest vector: the caller's stack is
        // only 16-byte aligned, and a vector spilled across two cache
        // lines costs a split store and load each gang (Black-Scholes at
        // width 32 on AVX-512: 12 ms with the worker's stack at one
        // offset, 8.6 at another).
        // (Not for a gang whose values fit the ABI's 16 bytes: realigning
        // takes a register for the frame pointer.)
        if self.stack_align() > 16 {
            self.l
                .add_fn_attr_value(wg, "alignstack", u64::from(self.stack_align()));
        }
        let ctx = self.l.param(wg, 0);
        let entry = self.l.append_block(wg, "entry");
        let phase = self.l.append_block(wg, "phase");
        let body = self.l.append_block(wg, "gang");
        let phase_end = self.l.append_block(wg, "phase.end");
        let done = self.l.append_block(wg, "done");
        self.l.position_at_end(entry);
        let scratch = self.field_ptr(ctx, crate::abi::offsets::SCRATCH);
        self.l.br(phase);
        self.l.position_at_end(phase);
        let resume = self.l.phi(i32t);
        self.l
            .add_incoming(resume, self.l.const_int(i32t, 0), entry);
        self.l.br(body);
        self.l.position_at_end(body);
        let g = self.l.phi(i64t);
        self.l.add_incoming(g, self.l.const_int(i64t, 0), phase);
        // Kernels with barriers: where the group's first gang stopped.
        let first = self.barrier.is_some().then(|| {
            let first = self.l.phi(i32t);
            self.l
                .add_incoming(first, self.l.const_int(i32t, DONE), phase);
            first
        });
        let base = self.l.mul(g, self.l.const_int(i64t, w));
        let iota: Vec<V> = (0..w).map(|i| self.l.const_int(i64t, i)).collect();
        let lin = self
            .l
            .add(self.l.splat(base, self.w), self.l.const_vector(&iota));
        // Every lane holds a work-item when the group fills its gangs: a
        // constant mask, so that LLVM makes masked accesses plain ones (a
        // masked store costs many times a plain one on AVX2).
        let mask = if total.is_multiple_of(w) {
            let one = self.l.const_int(self.l.i1(), 1);
            self.l.splat(one, self.w)
        } else {
            let limit = self.l.splat(self.l.const_int(i64t, total), self.w);
            self.l
                .icmp(llvm_sys::LLVMIntPredicate::LLVMIntULT, lin, limit)
        };
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
        // Every gang must stop where the first one did (OpenCL requires all
        // work-items of a group to reach each barrier); one that finished or
        // stopped elsewhere ends the group with a barrier-divergence report.
        let first_stop = stopped_at.zip(first).map(|(r, first)| {
            let is_first = self.l.icmp(
                llvm_sys::LLVMIntPredicate::LLVMIntEQ,
                g,
                self.l.const_int(i64t, 0),
            );
            let first_stop = self.l.select(is_first, r, first);
            let differs = self
                .l
                .icmp(llvm_sys::LLVMIntPredicate::LLVMIntNE, r, first_stop);
            let diverged = self.l.append_block(wg, "gang.diverged");
            let next_gang = self.l.append_block(wg, "gang.next");
            self.l.cond_br(differs, diverged, next_gang);
            self.l.position_at_end(diverged);
            self.report_gangs_diverged(ctx, r, first_stop, base, mask, total);
            self.l.ret_void();
            self.l.position_at_end(next_gang);
            (first, first_stop)
        });
        let next = self.l.add(g, self.l.const_int(i64t, 1));
        let more = self.l.icmp(
            llvm_sys::LLVMIntPredicate::LLVMIntULT,
            next,
            self.l.const_int(i64t, gangs),
        );
        let tail = self.l.current_block();
        self.l.add_incoming(g, next, tail);
        if let Some((first, first_stop)) = first_stop {
            self.l.add_incoming(first, first_stop, tail);
        }
        self.l.cond_br(more, body, phase_end);
        self.l.position_at_end(phase_end);
        match stopped_at {
            None => self.l.br(done),
            Some(r) => {
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
