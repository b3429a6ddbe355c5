//! The core subgroup builtins (`__opencl_c_subgroups`, `cl_intel_subgroups`
//! and the `cl_khr_subgroup_*` extensions) and
//! the work-group collectives built on them.
//!
//! **Subgroups.** The core subgroup builtins:
//! subgroup collectives of the IR (`sub_group OP`), one per component of a
//! vector. The other subgroup functions (shuffle_xor/up/down, the ballot
//! helpers, elect, all_equal, broadcast_first, `intel_sub_group_*`) are
//! written with these in the builtin library (`builtins/subgroups.cl`).
//! The subgroup queries are work-item queries (`calls.rs`).
//!
//! | builtin | IR |
//! |---|---|
//! | `sub_group_all`, `_any` (and `_non_uniform_`) | `sub_group all`/`any` of `p != 0`, as `int` |
//! | `sub_group_ballot(p)` | `(uint4)(sub_group ballot (p != 0), 0, 0, 0)` |
//! | `sub_group_broadcast`, `_non_uniform_broadcast` | `sub_group broadcast` |
//! | `sub_group_shuffle` | `sub_group shuffle` |
//! | `sub_group_[non_uniform_]reduce_OP`, `_scan_{in,ex}clusive_OP` | `sub_group reduce_OP`, `scan_OP`, `scan_excl_OP` |
//! | `sub_group_clustered_reduce_OP(x, c)` | `sub_group reduce_OP x, c` (`c` constant) |
//! | `sub_group_barrier(flags[, scope])` | a fence, and `sub_group all true` (unused): the subgroup meets |
//!
//! `min`/`max` are signed, unsigned or float by the mangled parameter
//! type; `logical_and`/`_or`/`_xor` combine `p != 0` as `int` with
//! `and`/`or`/`xor`.
//!
//! **Work-group collectives** (`work_group_reduce_OP`,
//! `_scan_{in,ex}clusive_OP`, `_all`, `_any`, `_broadcast`): each
//! subgroup reduces (and scans) its values with one gang operation, its
//! first work-item stores the subgroup's partial in a hidden `__local`
//! array (one slot per subgroup, as wide as the value); a barrier; the
//! first subgroup (one gang, behind a uniform branch) takes the partials W
//! at a time with vector loads and combines them with gang operations,
//! writing their total to a result slot (a reduction) or each partial's
//! exclusive prefix to a second area (a scan); a barrier; every work-item
//! reads the total, or its subgroup's prefix combined with its own scan
//! within the subgroup. Partials and results live in separate areas, so
//! that the next collective cannot overwrite what others still read
//! without a third barrier (see `Area`). That is O(local size / W) gang
//! steps per work-group, where the serial version took O(local size) in
//! work-item 0. `work_group_broadcast` has the source work-item store its
//! value and every work-item load it, between two barriers.

use lockstep_ir::{
    self as ir, BinaryOp, BlockCall, Collective, Combine, ConvertOp, FenceFlags, GangOp, InstData,
    IntCC, MemOrder, MemScope, Type, WorkItemQuery,
};

use super::function::FnImp;
use crate::error::CompileResult;
use crate::llvm::Val;

/// The kind of scalar a mangled parameter list starts with (after a vector
/// prefix `Dv<N>_`): signed, unsigned or float.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    Signed,
    Unsigned,
    Float,
}

fn first_param_kind(params: &str) -> Kind {
    let scalar = match params.strip_prefix("Dv") {
        Some(rest) => rest.split_once('_').map_or(rest, |(_, t)| t),
        None => params,
    };
    match scalar.as_bytes().first() {
        Some(b'f' | b'd') | Some(b'D') => Kind::Float,
        Some(b'c' | b'a' | b's' | b'i' | b'l' | b'x') => Kind::Signed,
        _ => Kind::Unsigned,
    }
}

