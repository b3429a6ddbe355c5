//! SPIR-V 1.4's instructions that the translator (`llvm-spirv-15`) cannot
//! read, rewritten before translation as SPIR-V 1.0 instructions with the
//! same meaning ([`lower`]).
//!
//! OpenCL 3.1 requires SPIR-V 1.4. The translator reads most of it (the
//! entry point's interface listing every global variable, `OpSelect` and
//! `OpCopyLogical` on composites, the new loop controls, image operands and
//! decorations) but stops on these, which this pass rewrites:
//!
//! * `OpPtrEqual` / `OpPtrNotEqual`: both pointers converted to 64-bit
//!   integers (`OpConvertPtrToU`) and compared (`OpIEqual` /
//!   `OpINotEqual`); the device's addresses are flat and 64 bits wide.
//! * `OpPtrDiff`: the converted pointers' difference divided (`OpSDiv`) by
//!   the element size, taken as the distance from the second pointer to
//!   its next element (`OpPtrAccessChain` by 1), so no type layout is
//!   computed here; converted to the result type when that is narrower.
//! * `OpDecorateString` / `OpMemberDecorateString`: dropped. Their
//!   decorations (`UserSemantic`, `UserTypeGOOGLE`) are notes for tools
//!   that change no result, and the translator stops on them (as it does
//!   on SPIR-V 1.0's `OpDecorate` with `UserSemantic` on a built-in
//!   variable).
//! * `OpCopyLogical`: a copy between two types of the same shape (structs
//!   declared twice): each member extracted (`OpCompositeExtract`), copied
//!   the same way, and the target's composite built from them
//!   (`OpCompositeConstruct`); an `OpCopyObject` where the types are one.
//! * `OpCopyMemory` (SPIR-V 1.0's, which the translator cannot read
//!   either): an `OpLoad` of the source's pointee and an `OpStore` of it,
//!   each with its memory operand (SPIR-V 1.4 may give the target's, then
//!   the source's; with one, it applies to both).
//! * `OpCopyMemorySized` with two memory operands: the target's, made
//!   volatile when the source's is. Memory operands are hints
//!   (alignment, non-temporal, visibility), so dropping the source's
//!   changes no result.
//!
//! The words must have passed [`crate::spirv::Module::parse`] (every
//! instruction's length inside the module, ids under the bound).

// Opcodes (SPIR-V's unified grammar).
const OP_FUNCTION_PARAMETER: u32 = 55;
const OP_FUNCTION_CALL: u32 = 57;
const OP_VARIABLE: u32 = 59;
const OP_LOAD: u32 = 61;
const OP_COPY_MEMORY: u32 = 63;
const OP_COPY_MEMORY_SIZED: u32 = 64;
const OP_ACCESS_CHAIN: u32 = 65;
const OP_IN_BOUNDS_ACCESS_CHAIN: u32 = 66;
const OP_PTR_ACCESS_CHAIN: u32 = 67;
const OP_IN_BOUNDS_PTR_ACCESS_CHAIN: u32 = 70;
const OP_COMPOSITE_EXTRACT: u32 = 81;
const OP_COPY_OBJECT: u32 = 83;
const OP_CONSTANT: u32 = 43;
const OP_CONSTANT_NULL: u32 = 46;
const OP_UNDEF: u32 = 1;
const OP_TYPE_INT: u32 = 21;
const OP_CAPABILITY: u32 = 17;
const OP_U_CONVERT: u32 = 113;
const OP_CONVERT_PTR_TO_U: u32 = 117;
const OP_CONVERT_U_TO_PTR: u32 = 120;
const OP_PTR_CAST_TO_GENERIC: u32 = 121;
const OP_GENERIC_CAST_TO_PTR: u32 = 122;
const OP_GENERIC_CAST_TO_PTR_EXPLICIT: u32 = 123;
const OP_BITCAST: u32 = 124;
const OP_I_SUB: u32 = 130;
const OP_S_DIV: u32 = 135;
const OP_SELECT: u32 = 169;
const OP_I_EQUAL: u32 = 170;
const OP_I_NOT_EQUAL: u32 = 171;
const OP_PHI: u32 = 245;
const OP_STORE: u32 = 62;
const OP_TYPE_POINTER: u32 = 32;
const OP_TYPE_ARRAY: u32 = 28;
const OP_TYPE_STRUCT: u32 = 30;
const OP_CONSTANT_COMPOSITE: u32 = 44;
const OP_SPEC_CONSTANT_COMPOSITE: u32 = 51;
const OP_COMPOSITE_CONSTRUCT: u32 = 80;
const OP_COMPOSITE_INSERT: u32 = 82;
const OP_COPY_LOGICAL: u32 = 400;
const OP_PTR_EQUAL: u32 = 401;
const OP_PTR_NOT_EQUAL: u32 = 402;
const OP_PTR_DIFF: u32 = 403;
const OP_DECORATE_STRING: u32 = 5632;
const OP_MEMBER_DECORATE_STRING: u32 = 5633;
const CAPABILITY_INT64: u32 = 11;
// Memory operand bits and how many words follow each.
const MEMORY_VOLATILE: u32 = 0x1;
const MEMORY_ALIGNED: u32 = 0x2;
const MEMORY_MAKE_POINTER_AVAILABLE: u32 = 0x8;
const MEMORY_MAKE_POINTER_VISIBLE: u32 = 0x10;

