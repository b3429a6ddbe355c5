//! Checked mode (`Spec::checked`): every memory access is checked against
//! the object its pointer came from before it runs.
//!
//! The object is the pointer's root by the provenance analysis
//! (`lockstep_passes::analysis::provenance`): a kernel argument (its size
//! and access flags come from `GroupContext::arg_info` at run time), a
//! `__local` or program-scope variable, or a private array (sizes known
//! when compiling). Per access: the lanes' offsets from the object's start
//! (one vector subtraction) against the object's size minus the access's
//! (one vector compare), the address against the alignment, and for an
//! argument its read-only / write-only flag. The lanes that fail are
//! reported to the runtime (`lockstep_rt_check_failed`, off the hot path),
//! and an access that leaves its object runs without them (a load gives 0
//! there), so memory outside the objects is never touched. Misaligned
//! accesses and access-mode violations are reported and still run.
//! Pointers of unknown provenance (loaded from memory, made from integers,
//! or joining several objects) are not checked; the report counts them.

use std::collections::HashMap;

use llvm_sys::LLVMIntPredicate::{LLVMIntEQ, LLVMIntNE, LLVMIntUGE, LLVMIntULE, LLVMIntULT};
use llvm_sys::LLVMOpcode;
use lockstep_ir::abi::{arg_flags, offsets, runtime_symbols, CheckInfo, CheckObject};
use lockstep_ir::{self as ir, BinaryOp, ConvertOp, InstData, Type, Value, ValueDef};
use lockstep_passes::analysis::{Provenance, Root, Shape};

use super::llvm::V;
use super::{Emitter, Repr};

/// What checked code needs beside the emitter's state.
pub(crate) struct Checks {
    prov: Provenance,
    /// Size of each program-scope and `__local` variable, by index.
    global_sizes: Vec<u64>,
    /// The alignment each variable's start is known to have.
    global_aligns: Vec<u64>,
    /// Per argument: its size and flags words, loaded at entry.
    args: HashMap<u32, (V, V)>,
    /// Per variable: its address, computed at entry.
    globals: HashMap<u32, V>,
    /// Per (non-interleaved) stack slot: the lanes' copies' addresses.
    stacks: HashMap<u32, V>,
    /// Eight zero bytes a uniform load that leaves its object reads instead.
    zeros: Option<V>,
    /// Accesses through pointers of unknown provenance (not checked).
    pub unchecked: usize,
}

impl Checks {
    pub fn new(func: &ir::Function, module: &ir::Module) -> Checks {
        Checks {
            prov: Provenance::compute(func),
            global_sizes: module.globals.values().map(|g| g.size).collect(),
            global_aligns: module
                .globals
                .values()
                .map(|g| match g.space {
                    ir::AddrSpace::Local => (g.align as u64).max(64),
                    _ => (g.align as u64).max(1),
                })
                .collect(),
            args: HashMap::new(),
            globals: HashMap::new(),
            stacks: HashMap::new(),
            zeros: None,
            unchecked: 0,
        }
    }
}

/// What the checks of one access found: the lanes that may run it, and
/// (an `i1`) whether that is every active lane: no report was made.
pub(super) struct CheckedLanes {
    pub allowed: V,
    pub clean: V,
}

/// One access to check: `size` bytes (or `len`, per lane) through `ptr`.
struct AccessToCheck {
    ptr: Value,
    size: u64,
    len: Option<Value>,
    align: u64,
    write: bool,
}

