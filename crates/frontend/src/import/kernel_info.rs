//! Kernel metadata: what `clGetKernelArgInfo` reports about each argument
//! (from clang's `kernel_arg_*` metadata), the work-group size attributes
//! and a required subgroup size (`intel_reqd_sub_group_size`).

use lockstep_ir::{self as ir, AccessQual, ArgInfo, ByVal, KernelInfo, Type, TypeQuals};

use super::types::scalar_type;
use super::Importer;
use crate::error::CompileResult;
use crate::llvm::Val;

pub(super) fn kernel_info(
    imp: &Importer,
    f: Val,
    func: &ir::Function,
) -> CompileResult<KernelInfo> {
    let strings = |kind: &str| -> Vec<String> {
        f.function_metadata(kind)
            .map(|ops| {
                ops.into_iter()
                    .map(|v| v.md_string().unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default()
    };
    let names = strings("kernel_arg_name");
    let types = strings("kernel_arg_type");
    let access = strings("kernel_arg_access_qual");
    let quals = strings("kernel_arg_type_qual");
    let mut info = KernelInfo::default();
    for (i, p) in f.params().into_iter().enumerate() {
        let byval_ty = f.param_type_attribute(i as u32, "byval");
        let by_value_aggregate = byval_ty.is_none() && scalar_type(p.ty()).is_none();
        let byval = match (byval_ty, by_value_aggregate) {
            (Some(t), _) => Some(t),
            (None, true) => Some(p.ty()),
            _ => None,
        }
        .map(|t| ByVal {
            size: imp.layout.alloc_size(t) as u32,
            align: imp.layout.abi_align(t).max(1),
        });
        debug_assert!(
            byval.is_none() || func.signature.params[i] == Type::Ptr(ir::AddrSpace::Private)
        );
        let qual_text = quals.get(i).cloned().unwrap_or_default();
        info.args.push(ArgInfo {
            name: names.get(i).cloned().unwrap_or_else(|| p.name()),
            type_name: types.get(i).cloned().unwrap_or_default(),
            access: access
                .get(i)
                .and_then(|a| AccessQual::from_name(a))
                .unwrap_or_default(),
            qualifiers: TypeQuals {
                is_const: qual_text.split_whitespace().any(|q| q == "const"),
                is_restrict: qual_text.split_whitespace().any(|q| q == "restrict"),
                is_volatile: qual_text.split_whitespace().any(|q| q == "volatile"),
                is_pipe: qual_text.split_whitespace().any(|q| q == "pipe"),
            },
            byval,
        });
    }
    let dims = |kind: &str| -> Option<[u32; 3]> {
        let ops = f.function_metadata(kind)?;
        let v: Vec<u32> = ops
            .iter()
            .filter_map(|o| o.const_int().map(|x| x as u32))
            .collect();
        (v.len() == 3).then(|| [v[0], v[1], v[2]])
    };
    info.reqd_work_group_size = dims("reqd_work_group_size");
    info.work_group_size_hint = dims("work_group_size_hint");
    info.reqd_sub_group_size = f
        .function_metadata("intel_reqd_sub_group_size")
        .and_then(|ops| ops.first().and_then(|o| o.const_int()))
        .map(|n| n as u32);
    if let Some(n) = info
        .reqd_sub_group_size
        .filter(|n| !matches!(n, 4 | 8 | 16 | 32))
    {
        return Err(imp.unsupported(
            format!(
                "intel_reqd_sub_group_size({n}) on kernel '{}' (Lockstep's subgroups are gangs of 4, 8, 16 or 32)",
                func.name
            ),
            None,
        ));
    }
    info.vec_type_hint = f.function_metadata("vec_type_hint").and_then(|ops| {
        let ty = ops.first()?.ty();
        let signed = ops.get(1).and_then(|o| o.const_int()).unwrap_or(1) != 0;
        Some(type_name(ty, signed))
    });
    Ok(info)
}

/// The OpenCL C name of a scalar or vector LLVM type (`float4`, `uint`).
fn type_name(ty: crate::llvm::Ty, signed: bool) -> String {
    use llvm_sys::LLVMTypeKind::*;
    let (elem, n) = match ty.kind() {
        LLVMVectorTypeKind => (ty.element(), ty.vector_len()),
        _ => (ty, 1),
    };
    let base = match (elem.kind(), elem.int_width()) {
        (LLVMHalfTypeKind, _) => "half",
        (LLVMFloatTypeKind, _) => "float",
        (LLVMDoubleTypeKind, _) => "double",
        (_, 8) => {
            if signed {
                "char"
            } else {
                "uchar"
            }
        }
        (_, 16) => {
            if signed {
                "short"
            } else {
                "ushort"
            }
        }
        (_, 32) => {
            if signed {
                "int"
            } else {
                "uint"
            }
        }
        (_, 64) => {
            if signed {
                "long"
            } else {
                "ulong"
            }
        }
        _ => "void",
    };
    if n > 1 {
        format!("{base}{n}")
    } else {
        base.to_string()
    }
}
