//! Calls in the optimized module: LLVM intrinsics, C math library functions
//! (what clang emits for math builtins without an intrinsic), and the core
//! OpenCL builtins the builtin library leaves undefined (work-item queries,
//! barriers and fences, `printf`, rounding-mode conversions). Everything else
//! was defined by the builtin library and inlined before import.

use llvm_sys::LLVMTypeKind;

use lockstep_ir::{
    self as ir, BinaryOp, ConvertOp, FenceFlags, FloatCC, InstData, IntCC, MemOrder, MemScope,
    Rounding, TernaryOp, Type, UnaryOp, WorkItemQuery,
};

use super::function::FnImp;
use crate::error::{CompileError, CompileResult};
use crate::llvm::Val;

pub(super) fn call(fi: &mut FnImp, inst: Val) -> CompileResult<Vec<ir::Value>> {
    let callee = inst.called_value();
    if !callee.is_function() {
        return Err(fi.imp.unsupported(
            "an indirect call (function pointers are not OpenCL C)",
            fi.loc,
        ));
    }
    let name = callee.name();
    let args: Vec<Val> = (0..inst.num_arg_operands())
        .map(|i| inst.operand(i))
        .collect();
    if let Some(intrinsic) = name.strip_prefix("llvm.") {
        return self::intrinsic(fi, inst, intrinsic, &args);
    }
    if !callee.is_declaration() {
        // LLVM inlines every call of a defined function but a recursive
        // one, or one whose types differ from the definition's (a
        // declaration that disagrees with the builtin library's).
        let (called, defined) = (inst.called_function_type(), callee.global_value_type());
        let why = if called.0 != defined.0 {
            format!(
                "a call to '{name}' as {} although it is defined as {}",
                called.print(),
                defined.print()
            )
        } else {
            format!("a call to '{name}' that could not be inlined (recursion is not allowed in OpenCL C)")
        };
        return Err(fi.imp.unsupported(why, fi.loc));
    }
    if let Some(op) = libm(&name, args.first().map(|a| a.ty())) {
        return elementwise(fi, inst, &args, |fi, xs| match op {
            Libm::Unary(op) => fi.unary(op, xs[0]),
            Libm::Binary(op) => fi.binary(op, xs[0], xs[1]),
            Libm::Fma => ternary(fi, TernaryOp::Fma, xs),
        });
    }
    if name == "printf" {
        return printf(fi, &args);
    }
    if let Some(result) = device_enqueue(fi, inst, &name, &args)? {
        return Ok(result);
    }
    // A sampler literal (`__constant sampler_t s = CLK_...;`) is its bitfield.
    if name == "__translate_sampler_initializer" {
        return Ok(vec![fi.scalar(args[0])?]);
    }
    // The builtin library's view of a pipe (a `__global` pointer to its
    // header) and of a reservation id (64 bits, both ways), and an image
    // handle made from a translated SPIR-V module's pointer: the value
    // itself.
    if name.starts_with(crate::translated::IMAGE_FROM_POINTER) && args.len() == 1 {
        return Ok(vec![fi.scalar(args[0])?]);
    }
    if matches!(
        name.as_str(),
        "__lockstep_pipe_ro"
            | "__lockstep_pipe_wo"
            | "__lockstep_reserve_id"
            | "__lockstep_reserve_id_bits"
    ) && args.len() == 1
    {
        return Ok(vec![fi.scalar(args[0])?]);
    }
    let Some((base, params)) = demangle(&name) else {
        return Err(undefined(fi, &name));
    };
    if let Some(query) = work_item_query(base) {
        return work_item(fi, query, args.first().copied());
    }
    match base {
        "barrier" | "work_group_barrier" => {
            let flags = fence_flags(args.first());
            let scope = args
                .get(1)
                .map_or(MemScope::WorkGroup, |s| mem_scope(s.const_int()));
            fi.emit(InstData::Barrier { flags, scope }, None);
            Ok(vec![])
        }
        "mem_fence" | "read_mem_fence" | "write_mem_fence" => {
            let flags = fence_flags(args.first());
            fi.emit(
                InstData::Fence {
                    flags,
                    order: MemOrder::AcqRel,
                    scope: MemScope::WorkGroup,
                },
                None,
            );
            Ok(vec![])
        }
        "atomic_work_item_fence" => {
            let flags = fence_flags(args.first());
            let order = mem_order_arg(args.get(1).and_then(|a| a.const_int()));
            let scope = mem_scope(args.get(2).and_then(|a| a.const_int()));
            fi.emit(
                InstData::Fence {
                    flags,
                    order,
                    scope,
                },
                None,
            );
            Ok(vec![])
        }
        _ if base.starts_with("__lockstep_convert_") => convert_hook(fi, inst, base, params, &args),
        // The builtin library's marks of an async copy and a wait, for
        // checked mode (`async.cl`).
        "__lockstep_async_copied" if args.len() == 7 => {
            let mut values = [ir::Value::from_u32(0); 6];
            for (v, &a) in values.iter_mut().zip(&args) {
                *v = fi.scalar(a)?;
            }
            let elem = args[6].const_int().ok_or_else(|| {
                fi.imp
                    .unsupported("an async copy of elements of unknown size", fi.loc)
            })?;
            Ok(vec![fi.val(
                InstData::AsyncCopied {
                    args: values,
                    elem: elem as u32,
                },
                Type::I64,
            )])
        }
        "__lockstep_async_wait" if args.len() == 1 => {
            let arg = fi.scalar(args[0])?;
            fi.emit(InstData::AsyncWait { arg }, None);
            Ok(vec![])
        }
        // The builtin library's view of an image (a `__global` pointer to
        // its descriptor) and of a sampler (its bitfield): the handle itself.
        "__lockstep_image" | "__lockstep_sampler" if args.len() == 1 => {
            Ok(vec![fi.scalar(args[0])?])
        }
        _ if base.starts_with("work_group_") => {
            super::collectives::work_group(fi, base, params, &args)
        }
        _ => match super::collectives::sub_group(fi, base, params, &args) {
            Some(result) => result,
            None => Err(undefined(fi, &name)),
        },
    }
}