/// The opcodes whose result can be a pointer or a composite, each
/// `[type, id, ...]`: where the type of an `OpPtrDiff`, `OpCopyMemory` or
/// `OpCopyLogical` operand is found.
const TYPED_RESULTS: &[u32] = &[
    OP_CONSTANT_COMPOSITE,
    OP_SPEC_CONSTANT_COMPOSITE,
    OP_COMPOSITE_CONSTRUCT,
    OP_COMPOSITE_INSERT,
    OP_COPY_LOGICAL,
    OP_UNDEF,
    OP_CONSTANT_NULL,
    OP_FUNCTION_PARAMETER,
    OP_FUNCTION_CALL,
    OP_VARIABLE,
    OP_LOAD,
    OP_ACCESS_CHAIN,
    OP_IN_BOUNDS_ACCESS_CHAIN,
    OP_PTR_ACCESS_CHAIN,
    OP_IN_BOUNDS_PTR_ACCESS_CHAIN,
    OP_COMPOSITE_EXTRACT,
    OP_COPY_OBJECT,
    OP_CONVERT_U_TO_PTR,
    OP_PTR_CAST_TO_GENERIC,
    OP_GENERIC_CAST_TO_PTR,
    OP_GENERIC_CAST_TO_PTR_EXPLICIT,
    OP_BITCAST,
    OP_SELECT,
    OP_PHI,
];

fn inst(opcode: u32, operands: &[u32]) -> Vec<u32> {
    let mut out = vec![((operands.len() as u32 + 1) << 16) | opcode];
    out.extend_from_slice(operands);
    out
}