impl Emitter<'_> {
    /// Checked mode: checks the memory access `data` (of `inst`) and
    /// returns the lanes that may run it (the current mask without the
    /// lanes that would leave their object) and whether every active lane
    /// passed, or `None` if it is not a memory access or cannot be checked.
    /// For a uniform load it also sets `self.redirect` (the load reads
    /// zeros instead where it would fault).
    pub(super) fn check_access(&mut self, inst: ir::Inst, data: &InstData) -> Option<CheckedLanes> {
        self.checks.as_ref()?;
        let func = self.func;
        let result_ty = func.results[inst].map(|r| func.value_type(r));
        let bytes = |t: Type| (if t == Type::I1 { 1 } else { t.bytes() }) as u64;
        let accesses: Vec<AccessToCheck> = match data {
            InstData::Load { ptr, align, .. } => vec![AccessToCheck {
                ptr: *ptr,
                size: bytes(result_ty?),
                len: None,
                align: *align as u64,
                write: false,
            }],
            InstData::Store { args, align, .. } => vec![AccessToCheck {
                ptr: args[1],
                size: bytes(func.value_type(args[0])),
                len: None,
                align: *align as u64,
                write: true,
            }],
            InstData::AtomicRmw { args, .. }
            | InstData::AtomicCas {
                args: [args @ .., _],
                ..
            } => {
                let size = bytes(func.value_type(args[1]));
                vec![AccessToCheck {
                    ptr: args[0],
                    size,
                    len: None,
                    align: size,
                    write: true,
                }]
            }
            InstData::AtomicLoad { ptr, .. } => {
                let size = bytes(result_ty?);
                vec![AccessToCheck {
                    ptr: *ptr,
                    size,
                    len: None,
                    align: size,
                    write: false,
                }]
            }
            InstData::AtomicStore { args, .. } => {
                let size = bytes(func.value_type(args[0]));
                vec![AccessToCheck {
                    ptr: args[1],
                    size,
                    len: None,
                    align: size,
                    write: true,
                }]
            }
            InstData::MemSet { args } => vec![AccessToCheck {
                ptr: args[0],
                size: 0,
                len: Some(args[2]),
                align: 1,
                write: true,
            }],
            InstData::MemCopy { args } => vec![
                AccessToCheck {
                    ptr: args[0],
                    size: 0,
                    len: Some(args[2]),
                    align: 1,
                    write: true,
                },
                AccessToCheck {
                    ptr: args[1],
                    size: 0,
                    len: Some(args[2]),
                    align: 1,
                    write: false,
                },
            ],
            _ => return None,
        };
        let mut mask = self.mask;
        let mut clean = None;
        for (k, a) in accesses.iter().enumerate() {
            if let Some(lanes) = self.check_one(inst, k as u64, a) {
                mask = self.l.and(mask, lanes.allowed);
                clean = Some(match clean {
                    Some(c) => self.l.and(c, lanes.clean),
                    None => lanes.clean,
                });
            }
        }
        let clean = clean?;
        if let InstData::Load { ptr, .. } = data {
            if self.use_shape(*ptr).is_uniform() && !self.private_ptrs.contains_key(ptr) {
                // All lanes share the address (and object): one allowed
                // lane means the load is in bounds (lane 0 may be off).
                let allowed = self.any(mask);
                let any_active = self.any(self.mask);
                let inb = self.l.or(allowed, self.l.not(any_active));
                self.redirect = Some(inb);
            }
        }
        Some(CheckedLanes {
            allowed: mask,
            clean,
        })
    }

    /// Eight zero bytes at a fixed place: what a uniform load that would
    /// leave its object reads instead.
    pub(super) fn zeros(&mut self) -> V {
        if let Some(z) = self.checks.as_ref().and_then(|c| c.zeros) {
            return z;
        }
        let z = self.in_allocas(|e| {
            let p = e.l.alloca_aligned(e.l.array(e.l.i8(), 64), 64);
            let zero = e.l.const_null(e.l.vec(e.l.i64(), 8));
            e.l.store(zero, p, 64);
            p
        });
        if let Some(c) = self.checks.as_mut() {
            c.zeros = Some(z);
        }
        z
    }

    /// Checks one access; the lanes allowed to run it (in bounds), or
    /// `None` if its pointer's object is unknown.
    ///
    /// A uniform or unit-stride access first checks its whole span with
    /// scalars (lane 0's offset against the object's size less the span):
    /// the usual outcome, in bounds, costs a compare and a branch, and the
    /// access keeps its mask. Otherwise (or when that test fails) every
    /// lane is checked with vectors.
    fn check_one(&mut self, inst: ir::Inst, k: u64, a: &AccessToCheck) -> Option<CheckedLanes> {
        let i64t = self.l.i64();
        let w = self.w;
        let vi64 = self.l.vec(i64t, w);
        let space = match self.func.value_type(a.ptr) {
            Type::Ptr(s) => s,
            _ => return None,
        };
        let root = self.checks.as_ref()?.prov.root(a.ptr);
        // The lanes' offsets from their object's start (and lane 0's, when
        // the object starts at one place for all lanes), the object's
        // size, and (arguments) its flags.
        let shape = self.use_shape(a.ptr);
        let private = self.private_ptrs.contains_key(&a.ptr);
        let (offs, off0, size, object, flags) =
            if let Some(&(slot, off)) = self.private_ptrs.get(&a.ptr) {
                let (offs, off0) = match off {
                    Repr::Scalar(o) => (self.l.splat(o, w), Some(o)),
                    Repr::Vector(o) => (o, None),
                };
                let size = self.func.stack_slots[slot].size as u64;
                (
                    offs,
                    off0,
                    self.l.const_int(i64t, size),
                    CheckObject::Stack(cranelift_entity::EntityRef::index(slot) as u32),
                    None,
                )
            } else {
                let (base, size, object, flags) = self.object(root)?;
                let addrs = self.addresses(a.ptr);
                let (base_v, off0) = match base {
                    Repr::Scalar(b) => {
                        let b = self.l.cast(LLVMOpcode::LLVMPtrToInt, b, i64t);
                        let off0 = if shape.is_uniform()
                            || shape
                                == (Shape::Consecutive {
                                    stride: a.size as i64,
                                }) {
                            let p0 = self.scalar(a.ptr);
                            let p0 = self.l.cast(LLVMOpcode::LLVMPtrToInt, p0, i64t);
                            Some(self.l.sub(p0, b))
                        } else {
                            None
                        };
                        (self.l.splat(b, w), off0)
                    }
                    Repr::Vector(b) => (self.l.cast(LLVMOpcode::LLVMPtrToInt, b, vi64), None),
                };
                (self.l.sub(addrs, base_v), off0, size, object, flags)
            };
        let align = a.align.min(a.size.max(1));
        // Interleaved private arrays hold aligned elements by construction.
        let check_align =
            !private && align > 1 && align.is_power_of_two() && !self.offset_aligned(a.ptr, align);
        // The mode check: a scalar, the same for every lane.
        let mode_bad = flags.map(|f| {
            let bit = if a.write {
                arg_flags::READ_ONLY
            } else {
                arg_flags::WRITE_ONLY
            };
            let set = self.l.and(f, self.l.const_int(i64t, bit));
            self.l.icmp(LLVMIntNE, set, self.l.const_int(i64t, 0))
        });
        let entry_mask = self.mask;
        let join = self.l.append_block(self.f, "check.done");
        let mut incoming = Vec::new();
        if let (Some(off0), None) = (off0, a.len) {
            // Lanes 0..W cover [off0, off0 + span) (uniform: all at off0).
            let span = if shape.is_uniform() {
                a.size
            } else {
                a.size * w as u64
            };
            let bound = self.bound(size, span);
            let mut fine = self.l.icmp(LLVMIntULT, off0, bound);
            if check_align {
                let p0 = self.scalar(a.ptr);
                let p0 = self.l.cast(LLVMOpcode::LLVMPtrToInt, p0, i64t);
                let low = self.l.and(p0, self.l.const_int(i64t, align - 1));
                let aligned = self.l.icmp(LLVMIntEQ, low, self.l.const_int(i64t, 0));
                fine = self.l.and(fine, aligned);
            }
            if let Some(m) = mode_bad {
                fine = self.l.and(fine, self.l.not(m));
            }
            let slow = self.l.append_block(self.f, "check.lanes");
            incoming.push((
                entry_mask,
                self.l.const_int(self.l.i1(), 1),
                self.l.current_block(),
            ));
            self.l.cond_br(fine, join, slow);
            self.l.position_at_end(slow);
        }
        // Every lane: in bounds when off + size <= object size.
        let inb = match a.len {
            None => {
                let bound = self.bound(size, a.size);
                self.l.icmp(LLVMIntULT, offs, self.l.splat(bound, w))
            }
            Some(len) => {
                let len = self.vector(len);
                let sizes = self.l.splat(size, w);
                let start_in = self.l.icmp(LLVMIntULE, offs, sizes);
                let rest = self.l.sub(sizes, offs);
                let fits = self.l.icmp(LLVMIntULE, len, rest);
                self.l.and(start_in, fits)
            }
        };
        // The lanes' addresses (for a private array: offsets), for the report.
        let addrs = if private { offs } else { self.addresses(a.ptr) };
        let misaligned = if check_align {
            let low = self
                .l
                .and(addrs, self.l.splat(self.l.const_int(i64t, align - 1), w));
            let zero = self.l.const_null(vi64);
            self.l.icmp(LLVMIntNE, low, zero)
        } else {
            self.l.const_null(self.l.vec(self.l.i1(), w))
        };
        let mask = entry_mask;
        let oob = self.l.and(mask, self.l.not(inb));
        let mis = self.l.and(mask, misaligned);
        let mode = mode_bad.map(|m| self.l.and(mask, self.l.splat(m, w)));
        let mut bad = self.l.or(oob, mis);
        if let Some(m) = mode {
            bad = self.l.or(bad, m);
        }
        let allowed = self.l.and(mask, inb);
        let any_bad = self.any(bad);
        let report = self.l.append_block(self.f, "check.failed");
        let clean = self.l.not(any_bad);
        incoming.push((allowed, clean, self.l.current_block()));
        self.l.cond_br(any_bad, report, join);
        self.l.position_at_end(report);
        let info = CheckInfo {
            size: a.size as u32,
            write: a.write,
            space,
            object,
            line: self.func.srclocs[inst].map_or(0, |l| l.line),
        };
        let zero_bits = self.l.const_int(i64t, 0);
        let (oob_bits, mis_bits) = (self.mask_bits_u64(oob), self.mask_bits_u64(mis));
        let mode_bits = mode.map_or(zero_bits, |m| self.mask_bits_u64(m));
        let lanes = self.spill(self.lin);
        let addr_mem = self.spill(addrs);
        let off_mem = self.spill(offs);
        let sink = self.ctx_field_ptr(offsets::CHECK_SINK);
        let ptr = self.l.ptr();
        let site = (cranelift_entity::EntityRef::index(inst) as u64) << 2 | k;
        let args = [
            sink,
            self.ctx,
            self.l.const_int(i64t, info.pack()),
            self.l.const_int(i64t, site),
            oob_bits,
            mis_bits,
            mode_bits,
            lanes,
            addr_mem,
            off_mem,
            size,
            self.l.const_int(i64t, w as u64),
        ];
        let fty = self.l.func_type(
            self.l.void(),
            &[
                ptr, ptr, i64t, i64t, i64t, i64t, i64t, ptr, ptr, ptr, i64t, i64t,
            ],
        );
        let f = self
            .l
            .get_function(runtime_symbols::CHECK_FAILED)
            .unwrap_or_else(|| {
                // Cold: LLVM keeps the report out of the hot path.
                let f = self.l.add_function(runtime_symbols::CHECK_FAILED, fty);
                self.l.add_fn_attr(f, "cold");
                self.l.add_fn_attr(f, "nounwind");
                f
            });
        self.l.call(fty, f, &args);
        incoming.push((
            allowed,
            self.l.const_int(self.l.i1(), 0),
            self.l.current_block(),
        ));
        self.l.br(join);
        self.l.position_at_end(join);
        let allowed = self.l.phi(self.l.type_of(entry_mask));
        let clean = self.l.phi(self.l.i1());
        for (m, c, from) in incoming {
            self.l.add_incoming(allowed, m, from);
            self.l.add_incoming(clean, c, from);
        }
        Some(CheckedLanes { allowed, clean })
    }

    /// `off <u bound` holds when `span` bytes at `off` fit in `size`:
    /// `size - span + 1`, or 0 (nothing fits) when `span > size`.
    fn bound(&self, size: V, span: u64) -> V {
        let i64t = self.l.i64();
        let acc = self.l.const_int(i64t, span);
        let fits = self.l.icmp(LLVMIntUGE, size, acc);
        let room = self.l.add(self.l.sub(size, acc), self.l.const_int(i64t, 1));
        self.l.select(fits, room, self.l.const_int(i64t, 0))
    }

    /// Whether `ptr` is provably a multiple of `align` bytes from its
    /// object's start (objects start aligned to at least 8 bytes; buffers
    /// and `__local` memory to 64): a chain of `ptradd`s of offsets that
    /// are multiples of `align` (constants, products and shifts by them).
    fn offset_aligned(&self, ptr: Value, align: u64) -> bool {
        let func = self.func;
        let mut p = ptr;
        loop {
            let def = match func.values[p].def {
                ValueDef::Result(i) => i,
                // A kernel argument: buffers, `__local` and by-value
                // memory start 64-byte aligned.
                ValueDef::Param(b, _) if Some(b) == func.entry_block() => return align <= 64,
                _ => return false,
            };
            match &func.insts[def] {
                InstData::PtrAdd { args } => {
                    if !self.multiple_of(args[1], align, 4) {
                        return false;
                    }
                    p = args[0];
                }
                InstData::GlobalAddr { global } => {
                    let g = cranelift_entity::EntityRef::index(*global);
                    let checks = self.checks.as_ref();
                    return checks
                        .and_then(|c| c.global_aligns.get(g))
                        .is_some_and(|&a| align <= a);
                }
                InstData::StackAddr { slot } => {
                    return align <= (func.stack_slots[*slot].align as u64).max(8);
                }
                InstData::Convert {
                    op: ConvertOp::AddrSpaceCast,
                    arg,
                    ..
                } => p = *arg,
                _ => return false,
            }
        }
    }

    /// Whether integer `v` is provably a multiple of `m` (a power of two).
    fn multiple_of(&self, v: Value, m: u64, depth: u32) -> bool {
        let func = self.func;
        let ValueDef::Result(def) = func.values[v].def else {
            return false;
        };
        let rec = |x: Value| depth > 0 && self.multiple_of(x, m, depth - 1);
        let constant = |x: Value| match func.values[x].def {
            ValueDef::Result(i) => match func.insts[i] {
                InstData::Iconst { imm } => Some(imm),
                _ => None,
            },
            _ => None,
        };
        match &func.insts[def] {
            InstData::Iconst { imm } => imm % m == 0,
            // A product, or a mask keeping the low bits clear, of a multiple.
            InstData::Binary {
                op: BinaryOp::Imul | BinaryOp::Band,
                args,
            } => {
                constant(args[0]).is_some_and(|c| c % m == 0)
                    || constant(args[1]).is_some_and(|c| c % m == 0)
                    || rec(args[0])
                    || rec(args[1])
            }
            InstData::Binary {
                op: BinaryOp::Ishl,
                args,
            } => constant(args[1]).is_some_and(|c| c < 64 && (1u64 << c) % m == 0) || rec(args[0]),
            InstData::Binary {
                op: BinaryOp::Iadd | BinaryOp::Isub,
                args,
            } => rec(args[0]) && rec(args[1]),
            InstData::Convert {
                op: ConvertOp::Sext | ConvertOp::Zext,
                arg,
                ..
            } => rec(*arg),
            _ => false,
        }
    }

    /// `ptr`'s lanes as `<W x i64>` addresses.
    fn addresses(&mut self, ptr: Value) -> V {
        let i64t = self.l.i64();
        match self.get(ptr) {
            Repr::Scalar(p) => {
                let p = self.l.cast(LLVMOpcode::LLVMPtrToInt, p, i64t);
                self.l.splat(p, self.w)
            }
            Repr::Vector(p) => self
                .l
                .cast(LLVMOpcode::LLVMPtrToInt, p, self.l.vec(i64t, self.w)),
        }
    }

    /// A vector stored in gang memory (for the runtime to read).
    fn spill(&mut self, v: V) -> V {
        let t = self.l.type_of(v);
        let mem = self.gang_memory(t);
        self.l.store(v, mem, 8);
        mem
    }

    /// The start (scalar, or per lane for private arrays), size (`i64`),
    /// name and flags (arguments) of the object `root`.
    fn object(&mut self, root: Root) -> Option<(Repr, V, CheckObject, Option<V>)> {
        let i64t = self.l.i64();
        match root {
            Root::Arg(i) => {
                let entry = self.func.entry_block()?;
                let p = *self.func.blocks[entry].params.get(i as usize)?;
                let Some(Repr::Scalar(base)) = self.direct[p] else {
                    return None;
                };
                let known = self.checks.as_ref()?.args.get(&i).copied();
                let (size, flags) = match known {
                    Some(x) => x,
                    None => {
                        let x = self.in_allocas(|e| {
                            let info = e.ctx_field_ptr(offsets::ARG_INFO);
                            let at = |e: &Self, k: u64| {
                                let p = e.l.gep_i8(info, e.l.const_int(i64t, k));
                                e.l.load(i64t, p, 8)
                            };
                            (at(e, 16 * i as u64), at(e, 16 * i as u64 + 8))
                        });
                        self.checks.as_mut()?.args.insert(i, x);
                        x
                    }
                };
                Some((Repr::Scalar(base), size, CheckObject::Arg(i), Some(flags)))
            }
            Root::Global(g) => {
                let index = cranelift_entity::EntityRef::index(g);
                let size = *self.checks.as_ref()?.global_sizes.get(index)?;
                let known = self.checks.as_ref()?.globals.get(&(index as u32)).copied();
                let base = match known {
                    Some(b) => b,
                    None => {
                        let b = self.in_allocas(|e| e.global_address(g));
                        self.checks.as_mut()?.globals.insert(index as u32, b);
                        b
                    }
                };
                Some((
                    Repr::Scalar(base),
                    self.l.const_int(i64t, size),
                    CheckObject::Global(index as u32),
                    None,
                ))
            }
            Root::Stack(slot) => {
                let index = cranelift_entity::EntityRef::index(slot) as u32;
                let size = self.func.stack_slots[slot].size as u64;
                let known = self.checks.as_ref()?.stacks.get(&index).copied();
                let bases = match known {
                    Some(b) => b,
                    None => {
                        let (base, per_lane) = self.stack[slot]?;
                        let b = self.in_allocas(|e| {
                            let offs: Vec<V> = (0..e.w)
                                .map(|l| e.l.const_int(i64t, l as u64 * per_lane))
                                .collect();
                            let offs = e.l.const_vector(&offs);
                            let bases = e.l.splat(base, e.w);
                            e.l.gep_i8(bases, offs)
                        });
                        self.checks.as_mut()?.stacks.insert(index, b);
                        b
                    }
                };
                Some((
                    Repr::Vector(bases),
                    self.l.const_int(i64t, size),
                    CheckObject::Stack(index),
                    None,
                ))
            }
            Root::None | Root::Unknown => {
                if let Some(c) = self.checks.as_mut() {
                    c.unchecked += 1;
                }
                None
            }
        }
    }
}