pub(super) fn undefined(fi: &FnImp, name: &str) -> CompileError {
    let shown = demangle(name).map_or(name, |(base, _)| base);
    fi.imp.unsupported(
        format!("the builtin function '{shown}' (not implemented by Lockstep's builtin library)"),
        fi.loc,
    )
}

/// Applies `f` to each component of the call's (scalarized) arguments.
fn elementwise(
    fi: &mut FnImp,
    inst: Val,
    args: &[Val],
    f: impl Fn(&mut FnImp, &[ir::Value]) -> ir::Value,
) -> CompileResult<Vec<ir::Value>> {
    let ops: Vec<Vec<ir::Value>> = args
        .iter()
        .map(|&a| fi.operand(a))
        .collect::<Result<_, _>>()?;
    let n = match inst.ty().kind() {
        LLVMTypeKind::LLVMVectorTypeKind => inst.ty().vector_len() as usize,
        _ => 1,
    };
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let xs: Vec<ir::Value> = ops
            .iter()
            .map(|o| if o.len() == 1 { o[0] } else { o[i] })
            .collect();
        out.push(f(fi, &xs));
    }
    Ok(out)
}

fn ternary(fi: &mut FnImp, op: TernaryOp, xs: &[ir::Value]) -> ir::Value {
    let ty = fi.ty(xs[0]);
    fi.val(
        InstData::Ternary {
            op,
            args: [xs[0], xs[1], xs[2]],
        },
        ty,
    )
}

