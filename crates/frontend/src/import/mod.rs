//! Imports an optimized LLVM module (spir64) into Lockstep IR: program-scope
//! variables with their initial bytes, kernels with their argument metadata,
//! and function bodies (see `function.rs`), scalarizing vectors and aggregates.

mod calls;
mod collectives;
mod function;
mod kernel_info;
mod types;

use std::collections::HashMap;

use llvm_sys::prelude::LLVMModuleRef;
use llvm_sys::LLVMOpcode;

use lockstep_ir as ir;

use crate::error::{CompileError, CompileResult, Location};
use crate::llvm::{Layout, Ty, Val};
pub use types::addr_space;

/// LLVM's calling convention number for `spir_kernel`.
const SPIR_KERNEL_CC: u32 = 76;

/// Module-wide import state.
pub(crate) struct Importer {
    pub layout: Layout,
    pub module: ir::Module,
    pub globals: HashMap<Val, ir::GlobalId>,
    /// The user's source file name, for error locations.
    pub file_name: String,
    /// The hidden `__local` array work-group functions exchange per-subgroup
    /// partial results through.
    pub work_group_scratch: Option<ir::GlobalId>,
    /// Each kernel's id in the module (assigned before any is imported, so
    /// that an `enqueue_kernel` can name a kernel defined later).
    pub kernel_ids: HashMap<Val, ir::FuncId>,
    /// Each function's position in the LLVM module plus one: the opaque
    /// value of its address (see [`Importer::function_address`]).
    function_tokens: HashMap<Val, u64>,
}

/// Bytes of each of the two areas of the work-group functions' scratch
/// array: one partial per subgroup of the largest work-group (4096
/// work-items) in the narrowest gangs (4), 8 bytes each, and room for the
/// widest gang's (64) slots past the last.
pub(crate) const WORK_GROUP_SCRATCH_AREA: u64 = (4096 / 4 + 64) * 8;

/// Imports every kernel of `llvm_module` (whose non-kernel functions have
/// been inlined into the kernels).
pub(crate) fn import_module(
    llvm_module: LLVMModuleRef,
    file_name: &str,
) -> CompileResult<ir::Module> {
    let mut imp = Importer {
        layout: Layout::of_module(llvm_module),
        module: ir::Module::new(),
        globals: HashMap::new(),
        file_name: file_name.to_string(),
        work_group_scratch: None,
        kernel_ids: HashMap::new(),
        function_tokens: HashMap::new(),
    };
    let kernels: Vec<Val> = module_functions(llvm_module)
        .into_iter()
        .filter(|f| !f.is_declaration() && f.calling_conv() == SPIR_KERNEL_CC)
        .collect();
    for (i, &f) in kernels.iter().enumerate() {
        imp.kernel_ids.insert(f, ir::FuncId::from_u32(i as u32));
    }
    for (i, f) in module_functions(llvm_module).into_iter().enumerate() {
        imp.function_tokens.insert(f, i as u64 + 1);
    }
    for global in module_globals(llvm_module) {
        imp.declare_global(global)?;
    }
    for global in module_globals(llvm_module) {
        imp.define_global(global)?;
    }
    let uses_work_group_functions = module_functions(llvm_module).iter().any(|f| {
        let name = f.name();
        // Not `__get_kernel_work_group_size_impl` (device enqueue).
        f.is_declaration()
            && name.contains("work_group_")
            && !name.contains("work_group_barrier")
            && !name.starts_with("__get_kernel_")
    });
    if uses_work_group_functions {
        let name = unique_name(&imp.module, "__lockstep_work_group_scratch");
        let size = 2 * WORK_GROUP_SCRATCH_AREA;
        let g = ir::GlobalData {
            name,
            space: ir::AddrSpace::Local,
            size,
            align: 64,
            init: None,
            relocs: Vec::new(),
        };
        imp.work_group_scratch = Some(imp.module.globals.push(g));
    }
    for func in kernels {
        let mut f = function::import_kernel(&mut imp, func)?;
        if let Some(info) = f.kernel.as_mut() {
            info.enqueued_block = is_enqueued_block(func);
        }
        imp.module.functions.push(f);
    }
    Ok(imp.module)
}

/// Whether a kernel is one clang made of a block for `enqueue_kernel`
/// (`__<caller>_block_invoke_kernel`): kernels enqueue it by its address
/// (a kernel the host runs never has its address taken), and clang gives
/// it none of the `kernel_arg_*` metadata it gives the source's kernels.
fn is_enqueued_block(f: Val) -> bool {
    // SAFETY: asking a live function for its first use.
    let used = unsafe { !llvm_sys::core::LLVMGetFirstUse(f.0).is_null() };
    used || f.function_metadata("kernel_arg_addr_space").is_none()
}

