//! Atomics: each active lane's atomic in lane order (`lock`-prefixed
//! instructions on x86), except where the gang's lanes can be combined
//! into fewer memory operations with the same outcome:
//!
//! * **One address for the gang** (a counter, `atomic_inc(&count)`): an
//!   integer add or subtract is one read-modify-write of the sum of the
//!   active lanes' operands; lane `l`'s result is the old value plus (or
//!   minus) the operands of the active lanes below it (an exclusive scan).
//! * **Adds to per-lane addresses in local memory** (a histogram,
//!   `atomic_inc(&hist[bin])`): local memory belongs to one work-group,
//!   whose gangs run one after the other on one thread, so no other thread
//!   sees the update halfway. The gang gathers the old values, counts for
//!   each lane the active lanes below it with the same address (with
//!   AVX-512's conflict detection, `vpconflictd` and a population count;
//!   without it, comparing the addresses with themselves shifted by 1 to
//!   W - 1 lanes: AVX2 histograms 2x faster than locked adds), and scatters
//!   old + (that count + 1) × operand: a scatter writes lanes in order, so
//!   the last lane of each address leaves the total. Plain
//!   per-lane updates would be no faster than the locked ones: a load that
//!   runs ahead of an earlier store to the same bin makes the core start
//!   over (measured 2.7× slower than `lock` on a skewed histogram).

use llvm_sys::LLVMAtomicOrdering::LLVMAtomicOrderingSequentiallyConsistent as SEQ;
use lockstep_ir::{self as ir, AddrSpace, AtomicRmwOp, Combine, InstData, Type};

use super::llvm::V;
use super::ops::{t_bytes, LaneAddresses};
use super::{Emitter, Repr};
use crate::report::Access;