fn intrinsic(fi: &mut FnImp, inst: Val, name: &str, args: &[Val]) -> CompileResult<Vec<ir::Value>> {
    let family = name.split('.').next().unwrap_or(name);
    let unary = |op: UnaryOp| move |fi: &mut FnImp, xs: &[ir::Value]| fi.unary(op, xs[0]);
    let binary = |op: BinaryOp| move |fi: &mut FnImp, xs: &[ir::Value]| fi.binary(op, xs[0], xs[1]);
    match family {
        // No effect on the computation.
        "lifetime" | "assume" | "dbg" | "invariant" | "sideeffect" | "donothing" | "var"
        | "pseudoprobe" => Ok(vec![]),
        "experimental" if name.starts_with("experimental.noalias.scope.decl") => Ok(vec![]),
        "expect" | "ptr" | "canonicalize" | "launder" | "strip" | "arithmetic" => {
            fi.operand(args[0])
        }
        "memcpy" | "memmove" | "memset" => {
            let dst = fi.scalar(args[0])?;
            let second = fi.scalar(args[1])?;
            let len = fi.scalar(args[2])?;
            let len = if fi.ty(len) == Type::I64 {
                len
            } else {
                fi.convert(ConvertOp::Zext, Type::I64, len)
            };
            let data = if family == "memset" {
                InstData::MemSet {
                    args: [dst, second, len],
                }
            } else {
                InstData::MemCopy {
                    args: [dst, second, len],
                }
            };
            fi.emit(data, None);
            Ok(vec![])
        }
        "fabs" => elementwise(fi, inst, args, unary(UnaryOp::Fabs)),
        "sqrt" => elementwise(fi, inst, args, unary(UnaryOp::Sqrt)),
        "floor" => elementwise(fi, inst, args, unary(UnaryOp::Floor)),
        "ceil" => elementwise(fi, inst, args, unary(UnaryOp::Ceil)),
        "trunc" => elementwise(fi, inst, args, unary(UnaryOp::Ftrunc)),
        "round" => elementwise(fi, inst, args, unary(UnaryOp::Round)),
        "rint" | "nearbyint" | "roundeven" => elementwise(fi, inst, args, unary(UnaryOp::Rint)),
        "exp" => elementwise(fi, inst, args, unary(UnaryOp::Exp)),
        "exp2" => elementwise(fi, inst, args, unary(UnaryOp::Exp2)),
        "exp10" => elementwise(fi, inst, args, unary(UnaryOp::Exp10)),
        "log" => elementwise(fi, inst, args, unary(UnaryOp::Log)),
        "log2" => elementwise(fi, inst, args, unary(UnaryOp::Log2)),
        "log10" => elementwise(fi, inst, args, unary(UnaryOp::Log10)),
        "sin" => elementwise(fi, inst, args, unary(UnaryOp::Sin)),
        "cos" => elementwise(fi, inst, args, unary(UnaryOp::Cos)),
        "tan" => elementwise(fi, inst, args, unary(UnaryOp::Tan)),
        "asin" => elementwise(fi, inst, args, unary(UnaryOp::Asin)),
        "acos" => elementwise(fi, inst, args, unary(UnaryOp::Acos)),
        "atan" => elementwise(fi, inst, args, unary(UnaryOp::Atan)),
        "sinh" => elementwise(fi, inst, args, unary(UnaryOp::Sinh)),
        "cosh" => elementwise(fi, inst, args, unary(UnaryOp::Cosh)),
        "tanh" => elementwise(fi, inst, args, unary(UnaryOp::Tanh)),
        "atan2" => elementwise(fi, inst, args, binary(BinaryOp::Atan2)),
        "pow" => elementwise(fi, inst, args, binary(BinaryOp::Pow)),
        "powi" => elementwise(fi, inst, args, |fi, xs| {
            let ty = fi.ty(xs[0]);
            let e = fi.convert(ConvertOp::SiToFp, ty, xs[1]);
            fi.binary(BinaryOp::Pow, xs[0], e)
        }),
        "minnum" => elementwise(fi, inst, args, binary(BinaryOp::Fmin)),
        "maxnum" => elementwise(fi, inst, args, binary(BinaryOp::Fmax)),
        "minimum" | "maximum" => elementwise(fi, inst, args, move |fi, xs| {
            // NaN-propagating min/max: a NaN operand gives NaN.
            let op = if family == "minimum" {
                BinaryOp::Fmin
            } else {
                BinaryOp::Fmax
            };
            let r = fi.binary(op, xs[0], xs[1]);
            let nan = fi.val(
                InstData::Fcmp {
                    cond: FloatCC::Uno,
                    args: [xs[0], xs[1]],
                },
                Type::I1,
            );
            let sum = fi.binary(BinaryOp::Fadd, xs[0], xs[1]);
            fi.select(nan, sum, r)
        }),
        "copysign" => elementwise(fi, inst, args, binary(BinaryOp::Copysign)),
        "fma" | "fmuladd" => elementwise(fi, inst, args, |fi, xs| ternary(fi, TernaryOp::Fma, xs)),
        "smin" => elementwise(fi, inst, args, binary(BinaryOp::Smin)),
        "smax" => elementwise(fi, inst, args, binary(BinaryOp::Smax)),
        "umin" => elementwise(fi, inst, args, binary(BinaryOp::Umin)),
        "umax" => elementwise(fi, inst, args, binary(BinaryOp::Umax)),
        "uadd" if name.starts_with("uadd.sat") => {
            elementwise(fi, inst, args, binary(BinaryOp::UaddSat))
        }
        "sadd" if name.starts_with("sadd.sat") => {
            elementwise(fi, inst, args, binary(BinaryOp::SaddSat))
        }
        "usub" if name.starts_with("usub.sat") => {
            elementwise(fi, inst, args, binary(BinaryOp::UsubSat))
        }
        "ssub" if name.starts_with("ssub.sat") => {
            elementwise(fi, inst, args, binary(BinaryOp::SsubSat))
        }
        "uadd" | "sadd" | "usub" | "ssub" | "umul" | "smul" if name.contains("with.overflow") => {
            with_overflow(fi, family, args)
        }
        "abs" => elementwise(fi, inst, &args[..1], unary(UnaryOp::Iabs)),
        "ctpop" => elementwise(fi, inst, args, unary(UnaryOp::Popcount)),
        "ctlz" => elementwise(fi, inst, &args[..1], unary(UnaryOp::Clz)),
        "cttz" => elementwise(fi, inst, &args[..1], unary(UnaryOp::Ctz)),
        "bswap" => elementwise(fi, inst, args, unary(UnaryOp::Bswap)),
        "bitreverse" => elementwise(fi, inst, args, unary(UnaryOp::Bitreverse)),
        "fshl" | "fshr" => {
            let op = if family == "fshl" {
                TernaryOp::Fshl
            } else {
                TernaryOp::Fshr
            };
            elementwise(fi, inst, args, move |fi, xs| ternary(fi, op, xs))
        }
        "fptosi" | "fptoui" if name.contains(".sat.") => {
            let op = if family == "fptosi" {
                ConvertOp::FpToSi
            } else {
                ConvertOp::FpToUi
            };
            let to = super::types::leaf_types(inst.ty()).unwrap_or_default();
            let xs = fi.operand(args[0])?;
            Ok(xs
                .into_iter()
                .zip(to)
                .map(|(x, t)| {
                    fi.val(
                        InstData::Convert {
                            op,
                            arg: x,
                            rounding: Rounding::Rtz,
                            saturate: true,
                        },
                        t,
                    )
                })
                .collect())
        }
        "is" if name.starts_with("is.fpclass") => {
            let mask = args[1].const_int().unwrap_or(0) as u32;
            elementwise(fi, inst, &args[..1], move |fi, xs| {
                fp_class(fi, xs[0], mask)
            })
        }
        "vector" if name.starts_with("vector.reduce.") => reduce(fi, name, args),
        _ => Err(fi
            .imp
            .unsupported(format!("the LLVM intrinsic 'llvm.{name}'"), fi.loc)),
    }
}

