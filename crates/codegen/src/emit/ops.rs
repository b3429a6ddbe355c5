//! Emission of single instructions: arithmetic and conversions (scalar when
//! the result is uniform, `<W x T>` otherwise), memory accesses chosen by
//! address shape (one scalar access, one vector access, or gather/scatter),
//! atomics lane by lane, work-item queries and `printf`.

use llvm_sys::LLVMIntPredicate::*;
use llvm_sys::LLVMOpcode;
use llvm_sys::LLVMRealPredicate::*;
use lockstep_ir::{
    self as ir, BinaryOp, Collective, Combine, ConvertOp, FloatCC, GangOp, InstData, IntCC,
    Rounding, TernaryOp, Type, UnaryOp, Value, WorkItemQuery,
};
use lockstep_passes::analysis::{ObjectOffset, PlainStore, Shape, StoreGroup};

use super::llvm::{T, V};
use super::{Emitter, Repr};
use crate::abi::{offsets, type_code};
use crate::report::Access;
use crate::CodegenError;

/// Each lane's address for a gather or scatter
/// ([`Emitter::lane_addresses`]).
pub(super) enum LaneAddresses {
    /// The lanes' pointers.
    Pointers(V),
    /// An address in the object, the same in every lane (a scalar
    /// pointer), and each lane's 32-bit byte offset from it.
    Offsets { base: V, offsets: V },
}

impl<'a> Emitter<'a> {
    /// Emits one non-terminator instruction of the current block. A
    /// predicated instruction runs with its mask as the current mask.
    pub(super) fn emit_inst(&mut self, inst: ir::Inst) -> Result<(), CodegenError> {
        let func = self.func;
        match &func.insts[inst] {
            InstData::Predicated { mask, inst: core } => {
                let m = self.vector(*mask);
                let outer = std::mem::replace(&mut self.mask, m);
                let r = self.emit_core(inst, core);
                self.mask = outer;
                r
            }
            data => self.emit_core(inst, data),
        }
    }

    /// Emits `data`, the operation of `inst` (its predicate taken off); in
    /// checked mode a memory access first checks its lanes and runs in
    /// those that pass (`check.rs`).
    ///
    /// A checked access is emitted twice: under its own mask where every
    /// active lane passed (the usual case, so an access whose mask is known
    /// full stays a plain vector load or store), and under the lanes that
    /// passed after a report. One mask for both would be a phi LLVM cannot
    /// see through: every access would become a masked one, which AVX2
    /// pays for dearly (a masked store, a gather lane by lane).
    fn emit_core(&mut self, inst: ir::Inst, data: &InstData) -> Result<(), CodegenError> {
        let Some(lanes) = self.check_access(inst, data) else {
            return self.emit_op(inst, data);
        };
        let redirect = self.redirect.take();
        let result = self.func.results[inst];
        let (clean, reported) = (
            self.l.append_block(self.f, "access.clean"),
            self.l.append_block(self.f, "access.reported"),
        );
        let join = self.l.append_block(self.f, "access.done");
        self.l.cond_br(lanes.clean, clean, reported);
        let mut arms = Vec::with_capacity(2);
        for (block, mask, redirect) in [
            (clean, self.mask, None),
            (reported, lanes.allowed, redirect),
        ] {
            self.l.position_at_end(block);
            let outer = std::mem::replace(&mut self.mask, mask);
            self.redirect = redirect;
            let r = self.emit_op(inst, data);
            self.mask = outer;
            self.redirect = None;
            r?;
            let value = result.and_then(|r| self.local.remove(&r));
            arms.push((value, self.l.current_block()));
            self.l.br(join);
        }
        self.l.position_at_end(join);
        if let (Some(r), (Some(first), _)) = (result, arms[0]) {
            let phi = self.l.phi(self.l.type_of(first.value()));
            for (value, from) in &arms {
                let value = value.expect("both arms define the result");
                self.l.add_incoming(phi, value.value(), *from);
            }
            self.define(r, first.with_value(phi));
        }
        Ok(())
    }

    /// Emits `data`, the operation of `inst`, under the current mask.
    fn emit_op(&mut self, inst: ir::Inst, data: &InstData) -> Result<(), CodegenError> {
        if self.private_inst(inst, data) {
            return Ok(());
        }
        let func = self.func;
        let result = func.results[inst];
        let uniform = result.is_some_and(|r| self.shape(r).is_uniform());
        let rty = result.map(|r| func.value_type(r));
        let repr = match data {
            InstData::Iconst { imm } => {
                let t = self.ty(rty.expect("iconst has a result"));
                let c = if rty == Some(Type::Ptr(ir::AddrSpace::Global))
                    || rty.is_some_and(|t| t.is_ptr())
                {
                    let i = self.l.const_int(self.l.i64(), *imm);
                    unsafe { llvm_sys::core::LLVMConstIntToPtr(i, t) }
                } else {
                    self.l.const_int(t, *imm)
                };
                Some(Repr::Scalar(c))
            }
            // Nothing depends on it (analyses may pick any value): zero,
            // never LLVM's undef or poison, which could reach a branch.
            InstData::Undef => {
                let t = self.ty(rty.expect("undef has a result"));
                Some(Repr::Scalar(self.l.const_null(t)))
            }
            InstData::Fconst { bits } => {
                let t = rty.expect("fconst has a result");
                Some(Repr::Scalar(self.l.const_real_bits(
                    self.ty(t),
                    t.bits(),
                    *bits,
                )))
            }
            InstData::Unary { op, arg } => {
                Some(self.lanewise(uniform, &[*arg], |e, xs| e.unary(*op, xs[0])))
            }
            InstData::Binary { op, args }
                if !uniform
                    && matches!(
                        op,
                        BinaryOp::Udiv | BinaryOp::Urem | BinaryOp::Sdiv | BinaryOp::Srem
                    )
                    && rty.is_some_and(|t| t.bits() == 32)
                    && self.use_shape(args[1]).is_uniform() =>
            {
                let a = self.vector(args[0]);
                let d = self.scalar(args[1]);
                Some(Repr::Vector(self.division_by_uniform(*op, a, d)))
            }
            InstData::Binary { op, args } => {
                Some(self.lanewise(uniform, args, |e, xs| e.binary(*op, xs[0], xs[1])))
            }
            InstData::Ternary { op, args } => {
                let name = match op {
                    TernaryOp::Fma => "llvm.fma",
                    TernaryOp::Fshl => "llvm.fshl",
                    TernaryOp::Fshr => "llvm.fshr",
                };
                Some(self.lanewise(uniform, args, |e, xs| {
                    let t = e.l.type_of(xs[0]);
                    e.l.intrinsic(name, &[t], xs)
                }))
            }
            InstData::Icmp { cond, args } => Some(self.lanewise(uniform, args, |e, xs| {
                e.l.icmp(int_pred(*cond), xs[0], xs[1])
            })),
            InstData::Fcmp { cond, args } => Some(self.lanewise(uniform, args, |e, xs| {
                e.l.fcmp(float_pred(*cond), xs[0], xs[1])
            })),
            // An undefined side: the other, as the uniformity analysis
            // assumes (lanes that would take the undefined side don't care).
            InstData::Select { args: [_, a, b] }
                if self.uni.is_undef(*a) || self.uni.is_undef(*b) =>
            {
                let other = if self.uni.is_undef(*a) { *b } else { *a };
                Some(self.get(other))
            }
            InstData::Select { args } => {
                if uniform {
                    let (c, a, b) = (
                        self.scalar(args[0]),
                        self.scalar(args[1]),
                        self.scalar(args[2]),
                    );
                    Some(Repr::Scalar(self.l.select(c, a, b)))
                } else {
                    let c = match self.get(args[0]) {
                        Repr::Scalar(c) => c,
                        Repr::Vector(c) => c,
                    };
                    let (a, b) = (self.vector(args[1]), self.vector(args[2]));
                    Some(Repr::Vector(self.l.select(c, a, b)))
                }
            }
            InstData::Convert {
                op,
                arg,
                rounding,
                saturate,
            } => {
                let to = rty.expect("conversions have a result");
                let from = func.value_type(*arg);
                Some(self.convert(uniform, *op, *arg, from, to, *rounding, *saturate))
            }
            InstData::PtrAdd { args } => {
                Some(self.lanewise(uniform, args, |e, xs| e.l.gep_i8(xs[0], xs[1])))
            }
            InstData::Load {
                ptr,
                align,
                volatile,
            } => Some(self.load(inst, *ptr, rty.unwrap(), *align, *volatile, uniform)),
            InstData::Store {
                args,
                align,
                volatile,
            } => {
                self.store(inst, args[0], args[1], *align, *volatile);
                None
            }
            InstData::StackAddr { slot } => {
                let (base, per_lane) =
                    self.stack[*slot].expect("stack slots are allocated up front");
                let offsets: Vec<V> = (0..self.w)
                    .map(|l| self.l.const_int(self.l.i64(), l as u64 * per_lane))
                    .collect();
                let offs = self.l.const_vector(&offsets);
                let bases = self.l.splat(base, self.w);
                Some(Repr::Vector(self.l.gep_i8(bases, offs)))
            }
            InstData::GlobalAddr { global } => Some(Repr::Scalar(self.global_address(*global))),
            InstData::MemCopy { args } | InstData::MemSet { args } => {
                self.mem_intrinsic(matches!(data, InstData::MemSet { .. }), *args);
                None
            }
            InstData::AtomicRmw { .. }
            | InstData::AtomicCas { .. }
            | InstData::AtomicLoad { .. }
            | InstData::AtomicStore { .. } => self.atomic(inst, data),
            InstData::Fence { .. } => {
                unsafe {
                    llvm_sys::core::LLVMBuildFence(
                        self.l.builder,
                        llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingSequentiallyConsistent,
                        0,
                        c"".as_ptr(),
                    )
                };
                None
            }
            InstData::WorkItem { query, dim } => {
                Some(self.work_item(*query, *dim, result.unwrap()))
            }
            InstData::Printf { format, args } => Some(self.printf(format, args)),
            InstData::DeviceEnqueue { op, kernel, args } => self.device_enqueue(*op, *kernel, args),
            InstData::NextItem => Some(Repr::Vector(self.next_item()?)),
            InstData::Call { .. } => {
                return Err(self.unsupported("a call that was not inlined"));
            }
            // The pipeline's output is in the split phase: no barrier left.
            InstData::Barrier { .. } => {
                return Err(CodegenError::Internal(
                    "a barrier reached code generation (split_barriers did not run)".into(),
                ));
            }
            InstData::Gang { op, args } => Some(self.gang_op(*op, args)?),
            // Marks for the checked interpreter: the copy is the builtin
            // library's loop before it, the wait its barrier after.
            InstData::AsyncCopied { args, .. } => Some(self.get(args[5])),
            InstData::AsyncWait { .. } => None,
            InstData::Predicated { .. } => {
                return Err(CodegenError::Internal(
                    "a predicated instruction inside a predicated instruction".into(),
                ));
            }
            _ => None,
        };
        if let (Some(r), Some(repr)) = (result, repr) {
            // A uniform result computed from vector operands keeps lane 0.
            let repr = match (repr, self.shape(r).is_uniform()) {
                (Repr::Vector(x), true) => Repr::Scalar(self.l.extract(x, 0)),
                (Repr::Scalar(x), false) => Repr::Vector(self.l.splat(x, self.w)),
                (r, _) => r,
            };
            self.define(r, repr);
            if let (Shape::Consecutive { .. }, Repr::Vector(_)) = (self.shape(r), repr) {
                self.record_base(r, data);
            }
        }
        Ok(())
    }

    /// A gang operation: the lanes of the gang meet.
    fn gang_op(&mut self, op: GangOp, args: &[Value]) -> Result<Repr, CodegenError> {
        let w = self.w;
        Ok(match op {
            GangOp::ActiveLanes => Repr::Vector(self.gang_mask),
            GangOp::LaneId => {
                let lanes: Vec<V> = (0..w as u64)
                    .map(|i| self.l.const_int(self.l.i32(), i))
                    .collect();
                Repr::Vector(self.l.const_vector(&lanes))
            }
            GangOp::Any => {
                let m = self.vector(args[0]);
                Repr::Scalar(self.any(m))
            }
            GangOp::All => {
                let m = self.vector(args[0]);
                let bits = self.mask_bits(m);
                let all = self.l.const_int(self.l.int(w), u64::MAX >> (64 - w));
                Repr::Scalar(
                    self.l
                        .icmp(llvm_sys::LLVMIntPredicate::LLVMIntEQ, bits, all),
                )
            }
            GangOp::FirstLane => {
                // The lowest set bit, W when none: count trailing zeros of
                // the mask bits with bit W set.
                let m = self.vector(args[0]);
                let wide = self.mask_bits_u64(m);
                let stop = self.l.const_int(self.l.i64(), 1 << w);
                let with_stop = self.l.or(wide, stop);
                let no_poison = self.l.const_int(self.l.i1(), 0);
                let tz = self
                    .l
                    .intrinsic("llvm.cttz", &[self.l.i64()], &[with_stop, no_poison]);
                Repr::Scalar(self.l.int_cast(tz, self.l.i32()))
            }
            GangOp::Count => {
                let m = self.vector(args[0]);
                Repr::Scalar(self.count_lanes(m))
            }
            GangOp::Broadcast => match self.get(args[0]) {
                Repr::Scalar(x) => Repr::Scalar(x),
                Repr::Vector(x) => {
                    let k = self.scalar(args[1]);
                    let lanes = self.l.const_int(self.l.i32(), w as u64 - 1);
                    let k = self.l.and(k, lanes);
                    Repr::Scalar(self.l.extract_dyn(x, k))
                }
            },
            GangOp::Shuffle => {
                let x = self.vector(args[0]);
                let k = self.vector(args[1]);
                let lanes = self.l.const_int(self.l.i32(), w as u64 - 1);
                let k = self.l.and(k, self.l.splat(lanes, w));
                let bits = self.func.value_type(args[0]).bits().max(8);
                Repr::Vector(self.shuffle(x, k, bits))
            }
            GangOp::Ballot => {
                let m = self.vector(args[0]);
                let bits = self.mask_bits(m);
                Repr::Scalar(self.l.int_cast(bits, self.l.i32()))
            }
            _ => {
                let Some((kind, combine)) = op.collective() else {
                    return Err(CodegenError::Internal(format!(
                        "unknown gang operation {op}"
                    )));
                };
                let cluster = match args.get(2) {
                    None => None,
                    Some(&c) => Some(self.cluster_size(c)?),
                };
                self.collective(kind, combine, args[0], args[1], cluster)
            }
        })
    }