/// Maps the core subgroup builtin `base` (mangled parameters `params`), or
/// returns `None` if it is not one.
pub(super) fn sub_group(
    fi: &mut FnImp,
    base: &str,
    params: &str,
    args: &[Val],
) -> Option<CompileResult<Vec<ir::Value>>> {
    let rest = base.strip_prefix("sub_group_")?;
    let rest = rest.strip_prefix("non_uniform_").unwrap_or(rest);
    Some(match rest {
        "barrier" => sub_group_barrier(fi, args),
        "all" | "any" => {
            let op = if rest == "all" {
                GangOp::All
            } else {
                GangOp::Any
            };
            vote(fi, op, args)
        }
        "ballot" => ballot(fi, args),
        "broadcast" => per_component(fi, GangOp::Broadcast, args),
        "shuffle" => per_component(fi, GangOp::Shuffle, args),
        _ => return collective(fi, rest, params, args),
    })
}

/// `p != 0` for an `int` predicate.
fn predicate(fi: &mut FnImp, p: Val) -> CompileResult<ir::Value> {
    let p = fi.scalar(p)?;
    let ty = fi.ty(p);
    if ty == Type::I1 {
        return Ok(p);
    }
    let zero = fi.iconst(ty, 0);
    Ok(fi.icmp(IntCC::Ne, p, zero))
}

fn sub_group_inst(fi: &mut FnImp, op: GangOp, args: Vec<ir::Value>, ty: Type) -> ir::Value {
    fi.val(InstData::SubGroup { op, args }, ty)
}

fn vote(fi: &mut FnImp, op: GangOp, args: &[Val]) -> CompileResult<Vec<ir::Value>> {
    let p = predicate(fi, args[0])?;
    let r = sub_group_inst(fi, op, vec![p], Type::I1);
    Ok(vec![fi.convert(ConvertOp::Zext, Type::I32, r)])
}

fn ballot(fi: &mut FnImp, args: &[Val]) -> CompileResult<Vec<ir::Value>> {
    let p = predicate(fi, args[0])?;
    let bits = sub_group_inst(fi, GangOp::Ballot, vec![p], Type::I32);
    let zero = fi.iconst(Type::I32, 0);
    Ok(vec![bits, zero, zero, zero])
}

/// A subgroup barrier: the work-items of the subgroup meet (a collective
/// whose result nothing uses; a gang runs in lockstep anyway) with the
/// fence of its flags.
fn sub_group_barrier(fi: &mut FnImp, args: &[Val]) -> CompileResult<Vec<ir::Value>> {
    let flags = match args.first().and_then(|a| a.const_int()) {
        Some(bits) => FenceFlags(bits as u8 & 7),
        None => FenceFlags(FenceFlags::LOCAL.0 | FenceFlags::GLOBAL.0),
    };
    fi.emit(
        InstData::Fence {
            flags,
            order: MemOrder::AcqRel,
            scope: MemScope::SubGroup,
        },
        None,
    );
    let yes = fi.iconst(Type::I1, 1);
    sub_group_inst(fi, GangOp::All, vec![yes], Type::I1);
    Ok(vec![])
}

/// `broadcast` or `shuffle` of each component of `args[0]` from the lane
/// `args[1]`.
fn per_component(fi: &mut FnImp, op: GangOp, args: &[Val]) -> CompileResult<Vec<ir::Value>> {
    let xs = fi.operand(args[0])?;
    let lane = fi.scalar(args[1])?;
    let lane = match fi.ty(lane) {
        Type::I32 => lane,
        Type::I64 => fi.convert(ConvertOp::Trunc, Type::I32, lane),
        _ => fi.convert(ConvertOp::Zext, Type::I32, lane),
    };
    Ok(xs
        .into_iter()
        .map(|x| {
            let ty = fi.ty(x);
            sub_group_inst(fi, op, vec![x, lane], ty)
        })
        .collect())
}