fn module_globals(m: LLVMModuleRef) -> Vec<Val> {
    let mut out = Vec::new();
    // SAFETY: iterating the globals of a live module.
    let mut g = unsafe { llvm_sys::core::LLVMGetFirstGlobal(m) };
    while !g.is_null() {
        out.push(Val(g));
        g = unsafe { llvm_sys::core::LLVMGetNextGlobal(g) };
    }
    out
}

fn module_functions(m: LLVMModuleRef) -> Vec<Val> {
    let mut out = Vec::new();
    // SAFETY: iterating the functions of a live module.
    let mut f = unsafe { llvm_sys::core::LLVMGetFirstFunction(m) };
    while !f.is_null() {
        out.push(Val(f));
        f = unsafe { llvm_sys::core::LLVMGetNextFunction(f) };
    }
    out
}

impl Importer {
    pub fn unsupported(
        &self,
        construct: impl Into<String>,
        loc: Option<(u32, u32)>,
    ) -> CompileError {
        CompileError::Unsupported {
            construct: construct.into(),
            location: loc.map(|(line, col)| Location {
                file: self.file_name.clone(),
                line,
                col,
            }),
            in_function: None,
        }
    }

    fn declare_global(&mut self, g: Val) -> CompileResult<()> {
        let value_ty = global_value_type(g);
        let space = match addr_space(g.ty().pointer_addr_space()) {
            Some(s) => s,
            None => {
                return Err(self.unsupported(
                    format!("variable '{}' in an unknown address space", g.name()),
                    None,
                ))
            }
        };
        let size = self.layout.alloc_size(value_ty);
        let align = g.alignment().max(self.layout.abi_align(value_ty)).max(1);
        let name = unique_name(&self.module, &g.name());
        let id = self.module.globals.push(ir::GlobalData {
            name,
            space,
            size,
            align,
            init: None,
            relocs: Vec::new(),
        });
        self.globals.insert(g, id);
        Ok(())
    }

    fn define_global(&mut self, g: Val) -> CompileResult<()> {
        let id = self.globals[&g];
        let space = self.module.globals[id].space;
        if space == ir::AddrSpace::Local {
            return Ok(());
        }
        let Some(init) = g.initializer() else {
            return Ok(());
        };
        let size = self.module.globals[id].size as usize;
        let mut bytes = vec![0u8; size];
        let mut relocs = Vec::new();
        self.write_constant(init, global_value_type(g), &mut bytes, 0, &mut relocs)?;
        let data = &mut self.module.globals[id];
        data.init = Some(bytes);
        data.relocs = relocs;
        Ok(())
    }

    /// Lays out the constant `c` of type `ty` at `offset` in `buf`.
    fn write_constant(
        &self,
        c: Val,
        ty: Ty,
        buf: &mut [u8],
        offset: usize,
        relocs: &mut Vec<ir::Reloc>,
    ) -> CompileResult<()> {
        use llvm_sys::LLVMTypeKind::*;
        if c.is_undef_or_poison() {
            return Ok(());
        }
        match ty.kind() {
            LLVMIntegerTypeKind => {
                let Some(v) = c.const_int() else {
                    return self.write_constant_expr(c, buf, offset, relocs);
                };
                let n = ty.int_width().div_ceil(8) as usize;
                buf[offset..offset + n].copy_from_slice(&v.to_le_bytes()[..n]);
            }
            LLVMHalfTypeKind | LLVMFloatTypeKind | LLVMDoubleTypeKind => {
                let x = c.const_fp().unwrap_or(0.0);
                let scalar = types::scalar_type(ty).expect("float kinds map to IR floats");
                let bits = types::float_bits(x, scalar);
                let n = scalar.bytes() as usize;
                buf[offset..offset + n].copy_from_slice(&bits.to_le_bytes()[..n]);
            }
            LLVMPointerTypeKind => {
                if c.is_null_value() {
                    return Ok(());
                }
                self.write_constant_expr(c, buf, offset, relocs)?;
            }
            LLVMVectorTypeKind | LLVMArrayTypeKind => {
                let n = if ty.kind() == LLVMVectorTypeKind {
                    ty.vector_len() as u64
                } else {
                    ty.array_len()
                };
                let elem = ty.element();
                let stride = if ty.kind() == LLVMVectorTypeKind {
                    types::scalar_type(elem).map_or(1, |t| t.bytes() as u64)
                } else {
                    self.layout.alloc_size(elem)
                };
                if c.is_null_value() {
                    return Ok(());
                }
                for i in 0..n {
                    let e = c.const_element(i as u32).ok_or_else(|| {
                        self.unsupported("a constant initializer of this form", None)
                    })?;
                    self.write_constant(e, elem, buf, offset + (i * stride) as usize, relocs)?;
                }
            }
            LLVMStructTypeKind => {
                if c.is_null_value() {
                    return Ok(());
                }
                for (i, field) in ty.struct_fields().into_iter().enumerate() {
                    let e = c.const_element(i as u32).ok_or_else(|| {
                        self.unsupported("a constant initializer of this form", None)
                    })?;
                    let at = offset + self.layout.field_offset(ty, i as u32) as usize;
                    self.write_constant(e, field, buf, at, relocs)?;
                }
            }
            _ => return Err(self.unsupported(format!("a constant of type {}", ty.print()), None)),
        }
        Ok(())
    }