    /// Each lane of `x` (elements of `bits` bits) takes lane `k` (in
    /// range) of `x`. Within one vector register, lane-by-lane element
    /// moves that LLVM turns into one variable permute (`vpermd`,
    /// `vpermps`, `vpermq`); a gang wider than a register is split into
    /// register-wide parts, each output part permuted from every input
    /// part and the right one selected by the index's high bits (no trip
    /// through memory, which LLVM takes for a permute wider than a
    /// register).
    fn shuffle(&mut self, x: V, k: V, bits: u32) -> V {
        let w = self.w;
        let register = crate::target().map_or(256, |t| t.vector_bits());
        let part = (register / bits).clamp(1, w);
        let permute = |e: &Self, x: V, k: V, n: u32| {
            let mut out = e.l.poison(e.l.type_of(x));
            for lane in 0..n {
                let from = e.l.extract(k, lane);
                let elem = e.l.extract_dyn(x, from);
                out = e.l.insert(out, elem, lane);
            }
            out
        };
        if part >= w {
            return permute(self, x, k, w);
        }
        let parts = w / part;
        let i32t = self.l.i32();
        let lanes_of = |p: u32| -> Vec<u32> { (p * part..(p + 1) * part).collect() };
        let sources: Vec<V> = (0..parts)
            .map(|p| self.l.shuffle(x, x, &lanes_of(p)))
            .collect();
        let low_mask = self.l.splat(self.l.const_int(i32t, part as u64 - 1), part);
        let shift = self
            .l
            .splat(self.l.const_int(i32t, part.trailing_zeros() as u64), part);
        let mut outs = Vec::with_capacity(parts as usize);
        for q in 0..parts {
            let kq = self.l.shuffle(k, k, &lanes_of(q));
            let low = self.l.and(kq, low_mask);
            let high = self.l.lshr(kq, shift);
            let mut acc = permute(self, sources[0], low, part);
            for (p, &src) in sources.iter().enumerate().skip(1) {
                let from_p = permute(self, src, low, part);
                let pv = self.l.splat(self.l.const_int(i32t, p as u64), part);
                let here = self.l.icmp(llvm_sys::LLVMIntPredicate::LLVMIntEQ, high, pv);
                acc = self.l.select(here, from_p, acc);
            }
            outs.push(acc);
        }
        // Concatenate the parts, pairwise.
        while outs.len() > 1 {
            let n = self.l.vec_len(outs[0]);
            let both: Vec<u32> = (0..2 * n).collect();
            outs = outs
                .chunks(2)
                .map(|pair| self.l.shuffle(pair[0], pair[1], &both))
                .collect();
        }
        outs[0]
    }

    /// The constant cluster size of a clustered reduction.
    fn cluster_size(&self, c: Value) -> Result<u32, CodegenError> {
        match self.func.values[c].def {
            ir::ValueDef::Result(i) => match self.func.insts[i] {
                // A cluster of the gang's width or more is the whole gang.
                InstData::Iconst { imm } if imm.is_power_of_two() => {
                    Ok(imm.min(self.w as u64) as u32)
                }
                _ => Err(CodegenError::Internal(format!(
                    "the cluster size {c} is not a power of two"
                ))),
            },
            _ => Err(CodegenError::Internal(format!(
                "the cluster size {c} is not a constant"
            ))),
        }
    }

    /// `combine` on two values (scalars or vectors) of the IR type `ty`,
    /// lane by lane.
    fn combine(&mut self, combine: Combine, ty: Type, a: V, b: V) -> V {
        let op = combine.binary_op(ty.is_float());
        self.binary(op, a, b)
    }

    /// A reduction or scan of `v` over the lanes of `m` (see `GangOp` for
    /// the order of operations): lanes outside `m` take the identity; an
    /// unclustered reduction is one `llvm.vector.reduce.*` (float sums and
    /// products ordered, from the identity), a clustered one a butterfly
    /// of log2(c) shuffles, a scan log2(W) steps of shifting the vector up
    /// by 1, 2, 4, … lanes (the identity shifted in) and combining.
    fn collective(
        &mut self,
        kind: Collective,
        combine: Combine,
        v: Value,
        m: Value,
        cluster: Option<u32>,
    ) -> Repr {
        let ty = self.func.value_type(v);
        let t = self.ty(ty);
        let bits = combine.identity(ty);
        let identity = if ty.is_float() {
            self.l.const_real_bits(t, ty.bits(), bits)
        } else {
            self.l.const_int(t, bits)
        };
        let w = self.w;
        let x = self.vector(v);
        let mask = self.vector(m);
        let ids = self.l.splat(identity, w);
        let mut x = self.l.select(mask, x, ids);
        match (kind, cluster) {
            (Collective::Reduce, None) => {
                let name = match (combine, ty.is_float()) {
                    (Combine::Add, true) => "fadd",
                    (Combine::Mul, true) => "fmul",
                    (Combine::Add, false) => "add",
                    (Combine::Mul, false) => "mul",
                    (Combine::Smin, _) => "smin",
                    (Combine::Smax, _) => "smax",
                    (Combine::Umin, _) => "umin",
                    (Combine::Umax, _) => "umax",
                    (Combine::Fmin, _) => "fmin",
                    (Combine::Fmax, _) => "fmax",
                    (Combine::And, _) => "and",
                    (Combine::Or, _) => "or",
                    (Combine::Xor, _) => "xor",
                };
                let vt = self.l.type_of(x);
                let intrinsic = format!("llvm.vector.reduce.{name}");
                Repr::Scalar(if matches!(name, "fadd" | "fmul") {
                    self.l.intrinsic(&intrinsic, &[vt], &[identity, x])
                } else {
                    self.l.intrinsic(&intrinsic, &[vt], &[x])
                })
            }
            (Collective::Reduce, Some(c)) => {
                let mut s = 1;
                while s < c {
                    let lanes: Vec<u32> = (0..w).map(|l| l ^ s).collect();
                    let partner = self.l.shuffle(x, x, &lanes);
                    x = self.combine(combine, ty, x, partner);
                    s *= 2;
                }
                Repr::Vector(x)
            }
            (_, _) => {
                Repr::Vector(self.scan_lanes(combine, ty, x, ids, kind == Collective::ScanExcl))
            }
        }
    }

    /// The scan of the lanes of `x` (`ty` elements) by `combine`, inclusive
    /// or `exclusive`: log2(W) steps of shifting the vector up by 1, 2, 4,
    /// … lanes (the identity `ids` shifted in) and combining.
    pub(super) fn scan_lanes(
        &mut self,
        combine: Combine,
        ty: Type,
        mut x: V,
        ids: V,
        exclusive: bool,
    ) -> V {
        let w = self.w;
        let mut d = 1;
        while d < w {
            // Lane l takes lane l - d, or the identity (lane W of the
            // second operand) below d.
            let lanes: Vec<u32> = (0..w).map(|l| if l >= d { l - d } else { w }).collect();
            let below = self.l.shuffle(x, ids, &lanes);
            x = self.combine(combine, ty, below, x);
            d *= 2;
        }
        if exclusive {
            let lanes: Vec<u32> = (0..w).map(|l| if l >= 1 { l - 1 } else { w }).collect();
            x = self.l.shuffle(x, ids, &lanes);
        }
        x
    }

    /// The number of lanes set in the mask `m`, as an `i32`.
    fn count_lanes(&self, m: V) -> V {
        let bits = self.mask_bits(m);
        let t = self.l.type_of(bits);
        let n = self.l.intrinsic("llvm.ctpop", &[t], &[bits]);
        self.l.int_cast(n, self.l.i32())
    }

    /// `next_item` in the lanes of the current mask: each takes the next
    /// work-item of the call's range in lane order, -1 once all are taken.
    /// A lane's place among the set lanes is an expanding load of 0, 1, 2, …
    /// with AVX-512 (`vpexpandd`), else the population count of the set
    /// lanes below it.
    fn next_item(&mut self) -> Result<V, CodegenError> {
        let counter = self.items_taken.ok_or_else(|| {
            CodegenError::Internal("next_item in a kernel without lane refill".into())
        })?;
        let w = self.w;
        let i32t = self.l.i32();
        let m = self.mask;
        let expand = crate::target().is_ok_and(|t| t.has_feature("avx512f"));
        let ranks = if expand {
            let iota: Vec<V> = (0..w as u64).map(|i| self.l.const_int(i32t, i)).collect();
            let table = self.private_constant(self.l.const_vector(&iota), "refill.iota");
            let vt = self.l.vec(i32t, w);
            let zero = self.l.const_null(vt);
            self.l
                .intrinsic("llvm.masked.expandload", &[vt], &[table, m, zero])
        } else {
            let bits = self.mask_bits(m);
            let wide = self.l.int_cast(bits, i32t);
            let below: Vec<V> = (0..w as u64)
                .map(|i| self.l.const_int(i32t, (1u64 << i) - 1))
                .collect();
            let lower = self
                .l
                .and(self.l.splat(wide, w), self.l.const_vector(&below));
            let vt = self.l.type_of(lower);
            self.l.intrinsic("llvm.ctpop", &[vt], &[lower])
        };
        let taken = self.l.load(i32t, counter, 4);
        let count = self.count_lanes(m);
        self.l.store(self.l.add(taken, count), counter, 4);
        let items = self.l.add(self.l.splat(taken, w), ranks);
        // The range holds group_count × local size work-items.
        let groups = self.ctx_field_u64(offsets::GROUP_COUNT, 0);
        let groups = self.l.int_cast(groups, i32t);
        let per_group: u64 = self
            .spec
            .local_size
            .iter()
            .map(|&x| x.max(1) as u64)
            .product();
        let limit = self.l.mul(groups, self.l.const_int(i32t, per_group));
        let valid = self.l.icmp(
            llvm_sys::LLVMIntPredicate::LLVMIntULT,
            items,
            self.l.splat(limit, w),
        );
        let none = self.l.splat(self.l.const_int(i32t, u32::MAX as u64), w);
        Ok(self.l.select(valid, items, none))
    }

    /// Instructions on private arrays the `layout_private` pass interleaved:
    /// pointers are kept as byte offsets, accesses compute lane addresses.
    fn private_inst(&mut self, inst: ir::Inst, data: &InstData) -> bool {
        let func = self.func;
        let result = func.results[inst];
        match data {
            InstData::StackAddr { slot } if func.stack_slots[*slot].interleave.is_some() => {
                let zero = self.l.const_int(self.l.i64(), 0);
                self.private_ptrs.insert(
                    result.expect("stack_addr has a result"),
                    (*slot, Repr::Scalar(zero)),
                );
                true
            }
            InstData::PtrAdd { args: [p, off] } if self.private_ptrs.contains_key(p) => {
                let (slot, base) = self.private_ptrs[p];
                let new = match (base, self.use_shape(*off).is_uniform()) {
                    (Repr::Scalar(b), true) => {
                        let o = self.scalar(*off);
                        Repr::Scalar(self.l.add(b, o))
                    }
                    (b, _) => {
                        let b = match b {
                            Repr::Scalar(x) => self.l.splat(x, self.w),
                            Repr::Vector(x) => x,
                        };
                        let o = self.vector(*off);
                        Repr::Vector(self.l.add(b, o))
                    }
                };
                self.private_ptrs
                    .insert(result.expect("ptradd has a result"), (slot, new));
                true
            }
            InstData::Load { ptr, align, .. } if self.private_ptrs.contains_key(ptr) => {
                let ty = func.value_type(result.expect("load has a result"));
                let mt = self.mem_ty(ty);
                let vt = self.vty(mt);
                let (address, vector) = self.private_address(*ptr);
                let v = if vector {
                    self.l.masked_load(vt, address, *align, self.mask)
                } else {
                    self.gather(address, mt, *align, self.mask)
                };
                let access = if vector {
                    Access::Vector
                } else {
                    Access::Gather {
                        shape: Shape::Varying,
                        offsets_32: false,
                        consecutive_test: false,
                    }
                };
                self.report.note_access(inst, "load", access);
                let v = self.mem_as(v, ty);
                self.define(result.expect("load has a result"), Repr::Vector(v));
                true
            }
            InstData::Store {
                args: [value, ptr],
                align,
                ..
            } if self.private_ptrs.contains_key(ptr) => {
                let ty = func.value_type(*value);
                let x = self.vector(*value);
                let x = self.to_mem(x, ty);
                let (address, vector) = self.private_address(*ptr);
                if vector {
                    self.l.masked_store(x, address, *align, self.mask);
                } else {
                    self.scatter(x, address, *align, self.mask);
                }
                let access = if vector {
                    Access::Vector
                } else {
                    Access::Gather {
                        shape: Shape::Varying,
                        offsets_32: false,
                        consecutive_test: false,
                    }
                };
                self.report.note_access(inst, "store", access);
                true
            }
            _ => false,
        }
    }

