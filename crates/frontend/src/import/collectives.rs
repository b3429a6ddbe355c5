//! The core subgroup builtins (`cl_khr_subgroups` and its extensions):
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

use lockstep_ir::{
    self as ir, Collective, Combine, ConvertOp, FenceFlags, GangOp, InstData, IntCC, MemOrder,
    MemScope, Type,
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
        "barrier" => barrier(fi, args),
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
fn barrier(fi: &mut FnImp, args: &[Val]) -> CompileResult<Vec<ir::Value>> {
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
            if !size.is_power_of_two() || size > 32 {
                return Err(fi.imp.unsupported(
                    format!(
                        "sub_group_{rest} with a cluster size of {size} (a power of two up to 32)"
                    ),
                    fi.loc,
                ));
            }
            operands.push(fi.iconst(Type::I32, size));
        }
        let ty = fi.ty(x);
        let op = GangOp::of_collective(kind, combine);
        Ok(vec![sub_group_inst(fi, op, operands, ty)])
    })())
}