/// The module's words with SPIR-V 1.4's instructions the translator lacks
/// rewritten (see the module documentation); the same words when it has
/// none. An `OpPtrDiff` whose operand's type cannot be found is an error.
pub fn lower(words: &[u32]) -> Result<Vec<u32>, String> {
    let header = &words[..5];
    let mut insts: Vec<&[u32]> = Vec::new();
    let mut at = 5;
    while at < words.len() {
        let count = (words[at] >> 16) as usize;
        insts.push(&words[at..at + count]);
        at += count;
    }
    let opcode = |i: &[u32]| i[0] & 0xffff;
    if !insts.iter().any(|i| {
        matches!(
            opcode(i),
            OP_PTR_EQUAL
                | OP_PTR_NOT_EQUAL
                | OP_PTR_DIFF
                | OP_DECORATE_STRING
                | OP_MEMBER_DECORATE_STRING
                | OP_COPY_MEMORY
                | OP_COPY_MEMORY_SIZED
                | OP_COPY_LOGICAL
        )
    }) {
        return Ok(words.to_vec());
    }

    let mut bound = header[3];
    let mut fresh = || {
        bound += 1;
        bound - 1
    };
    let needs_ulong = insts
        .iter()
        .any(|i| matches!(opcode(i), OP_PTR_EQUAL | OP_PTR_NOT_EQUAL | OP_PTR_DIFF));
    let needs_one = insts.iter().any(|i| opcode(i) == OP_PTR_DIFF);
    // The 64-bit unsigned integer type and the constant 1 of it, found or
    // declared (a second `OpTypeInt 64 0` would be invalid).
    let existing_ulong = insts
        .iter()
        .find(|i| opcode(i) == OP_TYPE_INT && i.len() == 4 && i[2] == 64 && i[3] == 0)
        .map(|i| i[1]);
    let ulong = existing_ulong.unwrap_or_else(&mut fresh);
    let existing_one = existing_ulong.and_then(|t| {
        insts
            .iter()
            .find(|i| opcode(i) == OP_CONSTANT && i.len() == 5 && i[1] == t && i[3..] == [1, 0])
            .map(|i| i[2])
    });
    let one = existing_one.unwrap_or_else(&mut fresh);
    let mut declarations: Vec<u32> = Vec::new();
    if needs_ulong && existing_ulong.is_none() {
        declarations.extend(inst(OP_TYPE_INT, &[ulong, 64, 0]));
    }
    if needs_one && existing_one.is_none() {
        declarations.extend(inst(OP_CONSTANT, &[ulong, one, 1, 0]));
    }
    let has_int64 = insts
        .iter()
        .any(|i| opcode(i) == OP_CAPABILITY && i.get(1) == Some(&CAPABILITY_INT64));

    let mut types = Types::default();
    let mut out: Vec<u32> = header.to_vec();
    if needs_ulong && existing_ulong.is_none() && !has_int64 {
        out.extend(inst(OP_CAPABILITY, &[CAPABILITY_INT64]));
    }
    let mut declared = declarations.is_empty();
    for i in &insts {
        let op = opcode(i);
        types.note(op, i);
        // New declarations go after the existing 64-bit type when there
        // is one (the constant needs it), else before the first type.
        let is_type_or_constant = (19..=39).contains(&op) || (41..=52).contains(&op);
        if !declared && existing_ulong.is_none() && is_type_or_constant {
            out.extend(&declarations);
            declared = true;
        }
        match op {
            OP_PTR_EQUAL | OP_PTR_NOT_EQUAL if i.len() == 5 => {
                let (a, b) = (fresh(), fresh());
                out.extend(inst(OP_CONVERT_PTR_TO_U, &[ulong, a, i[3]]));
                out.extend(inst(OP_CONVERT_PTR_TO_U, &[ulong, b, i[4]]));
                let compare = if op == OP_PTR_EQUAL {
                    OP_I_EQUAL
                } else {
                    OP_I_NOT_EQUAL
                };
                out.extend(inst(compare, &[i[1], i[2], a, b]));
            }
            OP_PTR_DIFF if i.len() == 5 => {
                let (result_type, result, p, q) = (i[1], i[2], i[3], i[4]);
                let pointer_type = types.of(q, "OpPtrDiff")?;
                let (a, b, next, c, distance, size) =
                    (fresh(), fresh(), fresh(), fresh(), fresh(), fresh());
                out.extend(inst(OP_CONVERT_PTR_TO_U, &[ulong, a, p]));
                out.extend(inst(OP_CONVERT_PTR_TO_U, &[ulong, b, q]));
                out.extend(inst(OP_PTR_ACCESS_CHAIN, &[pointer_type, next, q, one]));
                out.extend(inst(OP_CONVERT_PTR_TO_U, &[ulong, c, next]));
                out.extend(inst(OP_I_SUB, &[ulong, size, c, b]));
                out.extend(inst(OP_I_SUB, &[ulong, distance, a, b]));
                if result_type == ulong {
                    out.extend(inst(OP_S_DIV, &[ulong, result, distance, size]));
                } else {
                    let wide = fresh();
                    out.extend(inst(OP_S_DIV, &[ulong, wide, distance, size]));
                    out.extend(inst(OP_U_CONVERT, &[result_type, result, wide]));
                }
            }
            OP_DECORATE_STRING | OP_MEMBER_DECORATE_STRING => {}
            OP_COPY_MEMORY if i.len() >= 3 => {
                let (target, source) = (i[1], i[2]);
                let pointee = types.pointee(types.of(source, "OpCopyMemory")?)?;
                let (target_access, source_access) = memory_operands(&i[3..]);
                let value = fresh();
                out.extend(inst(
                    OP_LOAD,
                    &[&[pointee, value, source][..], source_access].concat(),
                ));
                out.extend(inst(
                    OP_STORE,
                    &[&[target, value][..], target_access].concat(),
                ));
            }
            OP_COPY_MEMORY_SIZED if i.len() >= 4 => {
                let (target_access, source_access) = memory_operands(&i[4..]);
                let mut operands = [&i[1..4], target_access].concat();
                if source_access
                    .first()
                    .is_some_and(|m| m & MEMORY_VOLATILE != 0)
                {
                    if let Some(mask) = operands.get_mut(3) {
                        *mask |= MEMORY_VOLATILE;
                    }
                }
                out.extend(inst(op, &operands));
            }
            OP_COPY_LOGICAL if i.len() == 4 => {
                let (to, result, value) = (i[1], i[2], i[3]);
                let from = types.of(value, "OpCopyLogical")?;
                copy_logical(&types, value, from, to, Some(result), &mut fresh, &mut out)?;
            }
            _ => out.extend_from_slice(i),
        }
        if !declared && op == OP_TYPE_INT && i.get(1).copied() == existing_ulong {
            out.extend(&declarations);
            declared = true;
        }
    }
    out[3] = bound;
    Ok(out)
}

