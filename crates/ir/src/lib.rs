//! Lockstep IR: the scalar SSA form every Lockstep stage works on.
//!
//! # The IR manual
//!
//! **Shape.** A [`Module`] holds kernels and helper functions
//! ([`Function`]) and program-scope variables ([`GlobalData`]). A function is
//! a list of basic blocks in SSA form with *block parameters* instead of phi
//! nodes (as in Cranelift): a branch passes one argument per parameter of its
//! target. The first block of the layout is the entry block; its parameters
//! are the function's parameters, and no branch may target it.
//!
//! **Scalar.** Every value is a scalar of a [`Type`]: `i1 i8 i16 i32 i64`,
//! `f16 f32 f64`, or a pointer `ptr.<space>`. OpenCL vectors are split into
//! one value per component by the front end; the SIMD engine later widens
//! *work-items* into lanes, not components (Beignet's choice: keep the IR
//! simpler than the target).
//!
//! **Address spaces.** Pointers are 64 bits and carry one of `private`
//! (per work-item: stack slots, byval arguments), `global`, `constant`
//! (read-only), `local` (per work-group) or `generic`. `ptradd` moves a
//! pointer by a byte offset within its space; `addrspacecast` converts to and
//! from `generic`.
//!
//! **Integers** have no signedness; operations that care say so (`sdiv`,
//! `ushr`, `icmp slt`). Division by zero, `INT_MIN / -1` and out-of-range
//! float-to-int conversions give unspecified values but never trap; shift
//! amounts are taken modulo the bit width (OpenCL's rule).
//!
//! **Work-items.** Work-item functions are instructions (`global_id 0`,
//! `local_size 1`, `work_dim`); they give `i64` (`size_t`), `work_dim` `i32`.
//! `barrier` synchronizes the work-group; atomics carry an order and a scope.
//!
//! **Masks and barriers.** The IR has no mask type: a mask is an `i1` value,
//! per work-item. Before linearization a branch on an `i1` may diverge across
//! a gang of work-items; after it (phase `linearized`) every branch is
//! uniform and divergent choices are `select`s. Barriers may appear anywhere
//! in the `imported` and `normalized` phases; the pass `split_barriers`
//! turns each into a *suspend point*, the terminator
//! `suspend flags, scope, blockN(args…)`: the barrier, then a jump whose
//! arguments are the whole state a gang keeps across it (what is live there
//! and not cheaper to compute again). Nothing an instruction defined before
//! a suspend point is used after it except through those arguments; the
//! function's parameters stay available. So a gang can stop at a suspend
//! point, keep only its arguments, and resume at its target once every gang
//! of the work-group has arrived.
//!
//! **Gang-level IR.** A function with `gang W` in its header (phase
//! `linearized`) runs a *gang* of W work-items (4, 8, 16 or 32), one per
//! SIMD lane, rather than one work-item. Each value is either *uniform*
//! (one for the gang, written `T`) or *per-lane* (one element per lane,
//! written `<T>`, kept in [`Function::varying`]); private memory stays per
//! work-item, so a uniform `ptr.private` is the same place in each lane's
//! own private memory. Instructions work lane by
//! lane: an operation with a per-lane operand gives a per-lane result (a
//! uniform operand stands for the same value in every lane), and a uniform
//! value may be passed where a per-lane one is expected, not the other way.
//! A *mask* is a per-lane `i1`. Lanes meet only through the gang
//! operations ([`GangOp`]): `any`/`all` of a mask, `first_lane`, `count`,
//! `ballot`, `lane_id`, `active_lanes` (the lanes that hold a work-item),
//! `broadcast` of one lane, `shuffle`, and the reductions (`reduce_add`,
//! `reduce_smin`, …, clustered or not) and inclusive and exclusive scans
//! (`scan_add`, `scan_excl_add`, …) over the lanes of a mask. Branches,
//! switches and returns are on uniform values: divergence is expressed by
//! masks. A memory access, atomic, `printf` or device enqueue operation
//! may be *predicated*,
//! `store v1, v2, align 4 if v3`: it takes effect only in the lanes where
//! the mask `v3` is set (a predicated load gives zero in the others); an
//! unpredicated one acts in every lane, those past the end of the
//! work-group included. A predicated instruction whose operands and
//! result are all uniform acts once for the gang, if the mask is set in
//! any lane (a scalar access under a mask test). A stack slot may be
//! `interleaved E` (lane `l`'s element `i` of E bytes beside the other
//! lanes' element `i`) when every access to it moves one aligned element
//! ([`private::private_accesses`]). The gang's state across a
//! barrier is a suspend point's arguments, as above. The verifier checks
//! these rules; the interpreter runs gang-level IR too (a work-group as
//! gangs of W consecutive work-items by local linear id), checking that
//! uniform values agree in every lane.
//!
//! **Subgroups.** An OpenCL subgroup is a gang: W consecutive work-items
//! of a work-group by local linear id, W the gang width the kernel runs at
//! (every engine uses the same W; the interpreter is told it), the last
//! subgroup smaller when W does not divide the group's size. The subgroup
//! queries are work-item queries (`sub_group_id`, `sub_group_local_id`,
//! `sub_group_size`, …, giving `i32`). In scalar IR a subgroup collective
//! is `sub_group OP args` (see [`InstData::SubGroup`]): a gang operation
//! among the work-items of the subgroup that reach it together (which,
//! as in a gang, are those whose lanes would be set in the block's mask:
//! after a divergent branch, the work-items of the subgroup that took the
//! same side; in a loop, those in the same iteration). `linearize` makes
//! it the gang operation with the block's mask. (Block-IP, which may run
//! lanes of different iterations of a divergent loop together, gives a
//! non-uniform collective in such a loop all of them: also a valid
//! grouping, but not the interpreter's.) Lane refill mixes
//! work-items of unrelated places in one gang, so a kernel with a
//! subgroup collective or query never runs with it.
//!
//! **Phases** ([`Phase`]), in pipeline order: `imported` allows every
//! construct; `normalized` (what the analyses and the later passes expect)
//! has calls inlined, a single `return`, and `switch` only on values uniform
//! across a gang; `split` has every `barrier` replaced by a `suspend`;
//! `linearized` has divergent control flow replaced by masks. The verifier
//! checks what each phase allows (no call from `normalized` on, no
//! `barrier` from `split` on, no `suspend` before it); the pipeline of
//! `lockstep-passes` also checks that nothing but a suspend point's
//! arguments is live into its target.
//!
//! **Text format.** [`print`] and [`parse`] round-trip exactly; see the
//! `print` module for an example. [`verify`] checks a function or module and
//! reports errors against the printed instruction.