/// `llvm.*.with.overflow`: `{result, overflowed}`.
fn with_overflow(fi: &mut FnImp, family: &str, args: &[Val]) -> CompileResult<Vec<ir::Value>> {
    let a = fi.scalar(args[0])?;
    let b = fi.scalar(args[1])?;
    let ty = fi.ty(a);
    let zero = fi.iconst(ty, 0);
    let (r, ov) = match family {
        "uadd" => {
            let r = fi.binary(BinaryOp::Iadd, a, b);
            (r, fi.icmp(IntCC::Ult, r, a))
        }
        "usub" => (fi.binary(BinaryOp::Isub, a, b), fi.icmp(IntCC::Ult, a, b)),
        "sadd" | "ssub" => {
            let op = if family == "sadd" {
                BinaryOp::Iadd
            } else {
                BinaryOp::Isub
            };
            let r = fi.binary(op, a, b);
            // Overflow iff the operands' signs allow it and the result's sign differs from a's.
            let ar = fi.binary(BinaryOp::Bxor, a, r);
            let other = if family == "sadd" {
                fi.binary(BinaryOp::Bxor, b, r)
            } else {
                fi.binary(BinaryOp::Bxor, a, b)
            };
            let both = fi.binary(BinaryOp::Band, ar, other);
            (r, fi.icmp(IntCC::Slt, both, zero))
        }
        "umul" => {
            let r = fi.binary(BinaryOp::Imul, a, b);
            let hi = fi.binary(BinaryOp::Umulhi, a, b);
            (r, fi.icmp(IntCC::Ne, hi, zero))
        }
        _ => {
            let r = fi.binary(BinaryOp::Imul, a, b);
            let hi = fi.binary(BinaryOp::Smulhi, a, b);
            let shift = fi.iconst(ty, (ty.bits() - 1) as u64);
            let sign = fi.binary(BinaryOp::Sshr, r, shift);
            (r, fi.icmp(IntCC::Ne, hi, sign))
        }
    };
    Ok(vec![r, ov])
}

/// `llvm.is.fpclass(x, mask)` from integer tests on the bits.
fn fp_class(fi: &mut FnImp, x: ir::Value, mask: u32) -> ir::Value {
    let ty = fi.ty(x);
    let int = Type::int_of_bits(ty.bits()).expect("float widths have int twins");
    let bits = fi.convert(ConvertOp::Bitcast, int, x);
    let (exp_bits, man_bits) = match ty {
        Type::F16 => (5u32, 10u32),
        Type::F32 => (8, 23),
        _ => (11, 52),
    };
    let sign_mask = 1u64 << (exp_bits + man_bits);
    let abs_mask = sign_mask - 1;
    let inf = ((1u64 << exp_bits) - 1) << man_bits;
    let quiet = 1u64 << (man_bits - 1);
    let min_normal = 1u64 << man_bits;
    let k = |fi: &mut FnImp, v: u64| fi.iconst(int, v);
    let am = k(fi, abs_mask);
    let abs = fi.binary(BinaryOp::Band, bits, am);
    let sm = k(fi, sign_mask);
    let sign_bit = fi.binary(BinaryOp::Band, bits, sm);
    let zero = k(fi, 0);
    let neg = fi.icmp(IntCC::Ne, sign_bit, zero);
    let pos = fi.icmp(IntCC::Eq, sign_bit, zero);
    let infc = k(fi, inf);
    let is_inf = fi.icmp(IntCC::Eq, abs, infc);
    let is_nan = fi.icmp(IntCC::Ugt, abs, infc);
    let qc = k(fi, inf | quiet);
    let is_qnan = fi.icmp(IntCC::Uge, abs, qc);
    let not_q = fi.icmp(IntCC::Ult, abs, qc);
    let is_snan = fi.binary(BinaryOp::Band, is_nan, not_q);
    let is_zero = fi.icmp(IntCC::Eq, abs, zero);
    let mn = k(fi, min_normal);
    let below_normal = fi.icmp(IntCC::Ult, abs, mn);
    let nonzero = fi.icmp(IntCC::Ne, abs, zero);
    let is_sub = fi.binary(BinaryOp::Band, below_normal, nonzero);
    let ge_normal = fi.icmp(IntCC::Uge, abs, mn);
    let lt_inf = fi.icmp(IntCC::Ult, abs, infc);
    let is_norm = fi.binary(BinaryOp::Band, ge_normal, lt_inf);
    // Bits: 0 snan, 1 qnan, 2 -inf, 3 -normal, 4 -subnormal, 5 -zero,
    // 6 +zero, 7 +subnormal, 8 +normal, 9 +inf.
    let tests: [(u32, ir::Value, Option<ir::Value>); 10] = [
        (0, is_snan, None),
        (1, is_qnan, None),
        (2, is_inf, Some(neg)),
        (3, is_norm, Some(neg)),
        (4, is_sub, Some(neg)),
        (5, is_zero, Some(neg)),
        (6, is_zero, Some(pos)),
        (7, is_sub, Some(pos)),
        (8, is_norm, Some(pos)),
        (9, is_inf, Some(pos)),
    ];
    let mut acc = fi.iconst(Type::I1, 0);
    for (bit, class, sign) in tests {
        if mask & (1 << bit) == 0 {
            continue;
        }
        let t = match sign {
            Some(s) => fi.binary(BinaryOp::Band, class, s),
            None => class,
        };
        acc = fi.binary(BinaryOp::Bor, acc, t);
    }
    acc
}