/// The memory operands of an `OpCopyMemory[Sized]` (the words after its
/// fixed operands), split into the target's and the source's: with one,
/// it is both.
fn memory_operands(words: &[u32]) -> (&[u32], &[u32]) {
    let Some(&first) = words.first() else {
        return (&[], &[]);
    };
    let extra = [
        MEMORY_ALIGNED,
        MEMORY_MAKE_POINTER_AVAILABLE,
        MEMORY_MAKE_POINTER_VISIBLE,
    ]
    .iter()
    .filter(|&&bit| first & bit != 0)
    .count();
    let end = (1 + extra).min(words.len());
    let (target, rest) = words.split_at(end);
    (target, if rest.is_empty() { target } else { rest })
}

/// The types this pass needs: each typed value's type, each pointer type's
/// pointee, each struct's members and each array's element and length.
#[derive(Default)]
struct Types {
    values: Vec<(u32, u32)>,
    pointees: Vec<(u32, u32)>,
    composites: Vec<(u32, Vec<u32>)>,
    constants: Vec<(u32, u32)>,
}

impl Types {
    fn note(&mut self, op: u32, i: &[u32]) {
        match op {
            OP_TYPE_POINTER if i.len() == 4 => self.pointees.push((i[1], i[3])),
            OP_TYPE_STRUCT if i.len() >= 2 => self.composites.push((i[1], i[2..].to_vec())),
            OP_TYPE_ARRAY if i.len() == 4 => {
                let length = self
                    .constants
                    .iter()
                    .find(|c| c.0 == i[3])
                    .map_or(0, |c| c.1);
                self.composites.push((i[1], vec![i[2]; length as usize]));
            }
            OP_CONSTANT if i.len() >= 4 => self.constants.push((i[2], i[3])),
            _ => {}
        }
        if TYPED_RESULTS.contains(&op) && i.len() >= 3 {
            self.values.push((i[2], i[1]));
        }
    }

    fn of(&self, value: u32, what: &str) -> Result<u32, String> {
        self.values
            .iter()
            .rev()
            .find(|v| v.0 == value)
            .map(|v| v.1)
            .ok_or_else(|| format!("{what}: the type of its operand %{value} is not known"))
    }

    fn pointee(&self, pointer: u32) -> Result<u32, String> {
        self.pointees
            .iter()
            .find(|p| p.0 == pointer)
            .map(|p| p.1)
            .ok_or_else(|| format!("%{pointer} is not a pointer type"))
    }

    fn members(&self, ty: u32) -> Option<&[u32]> {
        self.composites
            .iter()
            .find(|c| c.0 == ty)
            .map(|c| c.1.as_slice())
    }
}