/// `reduce_OP`, `scan_inclusive_OP`, `scan_exclusive_OP`,
/// `clustered_reduce_OP`.
fn collective(
    fi: &mut FnImp,
    rest: &str,
    params: &str,
    args: &[Val],
) -> Option<CompileResult<Vec<ir::Value>>> {
    let (kind, op) = if let Some(op) = rest.strip_prefix("reduce_") {
        (Collective::Reduce, op)
    } else if let Some(op) = rest.strip_prefix("clustered_reduce_") {
        (Collective::Reduce, op)
    } else if let Some(op) = rest.strip_prefix("scan_inclusive_") {
        (Collective::Scan, op)
    } else if let Some(op) = rest.strip_prefix("scan_exclusive_") {
        (Collective::ScanExcl, op)
    } else {
        return None;
    };
    let clustered = rest.starts_with("clustered_");
    let param_kind = first_param_kind(params);
    let (combine, logical) = match (op, param_kind) {
        ("add", _) => (Combine::Add, false),
        ("mul", _) => (Combine::Mul, false),
        ("min", Kind::Float) => (Combine::Fmin, false),
        ("max", Kind::Float) => (Combine::Fmax, false),
        ("min", Kind::Signed) => (Combine::Smin, false),
        ("max", Kind::Signed) => (Combine::Smax, false),
        ("min", Kind::Unsigned) => (Combine::Umin, false),
        ("max", Kind::Unsigned) => (Combine::Umax, false),
        ("and", _) => (Combine::And, false),
        ("or", _) => (Combine::Or, false),
        ("xor", _) => (Combine::Xor, false),
        ("logical_and", _) => (Combine::And, true),
        ("logical_or", _) => (Combine::Or, true),
        ("logical_xor", _) => (Combine::Xor, true),
        _ => return None,
    };
    Some((|| {
        let x = if logical {
            let p = predicate(fi, args[0])?;
            fi.convert(ConvertOp::Zext, Type::I32, p)
        } else {
            fi.scalar(args[0])?
        };
        let mut operands = vec![x];
        if clustered {
            let Some(size) = args.get(1).and_then(|c| c.const_int()) else {
                return Err(fi.imp.unsupported(
                    format!("sub_group_{rest} with a cluster size that is not a constant"),
                    fi.loc,
                ));
            };
            if !size.is_power_of_two() {
                return Err(fi.imp.unsupported(
                    format!("sub_group_{rest} with a cluster size of {size} (a power of two)"),
                    fi.loc,
                ));
            }
            // A cluster at least as large as the largest subgroup (32) is
            // the whole subgroup (larger ones occur in code that checks the
            // subgroup size at run time before using them).
            operands.push(fi.iconst(Type::I32, size.min(32)));
        }
        let ty = fi.ty(x);
        let op = GangOp::of_collective(kind, combine);
        let r = sub_group_inst(fi, op, operands, ty);
        if !logical {
            return Ok(vec![r]);
        }
        // 0 or 1: an exclusive scan gives its first work-item the
        // identity, all ones for `and`.
        let zero = fi.iconst(Type::I32, 0);
        let p = fi.icmp(IntCC::Ne, r, zero);
        Ok(vec![fi.convert(ConvertOp::Zext, Type::I32, p)])
    })())
}

// ---------------------------------------------------------------------------
// Work-group collectives
// ---------------------------------------------------------------------------

/// `op` of two scalars.
fn combine(fi: &mut FnImp, op: Combine, a: ir::Value, b: ir::Value) -> ir::Value {
    let bop = op.binary_op(fi.ty(a).is_float());
    fi.binary(bop, a, b)
}

fn identity(fi: &mut FnImp, op: Combine, ty: Type) -> ir::Value {
    let bits = op.identity(ty);
    if ty.is_float() {
        fi.val(InstData::Fconst { bits }, ty)
    } else {
        fi.iconst(ty, bits)
    }
}

fn query(fi: &mut FnImp, query: WorkItemQuery) -> ir::Value {
    fi.val(InstData::WorkItem { query, dim: 0 }, query.result_type())
}

fn to(block: ir::Block, args: Vec<ir::Value>) -> BlockCall {
    BlockCall { block, args }
}