/// `llvm.vector.reduce.*`: a fold over the components.
fn reduce(fi: &mut FnImp, name: &str, args: &[Val]) -> CompileResult<Vec<ir::Value>> {
    let kind = name
        .trim_start_matches("vector.reduce.")
        .split('.')
        .next()
        .unwrap_or("");
    let (start, vec) = match kind {
        "fadd" | "fmul" => (Some(fi.scalar(args[0])?), fi.operand(args[1])?),
        _ => (None, fi.operand(args[0])?),
    };
    let op = match kind {
        "add" => BinaryOp::Iadd,
        "mul" => BinaryOp::Imul,
        "and" => BinaryOp::Band,
        "or" => BinaryOp::Bor,
        "xor" => BinaryOp::Bxor,
        "smin" => BinaryOp::Smin,
        "smax" => BinaryOp::Smax,
        "umin" => BinaryOp::Umin,
        "umax" => BinaryOp::Umax,
        "fadd" => BinaryOp::Fadd,
        "fmul" => BinaryOp::Fmul,
        "fmin" => BinaryOp::Fmin,
        "fmax" => BinaryOp::Fmax,
        _ => {
            return Err(fi
                .imp
                .unsupported(format!("the LLVM intrinsic 'llvm.{name}'"), fi.loc))
        }
    };
    let mut acc = start.unwrap_or(vec[0]);
    let rest = if start.is_some() { &vec[..] } else { &vec[1..] };
    for &x in rest {
        acc = fi.binary(op, acc, x);
    }
    Ok(vec![acc])
}

enum Libm {
    Unary(UnaryOp),
    Binary(BinaryOp),
    Fma,
}

/// A C math library function (`sinf`, `erf`, …) as an IR operation.
fn libm(name: &str, arg: Option<crate::llvm::Ty>) -> Option<Libm> {
    let base = match arg?.kind() {
        LLVMTypeKind::LLVMFloatTypeKind => name.strip_suffix('f')?,
        LLVMTypeKind::LLVMDoubleTypeKind => name,
        _ => return None,
    };
    use UnaryOp::*;
    Some(Libm::Unary(match base {
        "sqrt" => Sqrt,
        "fabs" => Fabs,
        "floor" => Floor,
        "ceil" => Ceil,
        "trunc" => Ftrunc,
        "round" => Round,
        "rint" | "nearbyint" => Rint,
        "exp" => Exp,
        "exp2" => Exp2,
        "exp10" => Exp10,
        "expm1" => Expm1,
        "log" => Log,
        "log2" => Log2,
        "log10" => Log10,
        "log1p" => Log1p,
        "sin" => Sin,
        "cos" => Cos,
        "tan" => Tan,
        "asin" => Asin,
        "acos" => Acos,
        "atan" => Atan,
        "sinh" => Sinh,
        "cosh" => Cosh,
        "tanh" => Tanh,
        "asinh" => Asinh,
        "acosh" => Acosh,
        "atanh" => Atanh,
        "cbrt" => Cbrt,
        "erf" => Erf,
        "erfc" => Erfc,
        "tgamma" => Tgamma,
        "lgamma" => Lgamma,
        "fma" => return Some(Libm::Fma),
        _ => {
            return Some(Libm::Binary(match base {
                "pow" => BinaryOp::Pow,
                "atan2" => BinaryOp::Atan2,
                "hypot" => BinaryOp::Hypot,
                "remainder" => BinaryOp::Remainder,
                "fmod" => BinaryOp::Frem,
                "fmin" => BinaryOp::Fmin,
                "fmax" => BinaryOp::Fmax,
                "copysign" => BinaryOp::Copysign,
                _ => return None,
            }))
        }
    }))
}