    /// The lanes' addresses for a pointer into an interleaved private array:
    /// one address (a vector access) when the offset is uniform, else one per lane.
    fn private_address(&mut self, ptr: Value) -> (V, bool) {
        let (slot, offset) = self.private_ptrs[&ptr];
        let (base, elem) = self.stack[slot].expect("stack slots are allocated up front");
        let i64t = self.l.i64();
        let row = elem * self.w as u64;
        match offset {
            Repr::Scalar(o) => {
                let index = self.l.udiv(o, self.l.const_int(i64t, elem));
                let at = self.l.mul(index, self.l.const_int(i64t, row));
                (self.l.gep_i8(base, at), true)
            }
            Repr::Vector(o) => {
                let index = self
                    .l
                    .udiv(o, self.l.splat(self.l.const_int(i64t, elem), self.w));
                let at = self
                    .l
                    .mul(index, self.l.splat(self.l.const_int(i64t, row), self.w));
                let lanes: Vec<V> = (0..self.w)
                    .map(|l| self.l.const_int(i64t, l as u64 * elem))
                    .collect();
                let at = self.l.add(at, self.l.const_vector(&lanes));
                let bases = self.l.splat(base, self.w);
                (self.l.gep_i8(bases, at), false)
            }
        }
    }

    /// Applies `f` to scalars when the result is uniform, else to vectors.
    fn lanewise(
        &mut self,
        uniform: bool,
        args: &[Value],
        f: impl Fn(&mut Self, &[V]) -> V,
    ) -> Repr {
        if uniform {
            let xs: Vec<V> = args.iter().map(|&a| self.scalar(a)).collect();
            Repr::Scalar(f(self, &xs))
        } else {
            let xs: Vec<V> = args.iter().map(|&a| self.vector(a)).collect();
            Repr::Vector(f(self, &xs))
        }
    }

    /// The lane-0 value of a consecutive result, computed on the operands'
    /// bases (so addressing needs no extract).
    fn record_base(&mut self, r: Value, data: &InstData) {
        let base = |e: &mut Self, v: Value| -> V { e.scalar(v) };
        let b = match data {
            InstData::Binary {
                op: BinaryOp::Iadd,
                args,
            } => {
                let (x, y) = (base(self, args[0]), base(self, args[1]));
                Some(self.l.add(x, y))
            }
            InstData::Binary {
                op: BinaryOp::Isub,
                args,
            } => {
                let (x, y) = (base(self, args[0]), base(self, args[1]));
                Some(self.l.sub(x, y))
            }
            InstData::Binary {
                op: BinaryOp::Imul,
                args,
            } => {
                let (x, y) = (base(self, args[0]), base(self, args[1]));
                Some(self.l.mul(x, y))
            }
            InstData::Binary {
                op: op @ (BinaryOp::Ishl | BinaryOp::Sshr | BinaryOp::Ushr),
                args,
            } => {
                let (x, y) = (base(self, args[0]), base(self, args[1]));
                let mask = self.l.const_int(
                    self.l.type_of(y),
                    (self.func.value_type(args[0]).bits() - 1) as u64,
                );
                let y = self.l.and(y, mask);
                Some(match op {
                    BinaryOp::Ishl => self.l.shl(x, y),
                    BinaryOp::Sshr => self.l.ashr(x, y),
                    _ => self.l.lshr(x, y),
                })
            }
            InstData::PtrAdd { args } => {
                let (x, y) = (base(self, args[0]), base(self, args[1]));
                Some(self.l.gep_i8(x, y))
            }
            InstData::Convert {
                op: ConvertOp::Trunc,
                arg,
                ..
            } => {
                let x = base(self, *arg);
                let to = self.ty(self.func.value_type(r));
                Some(self.l.cast(LLVMOpcode::LLVMTrunc, x, to))
            }
            // Extensions and `band` with a low mask are not linear: lanes
            // whose narrow value wrapped (which only inactive lanes may do)
            // leave the line. The base is taken from an active lane.
            InstData::Convert {
                op: ConvertOp::Sext | ConvertOp::Zext,
                ..
            }
            | InstData::Binary {
                op: BinaryOp::Band, ..
            } => self.base_from_active_lane(r),
            _ => None,
        };
        // Unsigned narrowing (a `uint` index that went below 0 in a lane
        // that skips the access) breaks the line; a signed one would have
        // to cross INT_MAX, which the shape analysis already rules out.
        let nonlinear = matches!(
            data,
            InstData::Convert {
                op: ConvertOp::Zext,
                ..
            } | InstData::Binary {
                op: BinaryOp::Band | BinaryOp::Ushr,
                ..
            }
        );
        if nonlinear || data.args().iter().any(|a| self.inexact_bases.contains(a)) {
            self.inexact_bases.insert(r);
        }
        if let Some(b) = b {
            self.bases.insert(r, b);
        }
    }

    /// The address of lane 0 for a consecutive access through `ptr` with
    /// `stride` bytes between lanes, under the current mask: lane 0's own
    /// pointer, unless the pointer's base is inexact (see
    /// `Emitter::inexact_bases`); then the first active lane's pointer
    /// minus its offset.
    fn consecutive_address(&mut self, ptr: Value, stride: i64) -> V {
        if !self.inexact_bases.contains(&ptr) {
            return self.scalar(ptr);
        }
        let x = self.vector(ptr);
        let gang_mask = self.l.param(self.f, 3);
        if self.mask == gang_mask {
            return self.l.extract(x, 0);
        }
        let bits = self.mask_bits(self.mask);
        let no_poison = self.l.const_int(self.l.i1(), 0);
        let k = self
            .l
            .intrinsic("llvm.cttz", &[self.l.int(self.w)], &[bits, no_poison]);
        let k = self.l.cast(LLVMOpcode::LLVMZExt, k, self.l.i64());
        // An empty mask (nothing is accessed) gives k = W: clamp it.
        let last = self.l.const_int(self.l.i64(), self.w as u64 - 1);
        let k = self.l.intrinsic("llvm.umin", &[self.l.i64()], &[k, last]);
        let at_k = self.l.extract_dyn(x, k);
        let offset = self.l.mul(k, self.l.const_int(self.l.i64(), stride as u64));
        self.l.gep_i8(at_k, self.l.neg(offset))
    }

    /// The lane-0 base of consecutive `r`, from the first active lane
    /// `k`: `r[k] - k * stride`. Lane 0 itself serves when the gang's own
    /// mask is in force (a gang's lane 0 always runs).
    fn base_from_active_lane(&mut self, r: Value) -> Option<V> {
        let Shape::Consecutive { stride } = self.shape(r) else {
            return None;
        };
        let Some(Repr::Vector(x)) = self.local.get(&r).copied() else {
            return None;
        };
        let gang_mask = self.l.param(self.f, 3);
        if self.mask == gang_mask {
            return Some(self.l.extract(x, 0));
        }
        let bits = self.mask_bits(self.mask);
        let no_poison = self.l.const_int(self.l.i1(), 0);
        let k = self
            .l
            .intrinsic("llvm.cttz", &[self.l.int(self.w)], &[bits, no_poison]);
        let t = self.l.elem_type(self.l.type_of(x));
        let k = self.l.cast(LLVMOpcode::LLVMZExt, k, self.l.i64());
        // An empty mask (the block does not run) gives k = W: clamp it.
        let last = self.l.const_int(self.l.i64(), self.w as u64 - 1);
        let k = self.l.intrinsic("llvm.umin", &[self.l.i64()], &[k, last]);
        let at_k = self.l.extract_dyn(x, k);
        let kt = self.l.int_cast(k, t);
        let offset = self.l.mul(kt, self.l.const_int(t, stride as u64));
        Some(self.l.sub(at_k, offset))
    }

    fn unary(&mut self, op: UnaryOp, x: V) -> V {
        let t = self.l.type_of(x);
        let i = |e: &mut Self, name: &str| e.l.intrinsic(name, &[t], &[x]);
        match op {
            // `undef` is zero here: nothing to freeze.
            UnaryOp::Freeze => x,
            UnaryOp::Ineg => self.l.neg(x),
            UnaryOp::Bnot => self.l.not(x),
            UnaryOp::Clz | UnaryOp::Ctz => {
                let name = if op == UnaryOp::Clz {
                    "llvm.ctlz"
                } else {
                    "llvm.cttz"
                };
                let f = self.l.const_int(self.l.i1(), 0);
                self.l.intrinsic(name, &[t], &[x, f])
            }
            UnaryOp::Popcount => i(self, "llvm.ctpop"),
            UnaryOp::Bswap => i(self, "llvm.bswap"),
            UnaryOp::Bitreverse => i(self, "llvm.bitreverse"),
            UnaryOp::Iabs => {
                let f = self.l.const_int(self.l.i1(), 0);
                self.l.intrinsic("llvm.abs", &[t], &[x, f])
            }
            UnaryOp::Fneg => self.l.fneg(x),
            UnaryOp::Fabs => i(self, "llvm.fabs"),
            UnaryOp::Sqrt => i(self, "llvm.sqrt"),
            UnaryOp::Rsqrt => {
                let s = i(self, "llvm.sqrt");
                let one = self.float_splat(x, 1.0);
                self.l.fdiv(one, s)
            }
            UnaryOp::Floor => i(self, "llvm.floor"),
            UnaryOp::Ceil => i(self, "llvm.ceil"),
            UnaryOp::Ftrunc => i(self, "llvm.trunc"),
            UnaryOp::Round => i(self, "llvm.round"),
            UnaryOp::Rint => i(self, "llvm.rint"),
            UnaryOp::Exp => self.math1(x, "exp"),
            UnaryOp::Exp2 => self.math1(x, "exp2"),
            UnaryOp::Exp10 => self.math1(x, "exp10"),
            UnaryOp::Expm1 => self.math1(x, "expm1"),
            UnaryOp::Log => self.math1(x, "log"),
            UnaryOp::Log2 => self.math1(x, "log2"),
            UnaryOp::Log10 => self.math1(x, "log10"),
            UnaryOp::Log1p => self.math1(x, "log1p"),
            UnaryOp::Sin => self.math1(x, "sin"),
            UnaryOp::Cos => self.math1(x, "cos"),
            UnaryOp::Tan => self.math1(x, "tan"),
            UnaryOp::Asin => self.math1(x, "asin"),
            UnaryOp::Acos => self.math1(x, "acos"),
            UnaryOp::Atan => self.math1(x, "atan"),
            UnaryOp::Sinh => self.math1(x, "sinh"),
            UnaryOp::Cosh => self.math1(x, "cosh"),
            UnaryOp::Tanh => self.math1(x, "tanh"),
            UnaryOp::Asinh => self.math1(x, "asinh"),
            UnaryOp::Acosh => self.math1(x, "acosh"),
            UnaryOp::Atanh => self.math1(x, "atanh"),
            UnaryOp::Cbrt => self.math1(x, "cbrt"),
            UnaryOp::Erf => self.math1(x, "erf"),
            UnaryOp::Erfc => self.math1(x, "erfc"),
            UnaryOp::Tgamma => self.math1(x, "tgamma"),
            UnaryOp::Lgamma => self.math1(x, "lgamma"),
        }
    }

    fn binary(&mut self, op: BinaryOp, a: V, b: V) -> V {
        let t = self.l.type_of(a);
        let l = &self.l;
        match op {
            BinaryOp::Iadd => l.add(a, b),
            BinaryOp::Isub => l.sub(a, b),
            BinaryOp::Imul => l.mul(a, b),
            BinaryOp::Udiv | BinaryOp::Urem | BinaryOp::Sdiv | BinaryOp::Srem => {
                self.safe_division(op, a, b)
            }
            BinaryOp::Umulhi | BinaryOp::Smulhi => self.mul_hi(op == BinaryOp::Smulhi, a, b),
            BinaryOp::Band => l.and(a, b),
            BinaryOp::Bor => l.or(a, b),
            BinaryOp::Bxor => l.xor(a, b),
            BinaryOp::Ishl | BinaryOp::Ushr | BinaryOp::Sshr => {
                // Shift amounts are taken modulo the width.
                let bits = self.elem_bits(t);
                let m = self.int_splat(a, (bits - 1) as u64);
                let b = self.l.and(b, m);
                match op {
                    BinaryOp::Ishl => self.l.shl(a, b),
                    BinaryOp::Ushr => self.l.lshr(a, b),
                    _ => self.l.ashr(a, b),
                }
            }
            BinaryOp::Rotl => l.intrinsic("llvm.fshl", &[t], &[a, a, b]),
            BinaryOp::Rotr => l.intrinsic("llvm.fshr", &[t], &[a, a, b]),
            BinaryOp::Smin => l.intrinsic("llvm.smin", &[t], &[a, b]),
            BinaryOp::Smax => l.intrinsic("llvm.smax", &[t], &[a, b]),
            BinaryOp::Umin => l.intrinsic("llvm.umin", &[t], &[a, b]),
            BinaryOp::Umax => l.intrinsic("llvm.umax", &[t], &[a, b]),
            BinaryOp::UaddSat => l.intrinsic("llvm.uadd.sat", &[t], &[a, b]),
            BinaryOp::SaddSat => l.intrinsic("llvm.sadd.sat", &[t], &[a, b]),
            BinaryOp::UsubSat => l.intrinsic("llvm.usub.sat", &[t], &[a, b]),
            BinaryOp::SsubSat => l.intrinsic("llvm.ssub.sat", &[t], &[a, b]),
            BinaryOp::Fadd => l.fadd(a, b),
            BinaryOp::Fsub => l.fsub(a, b),
            BinaryOp::Fmul => l.fmul(a, b),
            BinaryOp::Fdiv => l.fdiv(a, b),
            BinaryOp::Frem => self.math2(a, b, "fmod"),
            BinaryOp::Fmin => l.intrinsic("llvm.minnum", &[t], &[a, b]),
            BinaryOp::Fmax => l.intrinsic("llvm.maxnum", &[t], &[a, b]),
            BinaryOp::Copysign => l.intrinsic("llvm.copysign", &[t], &[a, b]),
            BinaryOp::Pow => self.math2(a, b, "pow"),
            BinaryOp::Atan2 => self.math2(a, b, "atan2"),
            BinaryOp::Hypot => self.math2(a, b, "hypot"),
            BinaryOp::Remainder => self.math2(a, b, "remainder"),
        }
    }