fn work_group_barrier(fi: &mut FnImp) {
    fi.emit(
        InstData::Barrier {
            flags: FenceFlags::LOCAL,
            scope: MemScope::WorkGroup,
        },
        None,
    );
}

/// The two areas of the hidden `__local` array. A collective writes
/// [`Area::Partials`] only before its first barrier, and reads it only
/// between its first and second barriers; it writes [`Area::Results`] only
/// between those two barriers, and reads it only after the second, until
/// the next collective's first barrier. So no work-item writes what another
/// may still read, without a barrier at the end of a reduction or scan.
#[derive(Copy, Clone)]
enum Area {
    /// One partial per subgroup (and `work_group_broadcast`'s value).
    Partials,
    /// A reduction's total, or each subgroup's exclusive prefix for a scan.
    Results,
}

/// Slot `i` (an `i32`; `None`: 0) of `area`, for values of `ty`: slots are
/// as wide as the values, so that a gang's lanes reading consecutive slots
/// make one vector access. Each area has room for a gang's width of slots
/// past the last subgroup, which the loop over the partials reads (and
/// writes) without clamping its index.
fn slot(
    fi: &mut FnImp,
    scratch: ir::GlobalId,
    area: Area,
    i: Option<ir::Value>,
    ty: Type,
) -> ir::Value {
    let local = Type::Ptr(ir::AddrSpace::Local);
    let base = fi.val(InstData::GlobalAddr { global: scratch }, local);
    let start = match area {
        Area::Partials => 0,
        Area::Results => super::WORK_GROUP_SCRATCH_AREA,
    };
    let offset = match i {
        Some(i) => {
            let wide = fi.convert(ConvertOp::Zext, Type::I64, i);
            let size = fi.iconst(Type::I64, u64::from(ty.bytes()));
            let at = fi.binary(BinaryOp::Imul, wide, size);
            if start == 0 {
                at
            } else {
                let start = fi.iconst(Type::I64, start);
                fi.binary(BinaryOp::Iadd, start, at)
            }
        }
        None => fi.iconst(Type::I64, start),
    };
    fi.val(
        InstData::PtrAdd {
            args: [base, offset],
        },
        local,
    )
}

fn load(fi: &mut FnImp, ptr: ir::Value, ty: Type) -> ir::Value {
    fi.val(
        InstData::Load {
            ptr,
            align: ty.bytes(),
            volatile: false,
        },
        ty,
    )
}

fn store(fi: &mut FnImp, value: ir::Value, ptr: ir::Value) {
    let align = fi.ty(value).bytes();
    fi.emit(
        InstData::Store {
            args: [value, ptr],
            align,
            volatile: false,
        },
        None,
    );
}

/// Runs `then` in the work-items where `cond` holds.
fn when(fi: &mut FnImp, cond: ir::Value, then: impl FnOnce(&mut FnImp)) {
    let (inside, after) = (fi.new_block(), fi.new_block());
    fi.emit(
        InstData::Brif {
            cond,
            then_dest: to(inside, vec![]),
            else_dest: to(after, vec![]),
        },
        None,
    );
    fi.switch_to(inside);
    then(fi);
    fi.emit(
        InstData::Jump {
            dest: to(after, vec![]),
        },
        None,
    );
    fi.switch_to(after);
}