impl Emitter<'_> {
    /// An atomic instruction (`data`, the result of `inst`), under the
    /// current mask.
    pub(super) fn atomic(&mut self, inst: ir::Inst, data: &InstData) -> Option<Repr> {
        if let Some((repr, access)) = self.combined_atomic(inst, data) {
            self.report.note_access(inst, data.mnemonic(), access);
            return Some(repr);
        }
        let func = self.func;
        let data = data.clone();
        let result_ty = func.results[inst].map(|r| func.value_type(r));
        let args = data.args();
        self.report
            .note_access(inst, data.mnemonic(), Access::PerLane);
        let r = self.per_active_lane(&args, |e, xs| {
            let b = e.l.builder;
            unsafe {
                match &data {
                    InstData::AtomicRmw { op, .. } => Some(llvm_sys::core::LLVMBuildAtomicRMW(
                        b,
                        rmw_op(*op),
                        xs[0],
                        xs[1],
                        SEQ,
                        0,
                    )),
                    InstData::AtomicCas { .. } => {
                        let pair = llvm_sys::core::LLVMBuildAtomicCmpXchg(
                            b, xs[0], xs[1], xs[2], SEQ, SEQ, 0,
                        );
                        Some(llvm_sys::core::LLVMBuildExtractValue(
                            b,
                            pair,
                            0,
                            c"".as_ptr(),
                        ))
                    }
                    InstData::AtomicLoad { .. } => {
                        let t = e.ty(result_ty.expect("atomic loads have a result"));
                        let v = e.l.load(t, xs[0], t_bytes(result_ty.unwrap()));
                        llvm_sys::core::LLVMSetOrdering(v, SEQ);
                        Some(v)
                    }
                    _ => {
                        let stored = func.value_type(args[0]);
                        let s = e.l.store(xs[0], xs[1], t_bytes(stored));
                        llvm_sys::core::LLVMSetOrdering(s, SEQ);
                        None
                    }
                }
            }
        });
        r.map(Repr::Vector)
    }

    /// An integer add or subtract the gang does with fewer memory
    /// operations than one per lane (see the module docs), if it is one.
    fn combined_atomic(&mut self, inst: ir::Inst, data: &InstData) -> Option<(Repr, Access)> {
        let InstData::AtomicRmw {
            op: op @ (AtomicRmwOp::Add | AtomicRmwOp::Sub),
            args: [ptr, x],
            ..
        } = *data
        else {
            return None;
        };
        let ty = self.func.results[inst].map(|r| self.func.value_type(r))?;
        if ty.is_float() {
            return None;
        }
        if self.use_shape(ptr).is_uniform() {
            return Some((self.one_address_atomic(op, ptr, x, ty), Access::Combined));
        }
        let unshared = self.func.value_type(ptr).addr_space() == Some(AddrSpace::Local);
        let conflicts = self.has_avx512("avx512cd");
        if unshared
            && ty == Type::I32
            && self.w <= 16
            && self.use_shape(x).is_uniform()
            && self.object_offset(ptr).is_some()
        {
            return Some((
                self.local_histogram_add(op, ptr, x, conflicts),
                Access::Conflicts,
            ));
        }
        None
    }

    /// `atomic_add`/`atomic_sub` of `x` at the uniform address `ptr`: one
    /// read-modify-write of the active lanes' sum (none if no lane is
    /// active); each lane gets the old value plus or minus the sum of the
    /// operands of the active lanes below it.
    fn one_address_atomic(
        &mut self,
        op: AtomicRmwOp,
        ptr: ir::Value,
        x: ir::Value,
        ty: Type,
    ) -> Repr {
        let t = self.ty(ty);
        let w = self.w;
        let zero = self.l.const_null(self.l.vec(t, w));
        let xs = self.vector(x);
        let lanes = self.l.select(self.mask, xs, zero);
        let vt = self.l.type_of(lanes);
        let total = self.l.intrinsic("llvm.vector.reduce.add", &[vt], &[lanes]);
        let below = self.scan_lanes(Combine::Add, ty, lanes, zero, true);
        let p = self.scalar(ptr);
        let any = self.any(self.mask);
        let from = self.l.current_block();
        let (one, done) = (
            self.l.append_block(self.f, "atomic.one"),
            self.l.append_block(self.f, "atomic.done"),
        );
        self.l.cond_br(any, one, done);
        self.l.position_at_end(one);
        let unshared = matches!(
            self.func.value_type(ptr).addr_space(),
            Some(AddrSpace::Local | AddrSpace::Private)
        );
        let old = if unshared {
            let old = self.l.load(t, p, t_bytes(ty));
            let new = match op {
                AtomicRmwOp::Add => self.l.add(old, total),
                _ => self.l.sub(old, total),
            };
            self.l.store(new, p, t_bytes(ty));
            old
        } else {
            unsafe {
                llvm_sys::core::LLVMBuildAtomicRMW(self.l.builder, rmw_op(op), p, total, SEQ, 0)
            }
        };
        let from_one = self.l.current_block();
        self.l.br(done);
        self.l.position_at_end(done);
        let phi = self.l.phi(t);
        self.l.add_incoming(phi, self.l.poison(t), from);
        self.l.add_incoming(phi, old, from_one);
        let old = phi;
        let olds = self.l.splat(old, w);
        Repr::Vector(match op {
            AtomicRmwOp::Add => self.l.add(olds, below),
            _ => self.l.sub(olds, below),
        })
    }

    /// `atomic_add`/`atomic_sub` of the uniform `i32` `x` at per-lane
    /// addresses in local memory, with AVX-512 conflict detection if the
    /// host has it (`conflicts`), else by comparing each lane's address
    /// with those of the lanes below it (see the module docs).
    fn local_histogram_add(
        &mut self,
        op: AtomicRmwOp,
        ptr: ir::Value,
        x: ir::Value,
        conflicts: bool,
    ) -> Repr {
        let w = self.w;
        let i32t = self.l.i32();
        let vt = self.l.vec(i32t, w);
        let addrs = self.lane_addresses(ptr);
        let LaneAddresses::Offsets { offsets: off, .. } = addrs else {
            unreachable!("checked by the caller: the address has 32-bit offsets")
        };
        let ps = self.lane_pointers(&addrs);
        let mask = self.mask;
        let old = self.gather(ps, Type::I32, 4, mask);
        let rank = if conflicts {
            let bits = 512 * w / 16;
            let conflict =
                self.l
                    .intrinsic(&format!("llvm.x86.avx512.conflict.d.{bits}"), &[], &[off]);
            let active = self.l.int_cast(self.mask_bits(mask), i32t);
            let earlier = self.l.and(conflict, self.l.splat(active, w));
            self.l.intrinsic("llvm.ctpop", &[vt], &[earlier])
        } else {
            self.earlier_equal_lanes(off, mask)
        };
        let xs = self.vector(x);
        let step = |e: &Self, a: V, b: V| match op {
            AtomicRmwOp::Add => e.l.add(a, b),
            _ => e.l.sub(a, b),
        };
        let result = step(self, old, self.l.mul(rank, xs));
        let new = step(self, result, xs);
        let align = self.l.const_int(i32t, 4);
        let pt = self.l.type_of(ps);
        self.l
            .intrinsic("llvm.masked.scatter", &[vt, pt], &[new, ps, align, mask]);
        Repr::Vector(result)
    }
}