    fn elem_bits(&self, t: super::llvm::T) -> u32 {
        let elem = if unsafe { llvm_sys::core::LLVMGetTypeKind(t) }
            == llvm_sys::LLVMTypeKind::LLVMVectorTypeKind
        {
            self.l.elem_type(t)
        } else {
            t
        };
        unsafe { llvm_sys::core::LLVMGetIntTypeWidth(elem) }
    }

    fn int_splat(&self, like: V, value: u64) -> V {
        let t = self.l.type_of(like);
        if self.l.is_vector(like) {
            let c = self.l.const_int(self.l.elem_type(t), value);
            self.l.splat(c, self.w)
        } else {
            self.l.const_int(t, value)
        }
    }

    fn float_splat(&self, like: V, value: f64) -> V {
        let t = self.l.type_of(like);
        let et = if self.l.is_vector(like) {
            self.l.elem_type(t)
        } else {
            t
        };
        let c = unsafe { llvm_sys::core::LLVMConstReal(et, value) };
        if self.l.is_vector(like) {
            self.l.splat(c, self.w)
        } else {
            c
        }
    }

    /// Division that never traps: a zero divisor becomes 1 and `MIN / -1`
    /// becomes a negation (the IR leaves both results unspecified).
    fn safe_division(&mut self, op: BinaryOp, a: V, b: V) -> V {
        let zero = self.int_splat(b, 0);
        let one = self.int_splat(b, 1);
        let is_zero = self.l.icmp(LLVMIntEQ, b, zero);
        let b = self.l.select(is_zero, one, b);
        match op {
            BinaryOp::Udiv | BinaryOp::Urem => self.integer_division(op, a, b),
            _ => {
                let minus_one = self.int_splat(b, u64::MAX);
                let is_m1 = self.l.icmp(LLVMIntEQ, b, minus_one);
                let safe_b = self.l.select(is_m1, one, b);
                let r = self.integer_division(op, a, safe_b);
                if op == BinaryOp::Sdiv {
                    let n = self.l.neg(a);
                    self.l.select(is_m1, n, r)
                } else {
                    self.l.select(is_m1, zero, r)
                }
            }
        }
    }

    /// `a / d` or `a % d` of 32-bit lanes by a divisor `d` the same in
    /// every lane (a scalar), with [`Self::safe_division`]'s results for 0
    /// and -1: a multiplication by a reciprocal computed once for the gang
    /// (Granlund and Montgomery's round-up method, exact for every
    /// dividend and divisor), where the lanes would divide as doubles
    /// (`pc % len` in a bytecode loop: a `vdivpd` chain per step). A signed
    /// division divides the magnitudes and sets the sign. A constant
    /// divisor is left to LLVM.
    fn division_by_uniform(&mut self, op: BinaryOp, a: V, d: V) -> V {
        if unsafe { llvm_sys::core::LLVMIsConstant(d) } != 0 {
            let b = self.l.splat(d, self.w);
            return self.binary(op, a, b);
        }
        let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
        let (i32t, i64t) = (self.l.i32(), self.l.i64());
        let c32 = |e: &Self, x: u64| e.l.const_int(i32t, x);
        let c64 = |e: &Self, x: u64| e.l.const_int(i64t, x);
        // The divisor's magnitude, 0 taken as 1 (and -1 as 1, as a
        // magnitude), and the dividends' magnitudes.
        let negative_d = self.l.icmp(LLVMIntSLT, d, c32(self, 0));
        let magnitude = if signed {
            self.l.select(negative_d, self.l.neg(d), d)
        } else {
            d
        };
        let is_zero = self.l.icmp(LLVMIntEQ, magnitude, c32(self, 0));
        // umax, not a select on is_zero: LLVM then knows the divisor of the
        // reciprocal's division is not 0, and hoists that division out of
        // a loop even from a block that only some iterations run.
        let m_d = self
            .l
            .intrinsic("llvm.umax", &[i32t], &[magnitude, c32(self, 1)]);
        let negative_a = self.l.icmp(LLVMIntSLT, a, self.int_splat(a, 0));
        let n = if signed {
            self.l.select(negative_a, self.l.neg(a), a)
        } else {
            a
        };
        // l = ceil(log2 d); m = floor(2^32 (2^l - d) / d) + 1 (below
        // 2^32); q = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0) with
        // t = mulhi(m, n).
        let below = self.l.sub(m_d, c32(self, 1));
        let zeros = self.l.intrinsic(
            "llvm.ctlz",
            &[i32t],
            &[below, self.l.const_int(self.l.i1(), 0)],
        );
        let l = self.l.sub(c32(self, 32), zeros);
        let l64 = self.l.cast(LLVMOpcode::LLVMZExt, l, i64t);
        let d64 = self.l.cast(LLVMOpcode::LLVMZExt, m_d, i64t);
        let power = self.l.shl(c64(self, 1), l64);
        let excess = self.l.shl(self.l.sub(power, d64), c64(self, 32));
        let m64 = self.l.add(self.l.udiv(excess, d64), c64(self, 1));
        let m = self.l.cast(LLVMOpcode::LLVMTrunc, m64, i32t);
        let sh1 = self.l.intrinsic("llvm.umin", &[i32t], &[l, c32(self, 1)]);
        let sh2 = self.l.sub(l, sh1);
        let t = self.mul_hi(false, n, self.l.splat(m, self.w));
        let half = self.l.lshr(self.l.sub(n, t), self.l.splat(sh1, self.w));
        let mut q = self.l.lshr(self.l.add(t, half), self.l.splat(sh2, self.w));
        if signed {
            let flip = self.l.xor(negative_a, self.l.splat(negative_d, self.w));
            q = self.l.select(flip, self.l.neg(q), q);
        }
        match op {
            BinaryOp::Udiv | BinaryOp::Sdiv => q,
            _ => {
                // The divisor as divided by: 0 taken as 1, -1 kept (the
                // remainder is 0 either way).
                let by = self.l.select(is_zero, c32(self, 1), d);
                let qd = self.l.mul(q, self.l.splat(by, self.w));
                self.l.sub(a, qd)
            }
        }
    }

    /// `a / b` or `a % b` for a divisor that is neither 0 nor (signed) -1.
    /// x86 has no vector integer division: LLVM would divide lane by lane.
    /// Lanes of up to 32 bits divide as doubles instead, which is exact:
    /// the quotient's rounding error is below (a/b)·2^-53 < 2^-21/b, less
    /// than its distance 1/b to the next integer when it is not one, so
    /// truncating gives the integer quotient; the remainder is a - q·b.
    ///
    /// 64-bit lanes divide so too when every active lane's operands fit in
    /// 32 bits (a test at run time; `size_t` ids and sizes divided by a
    /// `uint`, as `get_global_id(0) / block`), else lane by lane.
    ///
    /// A constant divisor is left to LLVM, which divides by shifts or a
    /// multiplication (the refill's `item / local_size`).
    fn integer_division(&mut self, op: BinaryOp, a: V, b: V) -> V {
        let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
        let t = self.l.type_of(a);
        if self.is_constant_divisor(b, self.elem_bits(t)) {
            return self.llvm_division(op, a, b);
        }
        if self.l.is_vector(a) && self.elem_bits(t) == 64 {
            return self.wide_integer_division(op, a, b);
        }
        if !self.l.is_vector(a) || self.elem_bits(t) > 32 {
            return self.llvm_division(op, a, b);
        }
        use llvm_sys::LLVMOpcode::{LLVMFPToSI, LLVMFPToUI, LLVMSIToFP, LLVMUIToFP};
        let dt = self.l.vec(self.l.f64(), self.w);
        let (to_f, to_i) = if signed {
            (LLVMSIToFP, LLVMFPToSI)
        } else {
            (LLVMUIToFP, LLVMFPToUI)
        };
        let af = self.l.cast(to_f, a, dt);
        let bf = self.l.cast(to_f, b, dt);
        let qf = self.l.fdiv(af, bf);
        let q = self.l.cast(to_i, qf, t);
        match op {
            BinaryOp::Udiv | BinaryOp::Sdiv => q,
            _ => {
                let qb = self.l.mul(q, b);
                self.l.sub(a, qb)
            }
        }
    }

    /// True if `b` is a constant LLVM divides by without a division
    /// instruction: any constant of up to 32 bits, a power of two of 64
    /// bits (x86 has no 64-bit multiplication giving the high half of a
    /// vector's lanes).
    fn is_constant_divisor(&self, b: V, bits: u32) -> bool {
        if unsafe { llvm_sys::core::LLVMIsConstant(b) } == 0 {
            return false;
        }
        if bits <= 32 {
            return true;
        }
        let lane = if self.l.is_vector(b) {
            unsafe { llvm_sys::core::LLVMGetAggregateElement(b, 0) }
        } else {
            b
        };
        let splat = !self.l.is_vector(b)
            || (1..self.w)
                .all(|i| unsafe { llvm_sys::core::LLVMGetAggregateElement(b, i) } == lane);
        splat
            && !lane.is_null()
            && !unsafe { llvm_sys::core::LLVMIsAConstantInt(lane) }.is_null()
            && unsafe { llvm_sys::core::LLVMConstIntGetZExtValue(lane) }.is_power_of_two()
    }

    /// LLVM's own division or remainder `op` (lane by lane for vectors on
    /// x86).
    fn llvm_division(&self, op: BinaryOp, a: V, b: V) -> V {
        match op {
            BinaryOp::Udiv => self.l.udiv(a, b),
            BinaryOp::Urem => self.l.urem(a, b),
            BinaryOp::Sdiv => self.l.sdiv(a, b),
            _ => self.l.srem(a, b),
        }
    }

    /// [`Self::integer_division`] of 64-bit lanes: in 32 bits when every
    /// active lane's dividend and every divisor fit (as signed values for a
    /// signed division), lane by lane otherwise.
    fn wide_integer_division(&mut self, op: BinaryOp, a: V, b: V) -> V {
        use llvm_sys::LLVMOpcode::{LLVMSExt, LLVMTrunc, LLVMZExt};
        let signed = matches!(op, BinaryOp::Sdiv | BinaryOp::Srem);
        let t = self.l.type_of(a);
        let narrow_t = self.l.vec(self.l.i32(), self.w);
        let widen = if signed { LLVMSExt } else { LLVMZExt };
        let narrow = |e: &Self, v: V| e.l.cast(LLVMTrunc, v, narrow_t);
        let fits = |e: &Self, v: V| {
            let back = e.l.cast(widen, narrow(e, v), t);
            e.l.icmp(LLVMIntEQ, v, back)
        };
        let a_wide = self.l.and(self.mask, self.l.not(fits(self, a)));
        let b_wide = self.l.not(fits(self, b));
        let wide = self.any(self.l.or(a_wide, b_wide));
        self.if_else(
            wide,
            ["divide.each", "divide.narrow"],
            |e| e.llvm_division(op, a, b),
            |e| {
                let (a32, b32) = (narrow(e, a), narrow(e, b));
                let q32 = e.integer_division(op, a32, b32);
                e.l.cast(widen, q32, t)
            },
        )
    }

    fn mul_hi(&mut self, signed: bool, a: V, b: V) -> V {
        let t = self.l.type_of(a);
        let bits = self.elem_bits(t);
        let wide_e = self.l.int(bits * 2);
        let wide = if self.l.is_vector(a) {
            self.l.vec(wide_e, self.w)
        } else {
            wide_e
        };
        let ext = if signed {
            LLVMOpcode::LLVMSExt
        } else {
            LLVMOpcode::LLVMZExt
        };
        let (x, y) = (self.l.cast(ext, a, wide), self.l.cast(ext, b, wide));
        let p = self.l.mul(x, y);
        let sh = if self.l.is_vector(a) {
            self.l.splat(self.l.const_int(wide_e, bits as u64), self.w)
        } else {
            self.l.const_int(wide_e, bits as u64)
        };
        let hi = self.l.lshr(p, sh);
        self.l.cast(LLVMOpcode::LLVMTrunc, hi, t)
    }

    /// A one-argument math function: inline for `float` vectors where
    /// [`super::math`] has it, else SLEEF for vectors, LLVM's intrinsic for
    /// scalars where it has one, else the C library lane by lane.
    fn math1(&mut self, x: V, name: &str) -> V {
        if self.l.is_vector(x) && self.l.elem_type(self.l.type_of(x)) == self.l.f32() {
            use super::math;
            let inline: Option<fn(&super::llvm::Llvm, math::Isa, V) -> V> = match name {
                "exp" => Some(math::exp_f32),
                "exp2" => Some(math::exp2_f32),
                "exp10" => Some(math::exp10_f32),
                "log" => Some(math::log_f32),
                "log2" => Some(math::log2_f32),
                "log10" => Some(math::log10_f32),
                _ => None,
            };
            if let Some(function) = inline {
                let isa = math::Isa::for_lanes(self.l.vec_len(x));
                return function(&self.l, isa, x);
            }
        }
        if let Some(v) = self.sleef(name, &[x]) {
            return v;
        }
        let t = self.l.type_of(x);
        if !self.l.is_vector(x)
            && matches!(
                name,
                "exp" | "exp2" | "exp10" | "log" | "log2" | "log10" | "sin" | "cos" | "tan"
            )
        {
            return self.l.intrinsic(&format!("llvm.{name}"), &[t], &[x]);
        }
        self.per_lane_libm(name, &[x])
    }

    fn math2(&mut self, a: V, b: V, name: &str) -> V {
        if let Some(v) = self.sleef(name, &[a, b]) {
            return v;
        }
        let t = self.l.type_of(a);
        match name {
            "pow" if !self.l.is_vector(a) => self.l.intrinsic("llvm.pow", &[t], &[a, b]),
            "fmod" if !self.l.is_vector(a) => self.l.frem(a, b),
            _ => self.per_lane_libm(name, &[a, b]),
        }
    }

