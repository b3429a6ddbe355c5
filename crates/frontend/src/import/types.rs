//! LLVM types seen as Lockstep IR scalars: which scalars a value of an LLVM
//! type splits into, and where they sit in memory.

use llvm_sys::LLVMTypeKind::*;
use lockstep_ir::{AddrSpace, Type};

use crate::llvm::{Layout, Ty};

/// The Lockstep address space of a `spir64` LLVM address space number.
pub fn addr_space(n: u32) -> Option<AddrSpace> {
    Some(match n {
        0 => AddrSpace::Private,
        1 => AddrSpace::Global,
        2 => AddrSpace::Constant,
        3 => AddrSpace::Local,
        4 => AddrSpace::Generic,
        _ => return None,
    })
}

/// The IR type of a scalar LLVM type (integer, float or pointer).
pub fn scalar_type(ty: Ty) -> Option<Type> {
    match ty.kind() {
        LLVMIntegerTypeKind => container(ty.int_width()),
        LLVMHalfTypeKind => Some(Type::F16),
        LLVMFloatTypeKind => Some(Type::F32),
        LLVMDoubleTypeKind => Some(Type::F64),
        LLVMPointerTypeKind => addr_space(ty.pointer_addr_space()).map(Type::Ptr),
        LLVMTargetExtTypeKind => Some(opaque_type(ty)),
        _ => None,
    }
}

/// The IR type of an opaque OpenCL handle (`target("spirv.*")`). An image
/// (`image2d_t`, ...) is a `__global` pointer to the image's storage: its
/// descriptor followed by its texels (`builtins/images.cl`, the runtime's
/// `image` module); so is a pipe (`read_only pipe int`) to its header and
/// packet ring (`builtins/pipes.cl`, the runtime's `pipe` module). A
/// sampler (`sampler_t`) is its 32-bit `CLK_*` bitfield. Other handles
/// (`event_t`, `reserve_id_t`) are 64-bit values.
pub fn opaque_type(ty: Ty) -> Type {
    let text = ty.print();
    if text.starts_with("target(\"spirv.Image\"") || text.starts_with("target(\"spirv.Pipe\"") {
        Type::Ptr(AddrSpace::Global)
    } else if text.starts_with("target(\"spirv.Sampler\"") {
        Type::I32
    } else {
        Type::I64
    }
}

/// The legal integer type that holds an `iN`: `N` itself for 1, 8, 16, 32
/// and 64; otherwise the next wider one, holding the value zero-extended
/// (LLVM's loop passes make types like `i33` for trip counts).
pub fn container(bits: u32) -> Option<Type> {
    match bits {
        1 => Some(Type::I1),
        2..=8 => Some(Type::I8),
        9..=16 => Some(Type::I16),
        17..=32 => Some(Type::I32),
        33..=64 => Some(Type::I64),
        _ => None,
    }
}

/// The width of an integer (or integer vector) type that is not a legal
/// IR width, if it is one of those.
pub fn odd_int_width(ty: Ty) -> Option<u32> {
    let elem = if ty.kind() == LLVMVectorTypeKind {
        ty.element()
    } else {
        ty
    };
    let w = elem.int_width();
    (w > 1 && !matches!(w, 8 | 16 | 32 | 64)).then_some(w)
}

/// The scalars a value of `ty` splits into, in order (vectors by element,
/// arrays and structs recursively). `None` if some part has no IR type.
pub fn leaf_types(ty: Ty) -> Option<Vec<Type>> {
    let mut out = Vec::new();
    push_leaves(ty, &mut out)?;
    Some(out)
}