impl Emitter<'_> {
    /// For each lane of the `i32` offsets `off` (non-negative), how many
    /// active lanes below it (by `mask`) have the same offset, without
    /// conflict detection: lane l compared with lane l - k for each k.
    /// Inactive lanes take distinct negative offsets first, and lanes
    /// shifted in below lane 0 others again, so neither ever matches.
    fn earlier_equal_lanes(&mut self, off: V, mask: V) -> V {
        let w = self.w;
        let i32t = self.l.i32();
        let negative = |from: u64| -> Vec<V> {
            (0..w as u64)
                .map(|j| self.l.const_int(i32t, (-((from + j) as i64)) as u64))
                .collect()
        };
        let inactive = self.l.const_vector(&negative(1));
        let below = self.l.const_vector(&negative(1 + w as u64));
        let keys = self.l.select(mask, off, inactive);
        let mut rank = self.l.const_null(self.l.type_of(off));
        for k in 1..w {
            // Lane l gets lane l - k's key; lanes below k one of `below`.
            let lanes: Vec<u32> = (0..w).map(|l| if l >= k { l - k } else { w + l }).collect();
            let shifted = self.l.shuffle(keys, below, &lanes);
            let same = self
                .l
                .icmp(llvm_sys::LLVMIntPredicate::LLVMIntEQ, keys, shifted);
            let same = self
                .l
                .cast(llvm_sys::LLVMOpcode::LLVMZExt, same, self.l.type_of(off));
            rank = self.l.add(rank, same);
        }
        rank
    }
}

fn rmw_op(op: AtomicRmwOp) -> llvm_sys::LLVMAtomicRMWBinOp {
    use llvm_sys::LLVMAtomicRMWBinOp::*;
    match op {
        AtomicRmwOp::Xchg => LLVMAtomicRMWBinOpXchg,
        AtomicRmwOp::Add => LLVMAtomicRMWBinOpAdd,
        AtomicRmwOp::Sub => LLVMAtomicRMWBinOpSub,
        AtomicRmwOp::And => LLVMAtomicRMWBinOpAnd,
        AtomicRmwOp::Or => LLVMAtomicRMWBinOpOr,
        AtomicRmwOp::Xor => LLVMAtomicRMWBinOpXor,
        AtomicRmwOp::Smin => LLVMAtomicRMWBinOpMin,
        AtomicRmwOp::Smax => LLVMAtomicRMWBinOpMax,
        AtomicRmwOp::Umin => LLVMAtomicRMWBinOpUMin,
        AtomicRmwOp::Umax => LLVMAtomicRMWBinOpUMax,
        AtomicRmwOp::Fadd => LLVMAtomicRMWBinOpFAdd,
        AtomicRmwOp::Fmin => LLVMAtomicRMWBinOpFMin,
        AtomicRmwOp::Fmax => LLVMAtomicRMWBinOpFMax,
    }
}