fn work_item_query(base: &str) -> Option<WorkItemQuery> {
    Some(match base {
        "get_global_id" => WorkItemQuery::GlobalId,
        "get_local_id" => WorkItemQuery::LocalId,
        "get_group_id" => WorkItemQuery::GroupId,
        "get_global_size" => WorkItemQuery::GlobalSize,
        "get_local_size" => WorkItemQuery::LocalSize,
        "get_enqueued_local_size" => WorkItemQuery::EnqueuedLocalSize,
        "get_num_groups" => WorkItemQuery::NumGroups,
        "get_global_offset" => WorkItemQuery::GlobalOffset,
        "get_work_dim" => WorkItemQuery::WorkDim,
        "get_global_linear_id" => WorkItemQuery::GlobalLinearId,
        "get_local_linear_id" => WorkItemQuery::LocalLinearId,
        "get_sub_group_size" => WorkItemQuery::SubGroupSize,
        "get_max_sub_group_size" => WorkItemQuery::MaxSubGroupSize,
        "get_num_sub_groups" => WorkItemQuery::NumSubGroups,
        "get_enqueued_num_sub_groups" => WorkItemQuery::EnqueuedNumSubGroups,
        "get_sub_group_id" => WorkItemQuery::SubGroupId,
        "get_sub_group_local_id" => WorkItemQuery::SubGroupLocalId,
        _ => return None,
    })
}

/// A work-item query; a non-constant dimension selects among the three
/// (out of range: 0 for ids and offsets, 1 for sizes, as OpenCL specifies).
fn work_item(
    fi: &mut FnImp,
    query: WorkItemQuery,
    dim: Option<Val>,
) -> CompileResult<Vec<ir::Value>> {
    let ty = query.result_type();
    if !query.takes_dim() {
        return Ok(vec![fi.val(InstData::WorkItem { query, dim: 0 }, ty)]);
    }
    let dim =
        dim.ok_or_else(|| CompileError::Internal("work-item query without a dimension".into()))?;
    let out_of_range = match query {
        WorkItemQuery::GlobalSize
        | WorkItemQuery::LocalSize
        | WorkItemQuery::EnqueuedLocalSize
        | WorkItemQuery::NumGroups => 1,
        _ => 0,
    };
    if let Some(d) = dim.const_int() {
        return Ok(vec![if d <= 2 {
            fi.val(
                InstData::WorkItem {
                    query,
                    dim: d as u8,
                },
                ty,
            )
        } else {
            fi.iconst(ty, out_of_range)
        }]);
    }
    let d = fi.scalar(dim)?;
    let d_ty = fi.ty(d);
    let mut r = fi.iconst(ty, out_of_range);
    for k in (0..3u8).rev() {
        let q = fi.val(InstData::WorkItem { query, dim: k }, ty);
        let kc = fi.iconst(d_ty, k as u64);
        let hit = fi.icmp(IntCC::Eq, d, kc);
        r = fi.select(hit, q, r);
    }
    Ok(vec![r])
}

fn fence_flags(arg: Option<&Val>) -> FenceFlags {
    match arg.and_then(|a| a.const_int()) {
        Some(bits) => FenceFlags(bits as u8 & 7),
        None => FenceFlags(FenceFlags::LOCAL.0 | FenceFlags::GLOBAL.0),
    }
}

/// OpenCL's `memory_scope` enum values.
fn mem_scope(v: Option<u64>) -> MemScope {
    match v {
        Some(0) => MemScope::WorkItem,
        Some(1) => MemScope::WorkGroup,
        Some(3) => MemScope::AllDevices,
        Some(4) => MemScope::SubGroup,
        _ => MemScope::Device,
    }
}

/// OpenCL's `memory_order` enum values.
fn mem_order_arg(v: Option<u64>) -> MemOrder {
    match v {
        Some(0) => MemOrder::Relaxed,
        Some(2) => MemOrder::Acquire,
        Some(3) => MemOrder::Release,
        Some(4) => MemOrder::AcqRel,
        _ => MemOrder::SeqCst,
    }
}