fn push_leaves(ty: Ty, out: &mut Vec<Type>) -> Option<()> {
    match ty.kind() {
        LLVMVoidTypeKind => {}
        LLVMVectorTypeKind => {
            let elem = scalar_type(ty.element())?;
            out.extend(std::iter::repeat_n(elem, ty.vector_len() as usize));
        }
        LLVMArrayTypeKind => {
            for _ in 0..ty.array_len() {
                push_leaves(ty.element(), out)?;
            }
        }
        LLVMStructTypeKind => {
            for field in ty.struct_fields() {
                push_leaves(field, out)?;
            }
        }
        _ => out.push(scalar_type(ty)?),
    }
    Some(())
}

/// The scalars of `ty` with their byte offsets in memory.
pub fn memory_leaves(layout: &Layout, ty: Ty) -> Option<Vec<(u64, Type)>> {
    let mut out = Vec::new();
    push_memory_leaves(layout, ty, 0, &mut out)?;
    Some(out)
}

fn push_memory_leaves(
    layout: &Layout,
    ty: Ty,
    base: u64,
    out: &mut Vec<(u64, Type)>,
) -> Option<()> {
    match ty.kind() {
        LLVMVectorTypeKind => {
            let elem = scalar_type(ty.element())?;
            if elem == Type::I1 {
                return None; // bit-packed in memory
            }
            for i in 0..ty.vector_len() as u64 {
                out.push((base + i * elem.bytes() as u64, elem));
            }
        }
        LLVMArrayTypeKind => {
            let stride = layout.alloc_size(ty.element());
            for i in 0..ty.array_len() {
                push_memory_leaves(layout, ty.element(), base + i * stride, out)?;
            }
        }
        LLVMStructTypeKind => {
            for (i, field) in ty.struct_fields().into_iter().enumerate() {
                push_memory_leaves(layout, field, base + layout.field_offset(ty, i as u32), out)?;
            }
        }
        _ => {
            if odd_int_width(ty).is_some() {
                return None; // no legal memory form
            }
            out.push((base, scalar_type(ty)?))
        }
    }
    Some(())
}

/// The byte offset of a GEP with constant indices over `source`.
pub fn constant_gep_offset(layout: &Layout, source: Ty, indices: &[i64]) -> i64 {
    let mut offset = 0i64;
    let mut ty = source;
    for (n, &index) in indices.iter().enumerate() {
        if n == 0 {
            offset += index * layout.alloc_size(source) as i64;
            continue;
        }
        match ty.kind() {
            LLVMStructTypeKind => {
                offset += layout.field_offset(ty, index as u32) as i64;
                ty = ty.struct_fields()[index as usize];
            }
            LLVMVectorTypeKind => {
                ty = ty.element();
                offset += index * scalar_type(ty).map_or(0, |t| t.bytes() as i64);
            }
            _ => {
                ty = ty.element();
                offset += index * layout.alloc_size(ty) as i64;
            }
        }
    }
    offset
}

/// The IEEE bits of `x` as a float of type `ty` (exact for values that came
/// from a constant of that type).
pub fn float_bits(x: f64, ty: Type) -> u64 {
    match ty {
        Type::F64 => x.to_bits(),
        Type::F32 => (x as f32).to_bits() as u64,
        _ => f32_to_f16_bits(x as f32) as u64,
    }
}

/// Converts an f32 to IEEE half bits, rounding to nearest even.
pub fn f32_to_f16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x7f_ffff;
    if exp == 0xff {
        return sign
            | 0x7c00
            | if man != 0 {
                0x200 | (man >> 13) as u16
            } else {
                0
            };
    }
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        if e < -10 {
            return sign;
        }
        let m = man | 0x80_0000;
        let shift = (14 - e) as u32;
        let half = 1u32 << (shift - 1);
        let rest = m & ((1 << shift) - 1);
        let mut r = (m >> shift) as u16;
        if rest > half || (rest == half && r & 1 == 1) {
            r += 1;
        }
        return sign | r;
    }
    let mut r = ((e as u32) << 10 | (man >> 13)) as u16;
    let rest = man & 0x1fff;
    if rest > 0x1000 || (rest == 0x1000 && r & 1 == 1) {
        r += 1;
    }
    sign | r
}
