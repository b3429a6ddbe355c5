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

use llvm_sys::LLVMIntPredicate::{LLVMIntNE, LLVMIntUGE, LLVMIntULE, LLVMIntULT};
use llvm_sys::LLVMOpcode;
use lockstep_ir::abi::{arg_flags, offsets, runtime_symbols, CheckInfo, CheckObject};
use lockstep_ir::{self as ir, InstData, Type, Value};
use lockstep_passes::analysis::{Provenance, Root};

use super::llvm::V;
use super::{Emitter, Repr};

/// What checked code needs beside the emitter's state.
pub(crate) struct Checks {
    prov: Provenance,
    /// Size of each program-scope and `__local` variable, by index.
    global_sizes: Vec<u64>,
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
            args: HashMap::new(),
            globals: HashMap::new(),
            stacks: HashMap::new(),
            zeros: None,
            unchecked: 0,
        }
    }
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
    /// returns the mask it may run under (the current mask without the
    /// lanes that would leave their object), or `None` if it is not a
    /// memory access or cannot be checked. For a uniform load it also sets
    /// `self.redirect` (the load reads zeros instead where it would fault).
    pub(super) fn check_access(&mut self, inst: ir::Inst, data: &InstData) -> Option<V> {
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
        let mut checked_any = false;
        for (k, a) in accesses.iter().enumerate() {
            if let Some(ok) = self.check_one(inst, k as u64, a) {
                mask = self.l.and(mask, ok);
                checked_any = true;
            }
        }
        if !checked_any {
            return None;
        }
        if let InstData::Load { ptr, .. } = data {
            if self.use_shape(*ptr).is_uniform() && !self.private_ptrs.contains_key(ptr) {
                // All lanes share the address: lane 0's verdict is theirs.
                let inb = self.l.extract(mask, 0);
                let any_active = self.any(self.mask);
                let inb = self.l.or(inb, self.l.not(any_active));
                self.redirect = Some(inb);
            }
        }
        Some(mask)
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
    fn check_one(&mut self, inst: ir::Inst, k: u64, a: &AccessToCheck) -> Option<V> {
        let i64t = self.l.i64();
        let w = self.w;
        let vi64 = self.l.vec(i64t, w);
        let space = match self.func.value_type(a.ptr) {
            Type::Ptr(s) => s,
            _ => return None,
        };
        let root = self.checks.as_ref()?.prov.root(a.ptr);
        // The lanes' offsets from their object's start, the object's size,
        // and (arguments) its flags.
        let (offs, size, object, flags) = if let Some(&(slot, off)) = self.private_ptrs.get(&a.ptr)
        {
            let offs = match off {
                Repr::Scalar(o) => self.l.splat(o, w),
                Repr::Vector(o) => o,
            };
            let size = self.func.stack_slots[slot].size as u64;
            (
                offs,
                self.l.const_int(i64t, size),
                CheckObject::Stack(cranelift_entity::EntityRef::index(slot) as u32),
                None,
            )
        } else {
            let (base, size, object, flags) = self.object(root)?;
            let addrs = self.addresses(a.ptr);
            let base = match base {
                Repr::Scalar(b) => {
                    let b = self.l.cast(LLVMOpcode::LLVMPtrToInt, b, i64t);
                    self.l.splat(b, w)
                }
                Repr::Vector(b) => self.l.cast(LLVMOpcode::LLVMPtrToInt, b, vi64),
            };
            (self.l.sub(addrs, base), size, object, flags)
        };
        // In bounds: off + size <= object size, without overflow.
        let inb = match a.len {
            None => {
                let acc = self.l.const_int(i64t, a.size);
                let fits = self.l.icmp(LLVMIntUGE, size, acc);
                let room = self.l.sub(size, acc);
                let one = self.l.const_int(i64t, 1);
                let bound = self
                    .l
                    .select(fits, self.l.add(room, one), self.l.const_int(i64t, 0));
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
        let addrs = self.addresses(a.ptr);
        let align = a.align.min(a.size.max(1));
        let misaligned = if align > 1 && align.is_power_of_two() {
            let low = self
                .l
                .and(addrs, self.l.splat(self.l.const_int(i64t, align - 1), w));
            let zero = self.l.const_null(vi64);
            self.l.icmp(LLVMIntNE, low, zero)
        } else {
            self.l.const_null(self.l.vec(self.l.i1(), w))
        };
        let mode = match flags {
            Some(f) => {
                let bit = if a.write {
                    arg_flags::READ_ONLY
                } else {
                    arg_flags::WRITE_ONLY
                };
                let set = self.l.and(f, self.l.const_int(i64t, bit));
                let bad = self.l.icmp(LLVMIntNE, set, self.l.const_int(i64t, 0));
                Some(self.l.splat(bad, w))
            }
            None => None,
        };
        let mask = self.mask;
        let oob = self.l.and(mask, self.l.not(inb));
        let mis = self.l.and(mask, misaligned);
        let mode = mode.map(|m| self.l.and(mask, m));
        let mut bad = self.l.or(oob, mis);
        if let Some(m) = mode {
            bad = self.l.or(bad, m);
        }
        let any_bad = self.any(bad);
        let (report, go_on) = (
            self.l.append_block(self.f, "check.failed"),
            self.l.append_block(self.f, "check.ok"),
        );
        self.l.cond_br(any_bad, report, go_on);
        self.l.position_at_end(report);
        let info = CheckInfo {
            size: a.size as u32,
            write: a.write,
            space,
            object,
            line: self.func.srclocs[inst].map_or(0, |l| l.line),
        };
        let zero_bits = self.l.const_int(i64t, 0);
        let bits = |e: &Self, m: V| {
            let b = e.mask_bits(m);
            e.l.cast(LLVMOpcode::LLVMZExt, b, i64t)
        };
        let (oob_bits, mis_bits) = (bits(self, oob), bits(self, mis));
        let mode_bits = mode.map_or(zero_bits, |m| bits(self, m));
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
        self.l.br(go_on);
        self.l.position_at_end(go_on);
        Some(inb)
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