/// A loop over the partials in slots `0..count` (an `i32`, the same in
/// the whole subgroup), this subgroup's size of them at a time, each lane
/// one: `step` gets the chunk's values (the identity past `count`), the
/// slot index and the carried value, and gives the next carried value; the
/// loop gives the last. Lanes past `count` read the slots after it, which
/// the area has room for: a vector load, where a clamped index would make
/// a gather.
fn over_partials(
    fi: &mut FnImp,
    scratch: ir::GlobalId,
    op: Combine,
    ty: Type,
    count: ir::Value,
    step: impl FnOnce(&mut FnImp, ir::Value, ir::Value, ir::Value) -> ir::Value,
) -> ir::Value {
    let lid = query(fi, WorkItemQuery::SubGroupLocalId);
    let size = query(fi, WorkItemQuery::SubGroupSize);
    let zero = fi.iconst(Type::I32, 0);
    let start = identity(fi, op, ty);
    let (head, body, exit) = (fi.new_block(), fi.new_block(), fi.new_block());
    fi.emit(
        InstData::Jump {
            dest: to(head, vec![zero, start]),
        },
        None,
    );
    fi.switch_to(head);
    let base = fi.func.append_block_param(head, Type::I32);
    let carried = fi.func.append_block_param(head, ty);
    let more = fi.icmp(IntCC::Ult, base, count);
    fi.emit(
        InstData::Brif {
            cond: more,
            then_dest: to(body, vec![]),
            else_dest: to(exit, vec![carried]),
        },
        None,
    );
    fi.switch_to(body);
    let index = fi.binary(BinaryOp::Iadd, base, lid);
    let valid = fi.icmp(IntCC::Ult, index, count);
    let at = slot(fi, scratch, Area::Partials, Some(index), ty);
    let partial = load(fi, at, ty);
    let none = identity(fi, op, ty);
    let v = fi.select(valid, partial, none);
    let next = step(fi, v, index, carried);
    let next_base = fi.binary(BinaryOp::Iadd, base, size);
    fi.emit(
        InstData::Jump {
            dest: to(head, vec![next_base, next]),
        },
        None,
    );
    fi.switch_to(exit);
    fi.func.append_block_param(exit, ty)
}

/// The OpenCL 2.0 work-group collectives (see the module docs).
pub(super) fn work_group(
    fi: &mut FnImp,
    base: &str,
    params: &str,
    args: &[Val],
) -> CompileResult<Vec<ir::Value>> {
    let what = &base["work_group_".len()..];
    let Some(scratch) = fi.imp.work_group_scratch else {
        return Err(super::calls::undefined(fi, base));
    };
    if what == "broadcast" {
        return work_group_broadcast(fi, scratch, args);
    }
    let (kind, op, logical) = match what {
        "all" => (Collective::Reduce, Combine::And, true),
        "any" => (Collective::Reduce, Combine::Or, true),
        _ => {
            let (kind, name) = if let Some(n) = what.strip_prefix("reduce_") {
                (Collective::Reduce, n)
            } else if let Some(n) = what.strip_prefix("scan_inclusive_") {
                (Collective::Scan, n)
            } else if let Some(n) = what.strip_prefix("scan_exclusive_") {
                (Collective::ScanExcl, n)
            } else {
                return Err(super::calls::undefined(fi, base));
            };
            let op = match (name, first_param_kind(params)) {
                ("add", _) => Combine::Add,
                ("min", Kind::Float) => Combine::Fmin,
                ("max", Kind::Float) => Combine::Fmax,
                ("min", Kind::Signed) => Combine::Smin,
                ("max", Kind::Signed) => Combine::Smax,
                ("min", Kind::Unsigned) => Combine::Umin,
                ("max", Kind::Unsigned) => Combine::Umax,
                _ => return Err(super::calls::undefined(fi, base)),
            };
            (kind, op, false)
        }
    };
    let x = if logical {
        let p = predicate(fi, args[0])?;
        fi.convert(ConvertOp::Zext, Type::I32, p)
    } else {
        fi.scalar(args[0])?
    };
    let ty = fi.ty(x);
    let sg = query(fi, WorkItemQuery::SubGroupId);
    let lid = query(fi, WorkItemQuery::SubGroupLocalId);
    // This subgroup's part: its reduction, and for a scan each work-item's
    // prefix within the subgroup.
    let within = match kind {
        Collective::Reduce => None,
        k => Some(sub_group_inst(
            fi,
            GangOp::of_collective(k, op),
            vec![x],
            ty,
        )),
    };
    let partial = sub_group_inst(
        fi,
        GangOp::of_collective(Collective::Reduce, op),
        vec![x],
        ty,
    );
    let zero = fi.iconst(Type::I32, 0);
    let first = fi.icmp(IntCC::Eq, lid, zero);
    when(fi, first, |fi| {
        let at = slot(fi, scratch, Area::Partials, Some(sg), ty);
        store(fi, partial, at);
    });
    work_group_barrier(fi);
    // The first subgroup (a uniform branch: one gang) combines the
    // partials: their total into the result slot, or each one's exclusive
    // prefix into the prefix slots (past the last one too: nobody reads
    // those).
    let count = query(fi, WorkItemQuery::NumSubGroups);
    let first_subgroup = fi.icmp(IntCC::Eq, sg, zero);
    let reduce = GangOp::of_collective(Collective::Reduce, op);
    let scan_excl = GangOp::of_collective(Collective::ScanExcl, op);
    let scan = within.is_some();
    when(fi, first_subgroup, |fi| {
        let total = over_partials(fi, scratch, op, ty, count, |fi, v, index, carry| {
            let chunk = sub_group_inst(fi, reduce, vec![v], ty);
            if scan {
                let below = sub_group_inst(fi, scan_excl, vec![v], ty);
                let prefix = combine(fi, op, carry, below);
                let at = slot(fi, scratch, Area::Results, Some(index), ty);
                store(fi, prefix, at);
            }
            combine(fi, op, carry, chunk)
        });
        if !scan {
            let lid = query(fi, WorkItemQuery::SubGroupLocalId);
            let zero = fi.iconst(Type::I32, 0);
            let first = fi.icmp(IntCC::Eq, lid, zero);
            when(fi, first, |fi| {
                let at = slot(fi, scratch, Area::Results, None, ty);
                store(fi, total, at);
            });
        }
    });
    work_group_barrier(fi);
    // No barrier after the reads: see `Area`.
    let r = match within {
        None => {
            let at = slot(fi, scratch, Area::Results, None, ty);
            load(fi, at, ty)
        }
        Some(prefix) => {
            let at = slot(fi, scratch, Area::Results, Some(sg), ty);
            let before = load(fi, at, ty);
            combine(fi, op, before, prefix)
        }
    };
    Ok(vec![r])
}