/// Device-side enqueue: clang's `__enqueue_kernel_*` and
/// `__get_kernel_*_impl` built-ins (which pass a block's invoke kernel and
/// literal) and the device queue and event functions, as device enqueue
/// operations; `None` if `name` is none of them.
fn device_enqueue(
    fi: &mut FnImp,
    inst: Val,
    name: &str,
    args: &[Val],
) -> CompileResult<Option<Vec<ir::Value>>> {
    use ir::DeviceOp as D;
    let generic = Type::Ptr(ir::AddrSpace::Generic);
    // (operation, the argument that is the invoke kernel, the operands:
    // an argument's index, or `None` for a null pointer or 0).
    let (op, kernel_arg, operands): (D, Option<usize>, Vec<Option<usize>>) = match name {
        // (queue, flags, ndrange, kernel, block)
        "__enqueue_kernel_basic" => (
            D::EnqueueKernel,
            Some(3),
            vec![
                Some(0),
                Some(1),
                Some(2),
                None,
                None,
                None,
                Some(4),
                None,
                None,
            ],
        ),
        // (queue, flags, ndrange, num_events, events, event_ret, kernel, block)
        "__enqueue_kernel_basic_events" => (
            D::EnqueueKernel,
            Some(6),
            vec![
                Some(0),
                Some(1),
                Some(2),
                Some(3),
                Some(4),
                Some(5),
                Some(7),
                None,
                None,
            ],
        ),
        // (queue, flags, ndrange, kernel, block, num_sizes, sizes)
        "__enqueue_kernel_varargs" => (
            D::EnqueueKernel,
            Some(3),
            vec![
                Some(0),
                Some(1),
                Some(2),
                None,
                None,
                None,
                Some(4),
                Some(5),
                Some(6),
            ],
        ),
        // (queue, flags, ndrange, num_events, events, event_ret, kernel,
        // block, num_sizes, sizes)
        "__enqueue_kernel_events_varargs" => (
            D::EnqueueKernel,
            Some(6),
            vec![
                Some(0),
                Some(1),
                Some(2),
                Some(3),
                Some(4),
                Some(5),
                Some(7),
                Some(8),
                Some(9),
            ],
        ),
        // (kernel, block)
        "__get_kernel_work_group_size_impl" => (D::KernelWorkGroupSize, Some(0), vec![]),
        "__get_kernel_preferred_work_group_size_multiple_impl" => {
            (D::KernelPreferredWorkGroupSizeMultiple, Some(0), vec![])
        }
        // (ndrange, kernel, block)
        "__get_kernel_sub_group_count_for_ndrange_impl" => {
            (D::KernelSubGroupCount, Some(1), vec![Some(0)])
        }
        "__get_kernel_max_sub_group_size_for_ndrange_impl" => {
            (D::KernelMaxSubGroupSize, Some(1), vec![Some(0)])
        }
        _ => {
            let Some((base, _)) = demangle(name) else {
                return Ok(None);
            };
            let op = match base {
                "get_default_queue" => D::GetDefaultQueue,
                "enqueue_marker" => D::EnqueueMarker,
                "create_user_event" => D::CreateUserEvent,
                "retain_event" => D::RetainEvent,
                "release_event" => D::ReleaseEvent,
                "set_user_event_status" => D::SetUserEventStatus,
                "is_valid_event" => D::IsValidEvent,
                "capture_event_profiling_info" => D::CaptureEventProfilingInfo,
                _ => return Ok(None),
            };
            (op, None, (0..op.operands().len()).map(Some).collect())
        }
    };
    let kernel = match kernel_arg {
        None => None,
        Some(i) => {
            let id = args
                .get(i)
                .and_then(|&k| cast_function(k))
                .and_then(|f| fi.imp.kernel_ids.get(&f).copied());
            match id {
                Some(id) => Some(id),
                None => {
                    return Err(fi.imp.unsupported(
                        format!("'{name}' of a block whose kernel is not known statically"),
                        fi.loc,
                    ))
                }
            }
        }
    };
    let mut values = Vec::with_capacity(operands.len());
    for (operand, kind) in operands.iter().zip(op.operands()) {
        let v = match (operand, kind) {
            (Some(i), _) => {
                let Some(&a) = args.get(*i) else {
                    return Err(fi.imp.unsupported(
                        format!("a call to '{name}' with too few arguments"),
                        fi.loc,
                    ));
                };
                fi.scalar(a)?
            }
            (None, ir::device_op::DeviceOperand::Ptr) => fi.iconst(generic, 0),
            (None, ir::device_op::DeviceOperand::Int(t)) => fi.iconst(*t, 0),
        };
        let want = match kind {
            ir::device_op::DeviceOperand::Int(t) => Some(*t),
            ir::device_op::DeviceOperand::Ptr => None,
        };
        // The SPIR-V translator's queues and events are pointers.
        let v = if want == Some(Type::I64) && fi.ty(v).is_ptr() {
            fi.convert(ConvertOp::PtrToInt, Type::I64, v)
        } else {
            v
        };
        let have = fi.ty(v);
        let fits = match want {
            Some(t) => have == t,
            None => have.is_ptr(),
        };
        if !fits {
            return Err(fi.imp.unsupported(
                format!("a call to '{name}' whose operand {v} is {have}"),
                fi.loc,
            ));
        }
        values.push(v);
    }
    let data = InstData::DeviceEnqueue {
        op,
        kernel,
        args: values,
    };
    Ok(Some(match op.result_type() {
        Some(t) => match super::types::scalar_type(inst.ty()) {
            Some(w) if w == t => vec![fi.val(data, t)],
            // A queue or event as the SPIR-V translator types it.
            Some(w @ Type::Ptr(_)) if t == Type::I64 => {
                let bits = fi.val(data, t);
                vec![fi.convert(ConvertOp::IntToPtr, w, bits)]
            }
            _ => {
                return Err(fi.imp.unsupported(
                    format!("a call to '{name}' returning {}", inst.ty().print()),
                    fi.loc,
                ))
            }
        },
        None => {
            fi.emit(data, None);
            vec![]
        }
    }))
}