pub mod abi;
pub mod builder;
pub mod device_op;
pub mod entities;
pub mod function;
pub mod gang;
pub mod instructions;
pub mod limits;
pub mod module;
mod named_enum;
mod operands;
pub mod parse;
pub mod print;
pub mod private;
pub mod types;
pub mod verify;

pub use builder::FuncBuilder;
pub use entities::{Block, FuncId, GlobalId, Inst, StackSlot, Value};
pub use function::{
    BlockData, Function, Phase, Signature, SourceLoc, StackSlotData, ValueData, ValueDef,
};
pub use gang::Collective;
pub use instructions::{
    AtomicRmwOp, BinaryOp, BlockCall, Combine, ConvertOp, DeviceOp, FenceFlags, FloatCC, GangOp,
    InstData, IntCC, MemOrder, MemScope, Rounding, TernaryOp, UnaryOp, WorkItemQuery,
};
pub use limits::TooLarge;
pub use module::{AccessQual, ArgInfo, ByVal, GlobalData, KernelInfo, Module, Reloc, TypeQuals};
pub use parse::{parse_function, parse_module, ParseError};
pub use print::{function_to_string, module_to_string};
pub use types::{AddrSpace, Type};
pub use verify::{verify_function, verify_module, VerifierError, VerifierErrors};