/// `work_group_broadcast(x, id...)`: the work-item with local id `id`
/// stores `x` in the result slot, a barrier, every work-item loads it, a
/// barrier.
fn work_group_broadcast(
    fi: &mut FnImp,
    scratch: ir::GlobalId,
    args: &[Val],
) -> CompileResult<Vec<ir::Value>> {
    let x = fi.scalar(args[0])?;
    let ids: Vec<ir::Value> = args[1..]
        .iter()
        .map(|&a| fi.scalar(a))
        .collect::<Result<_, _>>()?;
    // The source's local linear id from its 1-3 local ids.
    let mut target = ids[ids.len() - 1];
    for d in (0..ids.len() - 1).rev() {
        let size = fi.val(
            InstData::WorkItem {
                query: WorkItemQuery::LocalSize,
                dim: d as u8,
            },
            Type::I64,
        );
        let scaled = fi.binary(BinaryOp::Imul, target, size);
        target = fi.binary(BinaryOp::Iadd, scaled, ids[d]);
    }
    let lin = fi.val(
        InstData::WorkItem {
            query: WorkItemQuery::LocalLinearId,
            dim: 0,
        },
        Type::I64,
    );
    let is_source = fi.icmp(IntCC::Eq, lin, target);
    let ty = fi.ty(x);
    when(fi, is_source, |fi| {
        let at = slot(fi, scratch, Area::Partials, None, ty);
        store(fi, x, at);
    });
    work_group_barrier(fi);
    let at = slot(fi, scratch, Area::Partials, None, ty);
    let r = load(fi, at, ty);
    // The next collective writes the partials before its first barrier.
    work_group_barrier(fi);
    Ok(vec![r])
}