    /// The value of a constant that is a function's address (through
    /// casts), if it is one. Lockstep IR has no function pointers: OpenCL C
    /// calls functions and blocks directly and enqueues a block by its
    /// invoke kernel, so the only addresses of functions are the `invoke`
    /// fields of block literals, which nothing calls through. Such an
    /// address is an opaque nonzero value, distinct per function: its
    /// position in the module plus one.
    pub fn function_address(&self, c: Val) -> Option<u64> {
        let c = strip_casts(c);
        if !c.is_function() {
            return None;
        }
        self.function_tokens.get(&c).copied()
    }

    /// A pointer-valued constant in an initializer: a variable's address,
    /// possibly offset by constant GEPs and casts (or a function's, see
    /// [`Importer::function_address`]).
    fn write_constant_expr(
        &self,
        c: Val,
        buf: &mut [u8],
        offset: usize,
        relocs: &mut Vec<ir::Reloc>,
    ) -> CompileResult<()> {
        if let Some(token) = self.function_address(c) {
            if let Some(dst) = buf.get_mut(offset..offset + 8) {
                dst.copy_from_slice(&token.to_le_bytes());
            }
            return Ok(());
        }
        // A cast of null (the SPIR-V translator writes
        // `addrspacecast (ptr null to ptr addrspace(4))`): zero bytes.
        if strip_casts(c).is_null_value() {
            return Ok(());
        }
        let (target, addend) = self.constant_address(c)?;
        relocs.push(ir::Reloc {
            offset: offset as u64,
            target,
            addend,
        });
        let _ = buf;
        Ok(())
    }

    /// The variable and byte offset a constant pointer expression denotes.
    pub fn constant_address(&self, c: Val) -> CompileResult<(ir::GlobalId, i64)> {
        if let Some(&id) = self.globals.get(&c) {
            return Ok((id, 0));
        }
        if c.is_instruction() || !c.is_constant() {
            return Err(self.unsupported(format!("initializer {}", c.print()), None));
        }
        match c.const_opcode() {
            LLVMOpcode::LLVMGetElementPtr => {
                let (id, base) = self.constant_address(c.operand(0))?;
                let mut offset = base;
                let source = c.gep_source_type();
                let indices: Vec<i64> = c.operands()[1..]
                    .iter()
                    .map(|i| i.const_int().map(|v| sign_extend(v, i.ty().int_width())))
                    .collect::<Option<_>>()
                    .ok_or_else(|| self.unsupported(format!("initializer {}", c.print()), None))?;
                offset += types::constant_gep_offset(&self.layout, source, &indices);
                Ok((id, offset))
            }
            LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast => {
                self.constant_address(c.operand(0))
            }
            _ => Err(self.unsupported(format!("initializer {}", c.print()), None)),
        }
    }
}

/// A constant without its bit and address space casts.
fn strip_casts(c: Val) -> Val {
    let mut c = c;
    while c.kind() == llvm_sys::LLVMValueKind::LLVMConstantExprValueKind
        && matches!(
            c.const_opcode(),
            LLVMOpcode::LLVMBitCast | LLVMOpcode::LLVMAddrSpaceCast
        )
    {
        c = c.operand(0);
    }
    c
}

/// The type of a global variable's contents.
fn global_value_type(g: Val) -> Ty {
    // SAFETY: `g` is a global variable.
    Ty(unsafe { llvm_sys::core::LLVMGlobalGetValueType(g.0) })
}

fn unique_name(module: &ir::Module, name: &str) -> String {
    let base: String = if name.is_empty() {
        "anon".to_string()
    } else {
        name.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "_.$".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let mut candidate = base.clone();
    let mut n = 1;
    while module.global_by_name(&candidate).is_some()
        || module.function_by_name(&candidate).is_some()
    {
        candidate = format!("{base}.{n}");
        n += 1;
    }
    candidate
}

pub(crate) fn sign_extend(v: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return v as i64;
    }
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}