    /// A vector math function from SLEEF (1-ulp variants) applied to chunks
    /// of the host's vector width; `None` for scalars, f16, or without SLEEF.
    fn sleef(&mut self, name: &str, args: &[V]) -> Option<V> {
        if !self.l.is_vector(args[0]) {
            return None;
        }
        let et = self.l.elem_type(self.l.type_of(args[0]));
        let (letter, elem_bits) = if et == self.l.f32() {
            ("f", 32)
        } else if et == self.l.f64() {
            ("d", 64)
        } else {
            return None;
        };
        let host_bits = super::sleef_vector_bits()?;
        let min_chunk = 128 / elem_bits;
        let chunk = (host_bits / elem_bits).min(self.w).max(min_chunk);
        if !self.w.is_multiple_of(chunk) {
            return None;
        }
        let suffix = match name {
            "hypot" => "_u05",
            "erfc" => "_u15",
            "fmod" | "remainder" => "",
            _ => "_u10",
        };
        let fname = format!("Sleef_{name}{letter}{chunk}{suffix}");
        let ct = self.l.vec(et, chunk);
        let mut parts = Vec::new();
        for start in (0..self.w).step_by(chunk as usize) {
            let pieces: Vec<V> = args.iter().map(|&a| self.lanes(a, start, chunk)).collect();
            let params = vec![ct; pieces.len()];
            parts.push(self.l.call_pure(&fname, ct, &params, &pieces));
        }
        // Concatenate the chunks, pairwise.
        while parts.len() > 1 {
            let n = unsafe { llvm_sys::core::LLVMGetVectorSize(self.l.type_of(parts[0])) } * 2;
            let idx: Vec<V> = (0..n)
                .map(|i| self.l.const_int(self.l.i32(), i as u64))
                .collect();
            let mask = self.l.const_vector(&idx);
            parts = parts
                .chunks(2)
                .map(|pair| unsafe {
                    llvm_sys::core::LLVMBuildShuffleVector(
                        self.l.builder,
                        pair[0],
                        pair[1],
                        mask,
                        c"".as_ptr(),
                    )
                })
                .collect();
        }
        Some(parts[0])
    }

    /// Lanes `start..start + n` of vector `v`.
    fn lanes(&self, v: V, start: u32, n: u32) -> V {
        if start == 0 && n == self.w {
            return v;
        }
        let idx: Vec<V> = (start..start + n)
            .map(|i| self.l.const_int(self.l.i32(), i as u64))
            .collect();
        let mask = self.l.const_vector(&idx);
        let poison = self.l.poison(self.l.type_of(v));
        unsafe {
            llvm_sys::core::LLVMBuildShuffleVector(self.l.builder, v, poison, mask, c"".as_ptr())
        }
    }