/// The function `v` is, through bit and address space casts (constant
/// expressions from clang, instructions from the SPIR-V translator).
fn cast_function(v: Val) -> Option<Val> {
    let mut v = v;
    while !v.is_function() {
        let opcode = if v.is_instruction() {
            v.opcode()
        } else if v.kind() == llvm_sys::LLVMValueKind::LLVMConstantExprValueKind {
            v.const_opcode()
        } else {
            return None;
        };
        if !matches!(
            opcode,
            llvm_sys::LLVMOpcode::LLVMBitCast | llvm_sys::LLVMOpcode::LLVMAddrSpaceCast
        ) {
            return None;
        }
        v = v.operand(0);
    }
    Some(v)
}

/// `printf(format, ...)`: the format string must be a constant.
fn printf(fi: &mut FnImp, args: &[Val]) -> CompileResult<Vec<ir::Value>> {
    let format = constant_string(fi, args[0]).ok_or_else(|| {
        fi.imp.unsupported(
            "printf with a format string that is not a string literal",
            fi.loc,
        )
    })?;
    let mut values = Vec::new();
    for &a in &args[1..] {
        values.extend(fi.operand(a)?);
    }
    Ok(vec![fi.val(
        InstData::Printf {
            format,
            args: values,
        },
        Type::I32,
    )])
}

/// The string a constant pointer points to (up to its NUL).
fn constant_string(fi: &FnImp, ptr: Val) -> Option<String> {
    let (global, offset) = fi.imp.constant_address(ptr).ok()?;
    let data = fi.imp.module.globals[global].init.as_ref()?;
    let bytes = data.get(offset as usize..)?;
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    Some(String::from_utf8_lossy(&bytes[..end]).into_owned())
}

/// `__lockstep_convert_{s,u,f}_{rte,rtz,rtp,rtn}[_sat](x)`: a conversion
/// with an explicit rounding mode (and saturation), destination kind in the
/// name, source signedness from the mangled parameter type.
fn convert_hook(
    fi: &mut FnImp,
    inst: Val,
    base: &str,
    params: &str,
    args: &[Val],
) -> CompileResult<Vec<ir::Value>> {
    let rest = &base["__lockstep_convert_".len()..];
    let mut parts = rest.split('_');
    let dst_kind = parts.next().unwrap_or("");
    let rounding = parts.next().and_then(Rounding::from_name);
    let saturate = parts.next() == Some("sat");
    let (Some(rounding), Some(&arg)) = (rounding, args.first()) else {
        return Err(undefined(fi, base));
    };
    let src_signed = matches!(
        params.as_bytes().first(),
        Some(b'c' | b'a' | b's' | b'i' | b'l' | b'x')
    );
    let x = fi.scalar(arg)?;
    let from = fi.ty(x);
    let to = super::types::scalar_type(inst.ty()).ok_or_else(|| undefined(fi, base))?;
    let op = match (from.is_float(), dst_kind) {
        (true, "f") if to.bits() < from.bits() => ConvertOp::FpTrunc,
        (true, "f") if to.bits() > from.bits() => ConvertOp::FpExt,
        (true, "f") => return Ok(vec![x]),
        (true, "s") => ConvertOp::FpToSi,
        (true, "u") => ConvertOp::FpToUi,
        (false, "f") if src_signed => ConvertOp::SiToFp,
        (false, "f") => ConvertOp::UiToFp,
        _ => {
            return Err(fi.imp.unsupported(
                format!("the conversion hook '{base}' between integers"),
                fi.loc,
            ))
        }
    };
    Ok(vec![fi.val(
        InstData::Convert {
            op,
            arg: x,
            rounding,
            saturate,
        },
        to,
    )])
}

/// Splits an Itanium-mangled OpenCL builtin name `_Z<len><name><params>`
/// into its name and the mangled parameter list.
pub fn demangle(name: &str) -> Option<(&str, &str)> {
    let rest = name.strip_prefix("_Z")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = rest[..digits].parse().ok()?;
    let body = &rest[digits..];
    Some((body.get(..len)?, body.get(len..)?))
}