/// Writes the copy of `value` (of type `from`) as type `to`, member by
/// member; its id is `result` when given. Returns the copy's id.
fn copy_logical(
    types: &Types,
    value: u32,
    from: u32,
    to: u32,
    result: Option<u32>,
    fresh: &mut dyn FnMut() -> u32,
    out: &mut Vec<u32>,
) -> Result<u32, String> {
    if from == to {
        return Ok(match result {
            Some(id) => {
                out.extend(inst(OP_COPY_OBJECT, &[to, id, value]));
                id
            }
            None => value,
        });
    }
    let (Some(from_members), Some(to_members)) = (types.members(from), types.members(to)) else {
        return Err(format!(
            "OpCopyLogical: types %{from} and %{to} are not structs or arrays of the same shape"
        ));
    };
    if from_members.len() != to_members.len() {
        return Err(format!(
            "OpCopyLogical: types %{from} and %{to} have {} and {} members",
            from_members.len(),
            to_members.len()
        ));
    }
    let mut parts = Vec::with_capacity(to_members.len());
    for (k, (&f, &t)) in from_members.iter().zip(to_members).enumerate() {
        let member = fresh();
        out.extend(inst(OP_COMPOSITE_EXTRACT, &[f, member, value, k as u32]));
        parts.push(copy_logical(types, member, f, t, None, fresh, out)?);
    }
    let id = result.unwrap_or_else(&mut *fresh);
    out.extend(inst(
        OP_COMPOSITE_CONSTRUCT,
        &[&[to, id][..], &parts].concat(),
    ));
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(bound: u32) -> Vec<u32> {
        vec![crate::spirv::MAGIC, 0x0001_0400, 0, bound, 0]
    }

    #[test]
    fn a_module_without_them_is_unchanged() {
        let mut words = header(3);
        words.extend(inst(OP_CAPABILITY, &[6]));
        words.extend(inst(OP_TYPE_INT, &[1, 32, 0]));
        assert_eq!(lower(&words).unwrap(), words);
    }

    #[test]
    fn pointer_comparisons_and_differences_become_integer_arithmetic() {
        // %1 = uint, %2 = ptr to uint, %3 = bool, %4/%5 parameters,
        // %6 = PtrEqual, %7 = PtrDiff %1 (narrower than 64 bits).
        let mut words = header(8);
        words.extend(inst(OP_CAPABILITY, &[6]));
        words.extend(inst(OP_TYPE_INT, &[1, 32, 0]));
        words.extend(inst(32, &[2, 5, 1]));
        words.extend(inst(20, &[3]));
        words.extend(inst(OP_FUNCTION_PARAMETER, &[2, 4]));
        words.extend(inst(OP_FUNCTION_PARAMETER, &[2, 5]));
        words.extend(inst(OP_PTR_EQUAL, &[3, 6, 4, 5]));
        words.extend(inst(OP_PTR_DIFF, &[1, 7, 4, 5]));
        let out = lower(&words).unwrap();
        let mut ops = Vec::new();
        let mut at = 5;
        while at < out.len() {
            ops.push(out[at] & 0xffff);
            at += (out[at] >> 16) as usize;
        }
        assert_eq!(
            ops,
            [
                OP_CAPABILITY,
                OP_CAPABILITY,
                OP_TYPE_INT,
                OP_CONSTANT,
                OP_TYPE_INT,
                32,
                20,
                OP_FUNCTION_PARAMETER,
                OP_FUNCTION_PARAMETER,
                OP_CONVERT_PTR_TO_U,
                OP_CONVERT_PTR_TO_U,
                OP_I_EQUAL,
                OP_CONVERT_PTR_TO_U,
                OP_CONVERT_PTR_TO_U,
                OP_PTR_ACCESS_CHAIN,
                OP_CONVERT_PTR_TO_U,
                OP_I_SUB,
                OP_I_SUB,
                OP_S_DIV,
                OP_U_CONVERT,
            ]
        );
        // Ulong %8, one %9; two converts each, and the rest fresh: %10..%18.
        assert_eq!(out[3], 19);
    }

    #[test]
    fn a_copy_has_the_targets_memory_operand_then_the_sources() {
        // Aligned 4, then Volatile.
        let words = [MEMORY_ALIGNED, 4, MEMORY_VOLATILE];
        assert_eq!(memory_operands(&words), (&words[..2], &words[2..]));
        // One operand applies to both; none is none.
        assert_eq!(memory_operands(&[MEMORY_VOLATILE]), (&[1][..], &[1][..]));
        assert_eq!(memory_operands(&[]), (&[][..], &[][..]));
    }
}