    fn per_lane_libm(&mut self, name: &str, args: &[V]) -> V {
        let t = self.l.type_of(args[0]);
        let vector = self.l.is_vector(args[0]);
        let et = if vector { self.l.elem_type(t) } else { t };
        let is_f32 = et == self.l.f32();
        let is_f16 = et == self.l.f16();
        let ct = if is_f16 { self.l.f32() } else { et };
        let cname = match (name, is_f32 || is_f16) {
            ("lgamma", true) => "lgammaf".to_string(),
            (n, true) => format!("{n}f"),
            (n, false) => n.to_string(),
        };
        self.report.note_scalarized_math(&cname, vector);
        let call = |e: &mut Self, xs: &[V]| -> V {
            let xs: Vec<V> = xs
                .iter()
                .map(|&x| {
                    if is_f16 {
                        e.l.cast(LLVMOpcode::LLVMFPExt, x, ct)
                    } else {
                        x
                    }
                })
                .collect();
            let params = vec![ct; xs.len()];
            let r = e.l.call_extern(&cname, ct, &params, &xs);
            if is_f16 {
                e.l.cast(LLVMOpcode::LLVMFPTrunc, r, et)
            } else {
                r
            }
        };
        if !vector {
            return call(self, args);
        }
        let mut out = self.l.poison(t);
        for lane in 0..self.w {
            let xs: Vec<V> = args.iter().map(|&a| self.l.extract(a, lane)).collect();
            let r = call(self, &xs);
            out = self.l.insert(out, r, lane);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn convert(
        &mut self,
        uniform: bool,
        op: ConvertOp,
        arg: Value,
        from: Type,
        to: Type,
        rounding: Rounding,
        saturate: bool,
    ) -> Repr {
        let x = if uniform {
            self.scalar(arg)
        } else {
            self.vector(arg)
        };
        let tt = if uniform { self.ty(to) } else { self.vty(to) };
        let r = match op {
            ConvertOp::Zext => self.l.cast(LLVMOpcode::LLVMZExt, x, tt),
            ConvertOp::Sext => self.l.cast(LLVMOpcode::LLVMSExt, x, tt),
            ConvertOp::Trunc => self.l.cast(LLVMOpcode::LLVMTrunc, x, tt),
            ConvertOp::FpExt => self.l.cast(LLVMOpcode::LLVMFPExt, x, tt),
            ConvertOp::Bitcast => self.l.bitcast(x, tt),
            ConvertOp::PtrToInt => self.l.cast(LLVMOpcode::LLVMPtrToInt, x, tt),
            ConvertOp::IntToPtr => self.l.cast(LLVMOpcode::LLVMIntToPtr, x, tt),
            ConvertOp::AddrSpaceCast => x,
            ConvertOp::FpToSi | ConvertOp::FpToUi => {
                // Round in the requested mode, then convert saturating (what
                // the interpreter does for out-of-range values too).
                let ft = self.l.type_of(x);
                let rounded = match rounding {
                    Rounding::Rtz => x,
                    Rounding::Rte => self.l.intrinsic("llvm.rint", &[ft], &[x]),
                    Rounding::Rtp => self.l.intrinsic("llvm.ceil", &[ft], &[x]),
                    Rounding::Rtn => self.l.intrinsic("llvm.floor", &[ft], &[x]),
                };
                let _ = saturate;
                let name = if op == ConvertOp::FpToSi {
                    "llvm.fptosi.sat"
                } else {
                    "llvm.fptoui.sat"
                };
                self.l.intrinsic(name, &[tt, ft], &[rounded])
            }
            ConvertOp::SiToFp | ConvertOp::UiToFp | ConvertOp::FpTrunc
                if rounding != Rounding::Rte =>
            {
                return self.exact_conversion(uniform, op, x, from, to, rounding, saturate);
            }
            ConvertOp::SiToFp => self.l.cast(LLVMOpcode::LLVMSIToFP, x, tt),
            ConvertOp::UiToFp => self.l.cast(LLVMOpcode::LLVMUIToFP, x, tt),
            ConvertOp::FpTrunc => self.l.cast(LLVMOpcode::LLVMFPTrunc, x, tt),
        };
        if uniform {
            Repr::Scalar(r)
        } else {
            Repr::Vector(r)
        }
    }

    /// Conversions to float with a directed rounding mode: the runtime's
    /// exact conversion, lane by lane (rare in kernels; reported).
    #[allow(clippy::too_many_arguments)]
    fn exact_conversion(
        &mut self,
        uniform: bool,
        op: ConvertOp,
        x: V,
        from: Type,
        to: Type,
        rounding: Rounding,
        saturate: bool,
    ) -> Repr {
        self.report.note_scalarized_conversion(op, rounding);
        let i64t = self.l.i64();
        let i32t = self.l.i32();
        let code = |t: Type| type_code(t) as u64;
        let lanes: Vec<V> = if uniform {
            vec![x]
        } else {
            (0..self.w).map(|l| self.l.extract(x, l)).collect()
        };
        let mut out = Vec::new();
        for lx in lanes {
            let bits = self.to_bits(lx, from);
            let args = [
                bits,
                self.l.const_int(i32t, code(from)),
                self.l.const_int(i32t, code(to)),
                self.l.const_int(i32t, convert_code(op) as u64),
                self.l.const_int(i32t, rounding_code(rounding) as u64),
                self.l.const_int(i32t, saturate as u64),
            ];
            let r = self.l.call_extern(
                crate::abi::runtime_symbols::CONVERT,
                i64t,
                &[i64t, i32t, i32t, i32t, i32t, i32t],
                &args,
            );
            out.push(self.bits_as(r, to));
        }
        if uniform {
            Repr::Scalar(out[0])
        } else {
            let mut v = self.l.poison(self.vty(to));
            for (lane, r) in out.into_iter().enumerate() {
                v = self.l.insert(v, r, lane as u32);
            }
            Repr::Vector(v)
        }
    }

    /// A scalar's bits zero-extended to i64.
    fn to_bits(&self, x: V, t: Type) -> V {
        let i64t = self.l.i64();
        let int = match t {
            Type::Ptr(_) => return self.l.cast(LLVMOpcode::LLVMPtrToInt, x, i64t),
            t if t.is_float() => self.l.bitcast(x, self.l.int(t.bits())),
            _ => x,
        };
        if t.bits() < 64 {
            self.l.cast(LLVMOpcode::LLVMZExt, int, i64t)
        } else {
            int
        }
    }

    fn bits_as(&self, bits: V, t: Type) -> V {
        match t {
            Type::Ptr(_) => self.l.cast(LLVMOpcode::LLVMIntToPtr, bits, self.l.ptr()),
            t => {
                let int = if t.bits() < 64 {
                    self.l
                        .cast(LLVMOpcode::LLVMTrunc, bits, self.l.int(t.bits()))
                } else {
                    bits
                };
                if t.is_float() {
                    self.l.bitcast(int, self.ty(t))
                } else {
                    int
                }
            }
        }
    }

    // ---- Memory ----

    /// The memory type of an IR type (`i1` is a byte).
    fn mem_ty(&self, t: Type) -> Type {
        if t == Type::I1 {
            Type::I8
        } else {
            t
        }
    }

    /// For a load in a loop whose address moves by the same amount each
    /// iteration (`passes::analysis::prefetch`): prefetches the `span`
    /// bytes from `p` where the load will read some iterations from now,
    /// one prefetch per cache line. Global and constant memory only.
    fn prefetch_ahead(&mut self, inst: ir::Inst, ptr: Value, p: V, span: u64) {
        use lockstep_passes::analysis::Step;
        let Some(ahead) = self.prefetches.ahead(inst) else {
            return;
        };
        if !matches!(
            self.func.value_type(ptr).addr_space(),
            Some(lockstep_ir::AddrSpace::Global | lockstep_ir::AddrSpace::Constant)
        ) {
            return;
        }
        let i64t = self.l.i64();
        let step = match ahead.step {
            Step::Const(k) => self.l.const_int(i64t, k as u64),
            Step::Value(v) => {
                let s = self.scalar(v);
                self.l.int_cast(s, i64t)
            }
            // The query again, here: its own place may be later in the loop.
            Step::Query { query, dim, value } => match self.work_item(query, dim, value) {
                Repr::Scalar(s) => s,
                Repr::Vector(v) => self.l.extract(v, 0),
            },
        };
        let step_text = match ahead.step {
            Step::Const(k) => format!("{}", k * ahead.bytes),
            Step::Value(v) => format!("{} x {v}", ahead.bytes),
            Step::Query { query, dim, .. } => format!("{} x {query}({dim})", ahead.bytes),
        };
        self.report.note_prefetch(inst, ahead.iterations, step_text);
        let scale = ahead.bytes.wrapping_mul(ahead.iterations as i64);
        let delta = self.l.mul(step, self.l.const_int(i64t, scale as u64));
        let at = self.l.gep_i8(p, delta);
        let pt = self.l.type_of(at);
        let i32t = self.l.i32();
        let (read, keep, data) = (
            self.l.const_int(i32t, 0),
            self.l.const_int(i32t, 3),
            self.l.const_int(i32t, 1),
        );
        for line in (0..span).step_by(64) {
            let q = self.l.gep_i8(at, self.l.const_int(i64t, line));
            self.l
                .intrinsic("llvm.prefetch", &[pt], &[q, read, keep, data]);
        }
    }

    fn load(
        &mut self,
        inst: ir::Inst,
        ptr: Value,
        ty: Type,
        align: u32,
        volatile: bool,
        uniform_result: bool,
    ) -> Repr {
        let mt = self.mem_ty(ty);
        let shape = self.use_shape(ptr);
        let size = mt.bytes() as i64;
        let (r, access) = if shape.is_uniform() {
            let mut p = self.scalar(ptr);
            if let Some(in_bounds) = self.redirect.take() {
                let zeros = self.zeros();
                p = self.l.select(in_bounds, p, zeros);
            }
            let v = self.l.load(self.ty(mt), p, align);
            if volatile {
                self.l.set_volatile(v);
            }
            let v = self.mem_as(v, ty);
            (
                if uniform_result {
                    Repr::Scalar(v)
                } else {
                    Repr::Vector(self.l.splat(v, self.w))
                },
                Access::Scalar,
            )
        } else if shape == (Shape::Consecutive { stride: size }) && !volatile {
            let p = self.consecutive_address(ptr, size);
            self.prefetch_ahead(inst, ptr, p, size as u64 * self.w as u64);
            let v = self.strided_load(mt, p, align, 1);
            (Repr::Vector(self.mem_as(v, ty)), Access::Vector)
        } else if let Some(factor) = self.strided_factor(shape, mt, volatile, false) {
            let p = self.consecutive_address(ptr, size * factor as i64);
            self.prefetch_ahead(inst, ptr, p, (size * factor as i64) as u64 * self.w as u64);
            let v = self.strided_load(mt, p, align, factor);
            let picks: Vec<u32> = (0..self.w).map(|i| i * factor).collect();
            let v = self.l.shuffle(v, v, &picks);
            (Repr::Vector(self.mem_as(v, ty)), Access::Strided { factor })
        } else {
            let test = self.consecutive_test(ptr, shape, volatile);
            let addrs = self.lane_addresses(ptr);
            let vt = self.vty(mt);
            let mask = self.mask;
            let v = self.unless_consecutive(
                &addrs,
                size as u64,
                test,
                |e, p0| e.l.masked_load(vt, p0, align, mask),
                |e| {
                    if !test {
                        let ps = e.lane_pointers(&addrs);
                        return e.gather(ps, mt, align, mask);
                    }
                    // Lanes that share an address (`sums[i / block]`): one
                    // load for the gang.
                    let (same, p0) = e.same_address(&addrs);
                    e.if_else(
                        same,
                        ["access.one", "access.gather"],
                        |e| {
                            let one = e.l.load(e.ty(mt), p0, align);
                            e.l.splat(one, e.w)
                        },
                        |e| {
                            let ps = e.lane_pointers(&addrs);
                            e.gather(ps, mt, align, mask)
                        },
                    )
                },
            );
            (
                Repr::Vector(self.mem_as(v, ty)),
                self.gather_access(ptr, shape, volatile),
            )
        };
        self.report.note_access(inst, "load", access);
        r
    }

    fn store(&mut self, inst: ir::Inst, value: Value, ptr: Value, align: u32, volatile: bool) {
        if let Some(group) = self.interleaved.group_of(inst).cloned() {
            let factor = group.members.len() as u32;
            if group.last == inst {
                self.interleaved_stores(&group);
            }
            self.report
                .note_access(inst, "store", Access::Interleaved { factor });
            return;
        }
        let access = self.store_access(value, ptr, align, volatile);
        self.report.note_access(inst, "store", access);
    }

    /// Stores `value` at `ptr` under the current mask; returns how.
    /// Whether a masked vector store through `ptr` is a load, a blend and
    /// a plain store: for `__local` memory on hosts without AVX-512 masked
    /// stores at this width (an AVX2 `vmaskmovps` store costs about a dozen
    /// plain ones), outside checked code.
    fn blends_local_stores(&self, ptr: Value) -> bool {
        self.func.value_type(ptr).addr_space() == Some(lockstep_ir::AddrSpace::Local)
            && !self.spec.checked
            && !self.has_avx512("avx512f")
    }

    fn store_access(&mut self, value: Value, ptr: Value, align: u32, volatile: bool) -> Access {
        let ty = self.func.value_type(value);
        let mt = self.mem_ty(ty);
        let shape = self.use_shape(ptr);
        let size = mt.bytes() as i64;
        if shape.is_uniform() {
            // All active lanes write one address: the last active lane wins.
            let p = self.scalar(ptr);
            let v = if self.use_shape(value).is_uniform() {
                self.scalar(value)
            } else {
                let vec = self.vector(value);
                let bits = self.mask_bits(self.mask);
                let wt = self.l.int(self.w);
                let f = self.l.const_int(self.l.i1(), 0);
                let lz = self.l.intrinsic("llvm.ctlz", &[wt], &[bits, f]);
                let last = self.l.sub(self.l.const_int(wt, self.w as u64 - 1), lz);
                let idx = self.l.cast(LLVMOpcode::LLVMZExt, last, self.l.i32());
                unsafe {
                    llvm_sys::core::LLVMBuildExtractElement(self.l.builder, vec, idx, c"".as_ptr())
                }
            };
            let v = self.to_mem(v, ty);
            let any = self.any(self.mask);
            let yes = self.l.append_block(self.f, "store.one");
            let done = self.l.append_block(self.f, "store.done");
            self.l.cond_br(any, yes, done);
            self.l.position_at_end(yes);
            let s = self.l.store(v, p, align);
            if volatile {
                self.l.set_volatile(s);
            }
            self.l.br(done);
            self.l.position_at_end(done);
            Access::Scalar
        } else if shape == (Shape::Consecutive { stride: size }) && !volatile {
            let p = self.consecutive_address(ptr, size);
            let v = self.vector(value);
            let v = self.to_mem(v, ty);
            if self.blends_local_stores(ptr) {
                // Local memory is this worker's alone while the group runs,
                // with guard bytes around it (`abi::LOCAL_GUARD`): the lanes
                // outside the mask write back what they read.
                let old = self.l.load(self.l.type_of(v), p, align);
                let new = self.l.select(self.mask, v, old);
                self.l.store(new, p, align);
            } else {
                self.l.masked_store(v, p, align, self.mask);
            }
            Access::Vector
        } else if let Some(factor) = self.strided_factor(shape, mt, volatile, true) {
            let p = self.consecutive_address(ptr, size * factor as i64);
            let v = self.vector(value);
            let v = self.to_mem(v, ty);
            // Lane i's value at element i * factor; the elements between
            // are masked off (another access's, or nobody's).
            let spread: Vec<u32> = (0..self.w * factor)
                .map(|j| if j % factor == 0 { j / factor } else { 0 })
                .collect();
            let wide = self.l.shuffle(v, v, &spread);
            let mask = self.strided_mask(factor);
            self.l.masked_store(wide, p, align, mask);
            Access::Strided { factor }
        } else {
            let test = self.consecutive_test(ptr, shape, volatile);
            let addrs = self.lane_addresses(ptr);
            let v = self.vector(value);
            let v = self.to_mem(v, ty);
            let mask = self.mask;
            self.unless_consecutive(
                &addrs,
                size as u64,
                test,
                |e, p0| e.l.masked_store(v, p0, align, mask),
                |e| {
                    let ps = e.lane_pointers(&addrs);
                    e.scatter(v, ps, align, mask)
                },
            );
            self.gather_access(ptr, shape, volatile)
        }
    }

    /// The factor by which an access of `t` elements through an address of
    /// `shape` is strided, if it is done as a `factor` times wider masked
    /// vector access: consecutive addresses `factor` elements apart (2 to
    /// 4: `data[2 * i]`, a field of an array of small structs) of 32- or
    /// 64-bit elements, where the wide access's masked loads or stores are
    /// cheaper than a gather or scatter. Masked stores are slow without
    /// AVX-512 (on AMD, microcoded): stores are strided only with it.
    pub(super) fn strided_factor(
        &self,
        shape: Shape,
        t: Type,
        volatile: bool,
        store: bool,
    ) -> Option<u32> {
        const MAX_FACTOR: i64 = 4;
        let size = t.bytes() as i64;
        let Shape::Consecutive { stride } = shape else {
            return None;
        };
        let fits = matches!(size, 4 | 8)
            && stride % size == 0
            && (2..=MAX_FACTOR).contains(&(stride / size));
        (fits && !volatile && (!store || self.has_avx512("avx512f")))
            .then_some((stride / size) as u32)
    }

    /// Writes an interleaved store group (see
    /// `lockstep_passes::analysis::interleave`) at its last member: side by
    /// side if proven, else if member j's address is member 0's plus j
    /// elements at run time, else member by member.
    fn interleaved_stores(&mut self, group: &StoreGroup) {
        let members: Vec<PlainStore> = group
            .members
            .iter()
            .map(|&m| PlainStore::of(&self.func.insts[m]).expect("groups are of plain stores"))
            .collect();
        if group.proven {
            self.interleaved_store(&members);
            return;
        }
        let k = members.len() as i64;
        let ty = self.func.value_type(members[0].value);
        let size = self.mem_ty(ty).bytes() as i64;
        let i64t = self.l.i64();
        let lane0: Vec<V> = members
            .iter()
            .map(|m| {
                let p = self.consecutive_address(m.ptr, size * k);
                self.l.cast(LLVMOpcode::LLVMPtrToInt, p, i64t)
            })
            .collect();
        let mut side_by_side = self.l.const_int(self.l.i1(), 1);
        for (j, &p) in lane0.iter().enumerate().skip(1) {
            let expected = self
                .l
                .add(lane0[0], self.l.const_int(i64t, (j as i64 * size) as u64));
            let same = self
                .l
                .icmp(llvm_sys::LLVMIntPredicate::LLVMIntEQ, p, expected);
            side_by_side = self.l.and(side_by_side, same);
        }
        let (yes, no, done) = (
            self.l.append_block(self.f, "interleave.yes"),
            self.l.append_block(self.f, "interleave.no"),
            self.l.append_block(self.f, "interleave.done"),
        );
        self.l.cond_br(side_by_side, yes, no);
        self.l.position_at_end(yes);
        self.interleaved_store(&members);
        self.l.br(done);
        self.l.position_at_end(no);
        for m in &members {
            self.store_access(m.value, m.ptr, m.align, false);
        }
        self.l.br(done);
        self.l.position_at_end(done);
    }

    /// Writes an interleaved group's values (`members`, in address order)
    /// side by side: lane i's value of member j at element i * k + j from
    /// member 0's lane-0 address, under the mask spread over each lane's
    /// `k` elements (aligned as member 0's address is).
    fn interleaved_store(&mut self, members: &[PlainStore]) {
        let k = members.len() as u32;
        let w = self.w;
        let ty = self.func.value_type(members[0].value);
        let size = self.mem_ty(ty).bytes() as i64;
        let parts: Vec<V> = members
            .iter()
            .map(|m| {
                let v = self.vector(m.value);
                self.to_mem(v, ty)
            })
            .collect();
        let p = self.consecutive_address(members[0].ptr, size * k as i64);
        // Concatenated (padded to a power of two), then interleaved.
        let pad = self.l.poison(self.l.type_of(parts[0]));
        let mut level = parts;
        level.resize(k.next_power_of_two() as usize, pad);
        while level.len() > 1 {
            level = level
                .chunks(2)
                .map(|pair| {
                    let n = self.l.vec_len(pair[0]);
                    self.l
                        .shuffle(pair[0], pair[1], &(0..2 * n).collect::<Vec<_>>())
                })
                .collect();
        }
        let all = level[0];
        let order: Vec<u32> = (0..w * k).map(|e| (e % k) * w + e / k).collect();
        let wide = self.l.shuffle(all, all, &order);
        let spread: Vec<u32> = (0..w * k).map(|e| e / k).collect();
        let mask = self.l.shuffle(self.mask, self.mask, &spread);
        self.l.masked_store(wide, p, members[0].align, mask);
    }

    /// The `factor * W` elements of `t` from `p` of which lane i's element
    /// `i * factor` is wanted (the others undefined; `factor` 1: a
    /// consecutive access). With AVX-512 one masked load. Without it a
    /// masked load (`vpmaskmovd`) streams at half the speed of plain ones,
    /// so where the gang's first and last lanes are active, which puts
    /// every element between their elements in the same object, it is
    /// plain loads: one for a consecutive access, else two, the first half
    /// and the half that ends at the last lane's element.
    fn strided_load(&mut self, t: Type, p: V, align: u32, factor: u32) -> V {
        let wide = self.l.vec(self.ty(t), self.w * factor);
        let mask = self.strided_mask(factor);
        if self.has_avx512("avx512f") {
            return self.l.masked_load(wide, p, align, mask);
        }
        let both = self.ends_active();
        let last = factor * (self.w - 1);
        self.if_else(
            both,
            ["strided.plain", "strided.masked"],
            |e| e.span_load(t, p, align, factor * e.w, last),
            |e| e.l.masked_load(wide, p, align, mask),
        )
    }

    /// Whether the gang's first and last lanes are active: then every
    /// element between their elements of a vector access is in the same
    /// object as theirs, and a plain load of them is as safe as theirs.
    fn ends_active(&mut self) -> V {
        let bits = self.mask_bits(self.mask);
        let ends = 1u64 | 1 << (self.w - 1);
        let ends = self.l.const_int(self.l.int(self.w), ends);
        self.l.icmp(LLVMIntEQ, self.l.and(bits, ends), ends)
    }

    /// `n` elements of `t` from `p` (undefined past `last`) with plain
    /// loads that read no further than element `last`: one if `last` is
    /// the final element, else two of `n / 2`, the second ending at `last`.
    fn span_load(&mut self, t: Type, p: V, align: u32, n: u32, last: u32) -> V {
        let et = self.ty(t);
        if last + 1 == n {
            return self.l.load(self.l.vec(et, n), p, align);
        }
        let half = n / 2;
        let ht = self.l.vec(et, half);
        let low = self.l.load(ht, p, align);
        let shift = last + 1 - half;
        let size = u64::from(t.bytes());
        let at = self
            .l
            .gep_i8(p, self.l.const_int(self.l.i64(), u64::from(shift) * size));
        let high = self.l.load(ht, at, t.bytes());
        // Element e: the low half's below `half`, else the high half's
        // `e - shift` (past `last`: any).
        let picks: Vec<u32> = (0..n)
            .map(|e| {
                if e < half {
                    e
                } else {
                    half + (e - shift).min(half - 1)
                }
            })
            .collect();
        self.l.shuffle(low, high, &picks)
    }

    /// The mask of a `factor` times wider access in which lane i has
    /// element i * factor: the gang's mask bits spread out, zeros between.
    fn strided_mask(&mut self, factor: u32) -> V {
        let none = self.l.const_null(self.l.type_of(self.mask));
        let spread: Vec<u32> = (0..self.w * factor)
            .map(|j| if j % factor == 0 { j / factor } else { self.w })
            .collect();
        self.l.shuffle(self.mask, none, &spread)
    }

    /// Whether a gather or scatter through `ptr` (of `shape`) first tests
    /// for consecutive lanes: only for an unknown stride (a known one other
    /// than the element's never is), an address not computed from loaded
    /// data (`Gathers::worth_consecutive_test`) and a non-volatile access.
    fn consecutive_test(&self, ptr: Value, shape: Shape, volatile: bool) -> bool {
        !volatile && shape.is_varying() && self.gathers.worth_consecutive_test(ptr)
    }

    /// How a gather or scatter through `ptr` is done, for the report.
    fn gather_access(&self, ptr: Value, shape: Shape, volatile: bool) -> Access {
        let test = self.consecutive_test(ptr, shape, volatile);
        Access::Gather {
            shape,
            offsets_32: self.object_offset(ptr).is_some(),
            consecutive_test: test,
        }
    }

    /// Each lane's address for an access through `ptr` (not consecutive):
    /// an address in the object plus a 32-bit offset where [`Gathers`] allows
    /// (so x86 gathers with 32-bit indices, and a run-time test of the
    /// offsets in 32-bit lanes), else the lanes' pointers.
    pub(super) fn lane_addresses(&mut self, ptr: Value) -> LaneAddresses {
        let Some(ObjectOffset { base, offsets }) = self.object_offset(ptr) else {
            return LaneAddresses::Pointers(self.vector(ptr));
        };
        let base = self.scalar(base);
        let i32v = self.vty(Type::I32);
        let mut sum = None;
        for off in offsets {
            let off = self.vector(off);
            let off = self.l.cast(LLVMOpcode::LLVMTrunc, off, i32v);
            sum = Some(sum.map_or(off, |s| self.l.add(s, off)));
        }
        let offsets = sum.expect("a ptradd has an offset");
        LaneAddresses::Offsets { base, offsets }
    }

    /// How an access through `ptr` can use 32-bit offsets
    /// ([`Gathers::object_offset`]), if it can.
    pub(super) fn object_offset(&self, ptr: Value) -> Option<ObjectOffset> {
        self.gathers
            .object_offset(self.func, ptr, |v| self.use_shape(v).is_uniform())
    }

    /// The lanes' pointers in `addrs`, computed where the gather or scatter
    /// using them is: x86's instruction selection sees the sign-extended
    /// 32-bit offsets only in the access's own block.
    pub(super) fn lane_pointers(&mut self, addrs: &LaneAddresses) -> V {
        match *addrs {
            LaneAddresses::Pointers(ps) => ps,
            LaneAddresses::Offsets { base, offsets } => {
                let wide = self
                    .l
                    .cast(LLVMOpcode::LLVMSExt, offsets, self.vty(Type::I64));
                self.l.gep_i8(base, wide)
            }
        }
    }

    /// The integers a run-time test compares to find consecutive lanes or
    /// lanes sharing an address: the 32-bit offsets where there are some,
    /// else the 64-bit addresses; and lane 0's address.
    fn lane_positions(&mut self, addrs: &LaneAddresses) -> (V, V) {
        match *addrs {
            LaneAddresses::Offsets { base, offsets } => {
                let first = self.l.extract(offsets, 0);
                let first = self.l.cast(LLVMOpcode::LLVMSExt, first, self.l.i64());
                (offsets, self.l.gep_i8(base, first))
            }
            LaneAddresses::Pointers(ps) => {
                let i64v = self.l.vec(self.l.i64(), self.w);
                let ints = self.l.cast(LLVMOpcode::LLVMPtrToInt, ps, i64v);
                (ints, self.l.extract(ps, 0))
            }
        }
    }

    /// Loads a `t` (a memory type) from each lane's address in `ps` whose
    /// `mask` bit is set. Bytes and aligned 16-bit values come from a
    /// gather of the aligned 32-bit words holding them, shifted into place:
    /// x86 gathers only 32- and 64-bit elements, and LLVM would load a
    /// narrow gather lane by lane behind a branch each. Such a word never
    /// crosses a page, so it reads nothing the lane's own access would not.
    pub(super) fn gather(&mut self, ps: V, t: Type, align: u32, mask: V) -> V {
        let pt = self.l.type_of(ps);
        let narrow = t.bits() < 32 && (t.bits() == 8 || align >= 2);
        if !narrow {
            return self.masked_gather(self.vty(t), ps, align, mask);
        }
        let i64v = self.l.vec(self.l.i64(), self.w);
        let ints = self.l.cast(LLVMOpcode::LLVMPtrToInt, ps, i64v);
        let low = self.l.splat(self.l.const_int(self.l.i64(), 3), self.w);
        let word_ints = self.l.and(ints, self.l.not(low));
        let words = self.l.cast(LLVMOpcode::LLVMIntToPtr, word_ints, pt);
        let wt = self.vty(Type::I32);
        let w = self.masked_gather(wt, words, 4, mask);
        let byte = self
            .l
            .cast(LLVMOpcode::LLVMTrunc, self.l.and(ints, low), wt);
        let bits = self.l.shl(
            byte,
            self.l.splat(self.l.const_int(self.l.i32(), 3), self.w),
        );
        let shifted = self.l.lshr(w, bits);
        let narrow = self.l.vec(self.l.int(t.bits()), self.w);
        let v = self.l.cast(LLVMOpcode::LLVMTrunc, shifted, narrow);
        if t.is_float() {
            self.l.bitcast(v, self.vty(t))
        } else {
            v
        }
    }

    /// A vector of `vt` loaded from each lane's address in `ps` whose
    /// `mask` bit is set (the other lanes' elements are undefined): the
    /// hardware's gather where the target has a fast one, else lane by
    /// lane without branches (see [`Emitter::lane_sink`]).
    fn masked_gather(&mut self, vt: T, ps: V, align: u32, mask: V) -> V {
        let fast = crate::target().is_ok_and(|t| t.has_feature("fast-gather"));
        if self.has_avx512("avx512f") || fast {
            let pass = self.l.poison(vt);
            let align_v = self.l.const_int(self.l.i32(), align as u64);
            let pt = self.l.type_of(ps);
            return self
                .l
                .intrinsic("llvm.masked.gather", &[vt, pt], &[ps, align_v, mask, pass]);
        }
        let et = unsafe { llvm_sys::core::LLVMGetElementType(vt) };
        let sink = self.lane_sink(et, align);
        (0..self.w).fold(self.l.poison(vt), |v, lane| {
            let p = self.address_or_sink(ps, mask, sink, lane);
            let x = self.l.load(et, p, align);
            self.l.insert(v, x, lane)
        })
    }

    /// Stores each lane of `v` whose `mask` bit is set to its address in
    /// `ps`, lanes in order (the highest of lanes sharing an address wins).
    /// With AVX-512F, the hardware's scatter; without, lane by lane without
    /// branches (see [`Emitter::lane_sink`]). Returns the last instruction
    /// (of void type).
    pub(super) fn scatter(&mut self, v: V, ps: V, align: u32, mask: V) -> V {
        if self.has_avx512("avx512f") {
            let align_v = self.l.const_int(self.l.i32(), align as u64);
            let (vt, pt) = (self.l.type_of(v), self.l.type_of(ps));
            return self
                .l
                .intrinsic("llvm.masked.scatter", &[vt, pt], &[v, ps, align_v, mask]);
        }
        let et = unsafe { llvm_sys::core::LLVMGetElementType(self.l.type_of(v)) };
        let sink = self.lane_sink(et, align);
        let mut last = None;
        for lane in 0..self.w {
            let p = self.address_or_sink(ps, mask, sink, lane);
            last = Some(self.l.store(self.l.extract(v, lane), p, align));
        }
        last.expect("a gang has lanes")
    }

    /// Where a gather or scatter done lane by lane sends an inactive lane's
    /// access instead of its address: a slot of the frame for one `et`.
    /// LLVM's own expansion of `llvm.masked.gather`/`scatter` tests each
    /// lane's bit with a branch, mispredicted about half the time when the
    /// mask is data-dependent (bitonic's compare-exchange on AVX2: two
    /// scatters of 8 lanes per gang, 170 ms against 107 without branches).
    /// The slot's address is opaque to LLVM: knowing the slot is never
    /// read, it would turn each store back into a branch around a store.
    fn lane_sink(&mut self, et: T, align: u32) -> V {
        self.in_allocas(|e| {
            let slot = e.l.alloca_aligned(et, align.max(1));
            e.l.opaque(slot)
        })
    }

    /// Lane `lane`'s address in `ps` if its `mask` bit is set, else `sink`.
    fn address_or_sink(&self, ps: V, mask: V, sink: V, lane: u32) -> V {
        let active = self.l.extract(mask, lane);
        self.l.select(active, self.l.extract(ps, lane), sink)
    }

    /// A gather or scatter whose addresses the analysis could not prove
    /// consecutive often is at run time (indices clamped at a border,
    /// computed with bit operations): with `test` (the address is worth
    /// it, `Gathers::worth_consecutive_test`, and the access not
    /// volatile), when every active lane's address is lane 0's plus its
    /// lane number times `size`, `vector` does the access as one masked
    /// vector access at lane 0's address; otherwise `each` does it lane by
    /// lane. Returns the access's value (for a load).
    fn unless_consecutive(
        &mut self,
        addrs: &LaneAddresses,
        size: u64,
        test: bool,
        vector: impl FnOnce(&mut Self, V) -> V,
        each: impl FnOnce(&mut Self) -> V,
    ) -> V {
        if !test {
            return each(self);
        }
        let (ints, p0) = self.lane_positions(addrs);
        let it = unsafe { llvm_sys::core::LLVMGetElementType(self.l.type_of(ints)) };
        let first = self.l.extract(ints, 0);
        let steps: Vec<V> = (0..self.w as u64)
            .map(|i| self.l.const_int(it, i * size))
            .collect();
        let expected = self
            .l
            .add(self.l.splat(first, self.w), self.l.const_vector(&steps));
        let on_line = self
            .l
            .icmp(llvm_sys::LLVMIntPredicate::LLVMIntEQ, ints, expected);
        let off_line = self.l.and(self.mask, self.l.not(on_line));
        let consecutive = self.l.not(self.any(off_line));
        self.if_else(
            consecutive,
            ["access.vector", "access.each"],
            |e| vector(e, p0),
            each,
        )
    }

    /// Whether the gang has an active lane and every active lane's address
    /// in `addrs` is lane 0's, and lane 0's address.
    fn same_address(&mut self, addrs: &LaneAddresses) -> (V, V) {
        let (ints, p0) = self.lane_positions(addrs);
        let first = self.l.splat(self.l.extract(ints, 0), self.w);
        let same = self
            .l
            .icmp(llvm_sys::LLVMIntPredicate::LLVMIntEQ, ints, first);
        let elsewhere = self.l.and(self.mask, self.l.not(same));
        let same = self
            .l
            .and(self.any(self.mask), self.l.not(self.any(elsewhere)));
        (same, p0)
    }

    /// `yes` where `cond` holds, else `no`, each in its own block (named
    /// `names`, then `names[0].done`); their value (none if `void`).
    fn if_else(
        &mut self,
        cond: V,
        names: [&str; 2],
        yes: impl FnOnce(&mut Self) -> V,
        no: impl FnOnce(&mut Self) -> V,
    ) -> V {
        let (yes_block, no_block, done) = (
            self.l.append_block(self.f, names[0]),
            self.l.append_block(self.f, names[1]),
            self.l.append_block(self.f, &format!("{}.done", names[0])),
        );
        self.l.cond_br(cond, yes_block, no_block);
        self.l.position_at_end(yes_block);
        let a = yes(self);
        let from_yes = self.l.current_block();
        self.l.br(done);
        self.l.position_at_end(no_block);
        let b = no(self);
        let from_no = self.l.current_block();
        self.l.br(done);
        self.l.position_at_end(done);
        let t = self.l.type_of(a);
        if unsafe { llvm_sys::core::LLVMGetTypeKind(t) } == llvm_sys::LLVMTypeKind::LLVMVoidTypeKind
        {
            return a;
        }
        let phi = self.l.phi(t);
        self.l.add_incoming(phi, a, from_yes);
        self.l.add_incoming(phi, b, from_no);
        phi
    }

    fn mem_as(&self, v: V, ty: Type) -> V {
        if ty != Type::I1 {
            return v;
        }
        let zero = self.int_splat(v, 0);
        self.l.icmp(LLVMIntNE, v, zero)
    }

    fn to_mem(&self, v: V, ty: Type) -> V {
        if ty != Type::I1 {
            return v;
        }
        let t = if self.l.is_vector(v) {
            self.l.vec(self.l.i8(), self.w)
        } else {
            self.l.i8()
        };
        self.l.cast(LLVMOpcode::LLVMZExt, v, t)
    }

    pub(super) fn global_address(&mut self, global: ir::GlobalId) -> V {
        if let Some(&(_, offset)) = self.local_layout.offsets.iter().find(|(g, _)| *g == global) {
            let base = self.ctx_field_ptr(offsets::LOCAL_MEM);
            return self.l.gep_i8(base, self.l.const_int(self.l.i64(), offset));
        }
        let table = self.ctx_field_ptr(offsets::GLOBALS);
        let slot = self.l.gep_i8(
            table,
            self.l.const_int(
                self.l.i64(),
                8 * cranelift_entity::EntityRef::index(global) as u64,
            ),
        );
        self.l.load(self.l.ptr(), slot, 8)
    }

    /// `memcpy`/`memset`, once per active lane.
    fn mem_intrinsic(&mut self, set: bool, args: [Value; 3]) {
        self.per_active_lane(&args, |e, xs| {
            let f = e.l.const_int(e.l.i1(), 0);
            if set {
                e.l.intrinsic(
                    "llvm.memset",
                    &[e.l.ptr(), e.l.i64()],
                    &[xs[0], xs[1], xs[2], f],
                );
            } else {
                e.l.intrinsic(
                    "llvm.memmove",
                    &[e.l.ptr(), e.l.ptr(), e.l.i64()],
                    &[xs[0], xs[1], xs[2], f],
                );
            }
            None
        });
    }

    /// Runs `f` on each active lane's operands in lane order (a branch per
    /// lane); returns the lanes' results as a vector if `f` gives values.
    pub(super) fn per_active_lane(
        &mut self,
        args: &[Value],
        f: impl Fn(&mut Self, &[V]) -> Option<V>,
    ) -> Option<V> {
        let vecs: Vec<V> = args.iter().map(|&a| self.vector(a)).collect();
        let mut slot: Option<(V, super::llvm::T)> = None;
        for lane in 0..self.w {
            let bit = self.l.extract(self.mask, lane);
            let run = self.l.append_block(self.f, "lane");
            let next = self.l.append_block(self.f, "lane.next");
            self.l.cond_br(bit, run, next);
            self.l.position_at_end(run);
            let xs: Vec<V> = vecs.iter().map(|&v| self.l.extract(v, lane)).collect();
            if let Some(r) = f(self, &xs) {
                let (ptr, vt) = *slot.get_or_insert_with(|| {
                    let vt = self.l.vec(self.l.type_of(r), self.w);
                    (self.in_allocas(|e| e.l.alloca(vt)), vt)
                });
                let old = self.l.load(vt, ptr, 1);
                let new = self.l.insert(old, r, lane);
                self.l.store(new, ptr, 1);
            }
            self.l.br(next);
            self.l.position_at_end(next);
        }
        slot.map(|(ptr, vt)| self.l.load(vt, ptr, 1))
    }

    fn work_item(&mut self, query: WorkItemQuery, dim: u8, result: Value) -> Repr {
        let d = dim as usize;
        let i64t = self.l.i64();
        let [lx, ly, _lz] = self.spec.local_size.map(|x| x.max(1) as u64);
        let uniform = self.shape(result).is_uniform();
        let ctx_u64 = |e: &Self, off: u64| e.ctx_field_u64(off, d as u64);
        match query {
            WorkItemQuery::WorkDim => {
                let v = self.ctx_field_u64(offsets::WORK_DIM, 0);
                Repr::Scalar(self.l.cast(LLVMOpcode::LLVMTrunc, v, self.l.i32()))
            }
            WorkItemQuery::GroupId => Repr::Scalar(ctx_u64(self, offsets::GROUP_ID)),
            WorkItemQuery::GlobalSize => Repr::Scalar(ctx_u64(self, offsets::GLOBAL_SIZE)),
            WorkItemQuery::GlobalOffset => Repr::Scalar(ctx_u64(self, offsets::GLOBAL_OFFSET)),
            WorkItemQuery::NumGroups => Repr::Scalar(ctx_u64(self, offsets::NUM_GROUPS)),
            WorkItemQuery::EnqueuedLocalSize => {
                Repr::Scalar(ctx_u64(self, offsets::ENQUEUED_LOCAL_SIZE))
            }
            WorkItemQuery::LocalSize => Repr::Scalar(
                self.l
                    .const_int(i64t, self.spec.local_size[d].max(1) as u64),
            ),
            WorkItemQuery::SubGroupLocalId => {
                let i32t = self.l.i32();
                let lanes: Vec<V> = (0..self.w as u64)
                    .map(|i| self.l.const_int(i32t, i))
                    .collect();
                self.bases.insert(result, self.l.const_int(i32t, 0));
                Repr::Vector(self.l.const_vector(&lanes))
            }
            WorkItemQuery::SubGroupId => Repr::Scalar(self.l.int_cast(self.gang, self.l.i32())),
            WorkItemQuery::SubGroupSize
            | WorkItemQuery::NumSubGroups
            | WorkItemQuery::MaxSubGroupSize
            | WorkItemQuery::EnqueuedNumSubGroups => Repr::Scalar(self.sub_group_count(query)),
            WorkItemQuery::LocalId
            | WorkItemQuery::GlobalId
            | WorkItemQuery::LocalLinearId
            | WorkItemQuery::GlobalLinearId => {
                // Lane l of gang g is local linear id g*W + l.
                let lin0 = self.l.mul(self.gang, self.l.const_int(i64t, self.w as u64));
                let ids = |e: &mut Self, lin: V, dim: usize| -> V {
                    let k = |e: &Self, c: u64| {
                        if e.l.is_vector(lin) {
                            e.l.splat(e.l.const_int(i64t, c), e.w)
                        } else {
                            e.l.const_int(i64t, c)
                        }
                    };
                    match dim {
                        0 => e.l.urem(lin, k(e, lx)),
                        1 => {
                            let q = e.l.udiv(lin, k(e, lx));
                            e.l.urem(q, k(e, ly))
                        }
                        _ => e.l.udiv(lin, k(e, lx * ly)),
                    }
                };
                let global = |e: &mut Self, lid: V, dim: usize| -> V {
                    let gid = e.ctx_field_u64(offsets::GROUP_ID, dim as u64);
                    let el = e.ctx_field_u64(offsets::ENQUEUED_LOCAL_SIZE, dim as u64);
                    let off = e.ctx_field_u64(offsets::GLOBAL_OFFSET, dim as u64);
                    let start = e.l.add(e.l.mul(gid, el), off);
                    let start = if e.l.is_vector(lid) {
                        e.l.splat(start, e.w)
                    } else {
                        start
                    };
                    e.l.add(start, lid)
                };
                let compute = |e: &mut Self, lin: V| -> V {
                    match query {
                        WorkItemQuery::LocalId => ids(e, lin, d),
                        WorkItemQuery::GlobalId => {
                            let lid = ids(e, lin, d);
                            global(e, lid, d)
                        }
                        WorkItemQuery::LocalLinearId => lin,
                        _ => {
                            // ((g2 - o2) * gs1 + (g1 - o1)) * gs0 + (g0 - o0)
                            let mut acc: Option<V> = None;
                            for dim in (0..3).rev() {
                                let lid = ids(e, lin, dim);
                                let g = global(e, lid, dim);
                                let off = e.ctx_field_u64(offsets::GLOBAL_OFFSET, dim as u64);
                                let off = if e.l.is_vector(g) {
                                    e.l.splat(off, e.w)
                                } else {
                                    off
                                };
                                let rel = e.l.sub(g, off);
                                acc = Some(match acc {
                                    None => rel,
                                    Some(a) => {
                                        let gs = e.ctx_field_u64(offsets::GLOBAL_SIZE, dim as u64);
                                        let gs = if e.l.is_vector(a) {
                                            e.l.splat(gs, e.w)
                                        } else {
                                            gs
                                        };
                                        e.l.add(e.l.mul(a, gs), rel)
                                    }
                                });
                            }
                            acc.expect("three dimensions")
                        }
                    }
                };
                let base = compute(self, lin0);
                if uniform {
                    Repr::Scalar(base)
                } else {
                    let lin = self.lin;
                    let v = compute(self, lin);
                    self.bases.insert(result, base);
                    Repr::Vector(v)
                }
            }
        }
    }

    /// `sub_group_size` (the gang's lanes that hold a work-item),
    /// `num_sub_groups` (the group's gangs), and the largest subgroup and
    /// number of subgroups of a group of the enqueued local size, as `i32`.
    fn sub_group_count(&mut self, query: WorkItemQuery) -> V {
        let i64t = self.l.i64();
        let w = self.l.const_int(i64t, self.w as u64);
        let umin = |e: &Self, a: V, b: V| e.l.intrinsic("llvm.umin", &[i64t], &[a, b]);
        let items = match query {
            WorkItemQuery::SubGroupSize | WorkItemQuery::NumSubGroups => {
                let n: u64 = self
                    .spec
                    .local_size
                    .iter()
                    .map(|&x| x.max(1) as u64)
                    .product();
                self.l.const_int(i64t, n)
            }
            _ => {
                let mut n = self.ctx_field_u64(offsets::ENQUEUED_LOCAL_SIZE, 0);
                for d in 1..3 {
                    let s = self.ctx_field_u64(offsets::ENQUEUED_LOCAL_SIZE, d);
                    n = self.l.mul(n, s);
                }
                n
            }
        };
        let r = match query {
            WorkItemQuery::SubGroupSize => {
                let start = self.l.mul(self.gang, w);
                let left = self.l.sub(items, start);
                umin(self, left, w)
            }
            WorkItemQuery::MaxSubGroupSize => umin(self, items, w),
            _ => {
                let w1 = self.l.const_int(i64t, self.w as u64 - 1);
                self.l.udiv(self.l.add(items, w1), w)
            }
        };
        self.l.int_cast(r, self.l.i32())
    }

    /// `printf`: each active lane, in lane order, calls the runtime.
    fn printf(&mut self, format: &str, args: &[Value]) -> Repr {
        let i64t = self.l.i64();
        let i8t = self.l.i8();
        let fmt = self.global_string(format);
        let types: Vec<V> = args
            .iter()
            .map(|&a| {
                self.l
                    .const_int(i8t, type_code(self.func.value_type(a)) as u64)
            })
            .collect();
        let types_arr = unsafe {
            llvm_sys::core::LLVMConstArray2(i8t, types.clone().as_mut_ptr(), types.len() as u64)
        };
        let types_g = self.private_constant(types_arr, "printf.types");
        let n = args.len().max(1) as u64;
        let arr_t = self.l.array(i64t, n);
        let bits_arr = self.gang_memory(arr_t);
        let sink = self.ctx_field_ptr(offsets::SINK);
        let arg_tys: Vec<Type> = args.iter().map(|&a| self.func.value_type(a)).collect();
        let nargs = args.len();
        let r = self.per_active_lane(args, |e, xs| {
            e.store_operand_bits(bits_arr, xs, &arg_tys);
            let ptr = e.l.ptr();
            let r = e.l.call_extern(
                crate::abi::runtime_symbols::PRINTF,
                e.l.i32(),
                &[ptr, ptr, i64t, ptr, ptr],
                &[
                    sink,
                    fmt,
                    e.l.const_int(i64t, nargs as u64),
                    bits_arr,
                    types_g,
                ],
            );
            Some(r)
        });
        match r {
            Some(v) => Repr::Vector(v),
            None => Repr::Scalar(self.l.const_int(self.l.i32(), 0)),
        }
    }

    /// Stores the bits of one lane's operands `xs` (of types `tys`) to the
    /// `i64` array `arr`, where the runtime reads them (printf, device
    /// enqueue).
    fn store_operand_bits(&mut self, arr: V, xs: &[V], tys: &[Type]) {
        let i64t = self.l.i64();
        for (i, (&x, &t)) in xs.iter().zip(tys).enumerate() {
            let bits = self.to_bits(x, t);
            let p = self.l.gep_i8(arr, self.l.const_int(i64t, 8 * i as u64));
            self.l.store(bits, p, 8);
        }
    }

    /// A device enqueue operation: each active lane, in lane order, calls
    /// the runtime with its operands' bits; the result is the call's,
    /// truncated to the operation's type.
    fn device_enqueue(
        &mut self,
        op: ir::DeviceOp,
        kernel: Option<ir::FuncId>,
        args: &[Value],
    ) -> Option<Repr> {
        use cranelift_entity::EntityRef;
        let i64t = self.l.i64();
        let i32t = self.l.i32();
        let n = args.len().max(1) as u64;
        let arr_t = self.l.array(i64t, n);
        let bits_arr = self.gang_memory(arr_t);
        let sink = self.ctx_field_ptr(offsets::SINK);
        let arg_tys: Vec<Type> = args.iter().map(|&a| self.func.value_type(a)).collect();
        let result = op.result_type();
        let code = self.l.const_int(i32t, op.code() as u64);
        let kernel = self
            .l
            .const_int(i32t, kernel.map_or(u32::MAX as u64, |k| k.index() as u64));
        let nargs = self.l.const_int(i64t, args.len() as u64);
        let r = self.per_active_lane(args, |e, xs| {
            e.store_operand_bits(bits_arr, xs, &arg_tys);
            let ptr = e.l.ptr();
            let r = e.l.call_extern(
                crate::abi::runtime_symbols::DEVICE_ENQUEUE,
                i64t,
                &[ptr, i32t, i32t, i64t, ptr],
                &[sink, code, kernel, nargs, bits_arr],
            );
            result.map(|t| e.bits_as(r, t))
        });
        let t = result?;
        Some(match r {
            Some(v) => Repr::Vector(v),
            None => Repr::Scalar(self.l.const_null(self.ty(t))),
        })
    }

    fn global_string(&mut self, s: &str) -> V {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        let c = unsafe {
            llvm_sys::core::LLVMConstStringInContext2(
                self.l.ctx,
                bytes.as_ptr() as *const _,
                bytes.len(),
                1,
            )
        };
        self.private_constant(c, "printf.format")
    }

    fn private_constant(&mut self, init: V, name: &str) -> V {
        let t = self.l.type_of(init);
        let cname = std::ffi::CString::new(name).expect("no NUL");
        unsafe {
            let g = llvm_sys::core::LLVMAddGlobal(self.l.module, t, cname.as_ptr());
            llvm_sys::core::LLVMSetInitializer(g, init);
            llvm_sys::core::LLVMSetGlobalConstant(g, 1);
            llvm_sys::core::LLVMSetLinkage(g, llvm_sys::LLVMLinkage::LLVMPrivateLinkage);
            g
        }
    }
}

pub(super) fn t_bytes(t: Type) -> u32 {
    t.bytes().max(1)
}

pub fn convert_code(op: ConvertOp) -> u32 {
    ConvertOp::ALL.iter().position(|&o| o == op).unwrap_or(0) as u32
}

pub fn rounding_code(r: Rounding) -> u32 {
    Rounding::ALL.iter().position(|&o| o == r).unwrap_or(0) as u32
}

fn int_pred(c: IntCC) -> llvm_sys::LLVMIntPredicate {
    match c {
        IntCC::Eq => LLVMIntEQ,
        IntCC::Ne => LLVMIntNE,
        IntCC::Slt => LLVMIntSLT,
        IntCC::Sle => LLVMIntSLE,
        IntCC::Sgt => LLVMIntSGT,
        IntCC::Sge => LLVMIntSGE,
        IntCC::Ult => LLVMIntULT,
        IntCC::Ule => LLVMIntULE,
        IntCC::Ugt => LLVMIntUGT,
        IntCC::Uge => LLVMIntUGE,
    }
}

fn float_pred(c: FloatCC) -> llvm_sys::LLVMRealPredicate {
    match c {
        FloatCC::Oeq => LLVMRealOEQ,
        FloatCC::One => LLVMRealONE,
        FloatCC::Olt => LLVMRealOLT,
        FloatCC::Ole => LLVMRealOLE,
        FloatCC::Ogt => LLVMRealOGT,
        FloatCC::Oge => LLVMRealOGE,
        FloatCC::Ord => LLVMRealORD,
        FloatCC::Uno => LLVMRealUNO,
        FloatCC::Ueq => LLVMRealUEQ,
        FloatCC::Une => LLVMRealUNE,
        FloatCC::Ult => LLVMRealULT,
        FloatCC::Ule => LLVMRealULE,
        FloatCC::Ugt => LLVMRealUGT,
        FloatCC::Uge => LLVMRealUGE,
    }
}
