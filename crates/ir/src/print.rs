//! The text format's printer. Value and block numbers are printed as they
//! are, so printing, parsing and printing again gives the same text.
//!
//! The format, by example:
//!
//! ```text
//! global @table: constant, size 8, align 4, init x"0100000002000000"
//!
//! kernel @scale(ptr.global, i32) {
//!     arg 0 "out" "int*" none none
//!     arg 1 "k" "int" none const
//!     ss0 = stack_slot 16, align 4
//! block0(v0: ptr.global, v1: i32):
//!     v2: i64 = global_id 0
//!     v3: i64 = iconst 4
//!     v4: i64 = imul v2, v3
//!     v5: ptr.global = ptradd v0, v4
//!     store v1, v5, align 4 !12:5
//!     return
//! }
//! ```
//!
//! `;` starts a comment to the end of the line; `!line:col` after an
//! instruction is its source location.

use std::fmt::{self, Write};

use crate::entities::{Block, FuncId, GlobalId, Inst, Value};
use crate::function::{Function, Phase};
use crate::instructions::{BlockCall, FenceFlags, InstData, WorkItemQuery};
use crate::module::{GlobalData, Module, TypeQuals};
use crate::types::Type;

/// What an annotation can be attached to when printing with [`write_function_annotated`].
#[derive(Copy, Clone, Debug)]
pub enum Item {
    /// A block header line.
    Block(Block),
    /// An instruction line.
    Inst(Inst),
}

/// Writes a whole module: variables first, then functions in id order.
pub fn write_module(w: &mut dyn Write, module: &Module) -> fmt::Result {
    let mut first = true;
    for (_, global) in module.globals.iter() {
        write_global(w, module, global)?;
        first = false;
    }
    for (_, func) in module.functions.iter() {
        if !first {
            writeln!(w)?;
        }
        first = false;
        write_function(w, Some(module), func)?;
    }
    Ok(())
}

/// The module as text.
pub fn module_to_string(module: &Module) -> String {
    let mut s = String::new();
    write_module(&mut s, module).expect("writing to a String cannot fail");
    s
}

fn write_global(w: &mut dyn Write, module: &Module, g: &GlobalData) -> fmt::Result {
    write!(
        w,
        "global @{}: {}, size {}, align {}",
        g.name, g.space, g.size, g.align
    )?;
    if let Some(init) = &g.init {
        write!(w, ", init x\"")?;
        for byte in init {
            write!(w, "{byte:02x}")?;
        }
        write!(w, "\"")?;
    }
    for r in &g.relocs {
        write!(w, ", reloc {} = ", r.offset)?;
        write_global_name(w, Some(module), r.target)?;
        write!(w, " + {}", r.addend)?;
    }
    writeln!(w)
}

/// Writes one function. `module` supplies callee and variable names; without
/// it they print as `@fn3`, `@gv1`.
pub fn write_function(w: &mut dyn Write, module: Option<&Module>, func: &Function) -> fmt::Result {
    write_function_annotated(w, module, func, &|_| None)
}

/// The function as text.
pub fn function_to_string(module: Option<&Module>, func: &Function) -> String {
    let mut s = String::new();
    write_function(&mut s, module, func).expect("writing to a String cannot fail");
    s
}

/// Writes one function, appending `; <note>` to each block header or
/// instruction line for which `annotate` returns a note.
pub fn write_function_annotated(
    w: &mut dyn Write,
    module: Option<&Module>,
    func: &Function,
    annotate: &dyn Fn(Item) -> Option<String>,
) -> fmt::Result {
    let keyword = if func.is_kernel() {
        "kernel"
    } else {
        "function"
    };
    write!(w, "{keyword} @{}(", func.name)?;
    for (i, ty) in func.signature.params.iter().enumerate() {
        if i > 0 {
            write!(w, ", ")?;
        }
        write!(w, "{ty}")?;
    }
    write!(w, ")")?;
    if let Some(ret) = func.signature.ret {
        write!(w, " -> {ret}")?;
    }
    writeln!(w, " {{")?;
    if func.phase != Phase::Imported {
        writeln!(w, "    phase {}", func.phase.name())?;
    }
    if let Some(width) = func.gang {
        writeln!(w, "    gang {width}")?;
    }
    if func.refill {
        writeln!(w, "    refill")?;
    }
    if let Some(info) = &func.kernel {
        for (i, arg) in info.args.iter().enumerate() {
            write!(w, "    arg {i} ")?;
            write_string(w, &arg.name)?;
            write!(w, " ")?;
            write_string(w, &arg.type_name)?;
            write!(
                w,
                " {} {}",
                arg.access.name(),
                quals_to_string(arg.qualifiers)
            )?;
            if let Some(byval) = arg.byval {
                write!(w, " byval {}, align {}", byval.size, byval.align)?;
            }
            writeln!(w)?;
        }
        if let Some([x, y, z]) = info.reqd_work_group_size {
            writeln!(w, "    reqd_work_group_size {x}, {y}, {z}")?;
        }
        if let Some([x, y, z]) = info.work_group_size_hint {
            writeln!(w, "    work_group_size_hint {x}, {y}, {z}")?;
        }
        if let Some(hint) = &info.vec_type_hint {
            write!(w, "    vec_type_hint ")?;
            write_string(w, hint)?;
            writeln!(w)?;
        }
        if let Some(n) = info.reqd_sub_group_size {
            writeln!(w, "    reqd_sub_group_size {n}")?;
        }
        if info.enqueued_block {
            writeln!(w, "    enqueued_block")?;
        }
    }
    for (slot, data) in func.stack_slots.iter() {
        write!(
            w,
            "    {slot} = stack_slot {}, align {}",
            data.size, data.align
        )?;
        if let Some(e) = data.interleave {
            write!(w, ", interleaved {e}")?;
        }
        writeln!(w)?;
    }
    for &block in &func.layout {
        write!(w, "{block}")?;
        let params = &func.blocks[block].params;
        if !params.is_empty() {
            write!(w, "(")?;
            for (i, &p) in params.iter().enumerate() {
                if i > 0 {
                    write!(w, ", ")?;
                }
                write!(w, "{p}: {}", value_type_text(func, p))?;
            }
            write!(w, ")")?;
        }
        write!(w, ":")?;
        write_note(w, annotate(Item::Block(block)))?;
        writeln!(w)?;
        for &inst in &func.blocks[block].insts {
            write!(w, "    ")?;
            write_inst(w, module, func, inst)?;
            write_note(w, annotate(Item::Inst(inst)))?;
            writeln!(w)?;
        }
    }
    writeln!(w, "}}")
}

fn write_note(w: &mut dyn Write, note: Option<String>) -> fmt::Result {
    match note {
        Some(note) => write!(w, " ; {note}"),
        None => Ok(()),
    }
}

/// One instruction as text, e.g. for error messages: `v4: i32 = iadd v1, v2`.
pub fn inst_to_string(module: Option<&Module>, func: &Function, inst: Inst) -> String {
    let mut s = String::new();
    write_inst(&mut s, module, func, inst).expect("writing to a String cannot fail");
    s
}

/// Writes one instruction line (without indentation or newline).
pub fn write_inst(
    w: &mut dyn Write,
    module: Option<&Module>,
    func: &Function,
    inst: Inst,
) -> fmt::Result {
    if let Some(result) = func.results[inst] {
        write!(w, "{result}: {} = ", value_type_text(func, result))?;
    }
    write_operation(w, module, func, inst, &func.insts[inst])?;
    if let Some(loc) = func.srclocs[inst] {
        write!(w, " !{}:{}", loc.line, loc.col)?;
    }
    Ok(())
}

/// A value's type as written: `<T>` for one element per lane (gang-level IR).
fn value_type_text(func: &Function, v: Value) -> String {
    if func.is_varying(v) {
        format!("<{}>", func.value_type(v))
    } else {
        func.value_type(v).to_string()
    }
}

/// The mnemonic and operands of `data`, the payload of `inst`.
fn write_operation(
    w: &mut dyn Write,
    module: Option<&Module>,
    func: &Function,
    inst: Inst,
    data: &InstData,
) -> fmt::Result {
    write!(w, "{}", data.mnemonic())?;
    match data {
        InstData::Predicated { mask, inst: inner } => {
            // `mnemonic` gave the inner instruction's; write its operands.
            let mut rest = String::new();
            write_operation(&mut rest, module, func, inst, inner)?;
            write!(w, "{} if {mask}", &rest[inner.mnemonic().len()..])?;
        }
        InstData::Gang { args, .. } => {
            for (i, a) in args.iter().enumerate() {
                write!(w, "{}{a}", if i == 0 { " " } else { ", " })?;
            }
        }
        InstData::SubGroup { op, args } => {
            write!(w, " {op}")?;
            for (i, a) in args.iter().enumerate() {
                write!(w, "{}{a}", if i == 0 { " " } else { ", " })?;
            }
        }
        InstData::Iconst { imm } => {
            let ty = func.results[inst].map(|v| func.value_type(v));
            write!(w, " {}", format_int(*imm, ty.unwrap_or(Type::I64)))?;
        }
        InstData::Fconst { bits } => {
            let ty = func.results[inst].map(|v| func.value_type(v));
            write!(w, " {}", format_float(*bits, ty.unwrap_or(Type::F64)))?;
        }
        InstData::Unary { arg, .. } => write!(w, " {arg}")?,
        InstData::Binary { args: [a, b], .. } | InstData::PtrAdd { args: [a, b] } => {
            write!(w, " {a}, {b}")?
        }
        InstData::Ternary {
            args: [a, b, c], ..
        }
        | InstData::Select { args: [a, b, c] }
        | InstData::MemCopy { args: [a, b, c] }
        | InstData::MemSet { args: [a, b, c] } => write!(w, " {a}, {b}, {c}")?,
        InstData::Icmp { cond, args: [a, b] } => write!(w, " {cond} {a}, {b}")?,
        InstData::Fcmp { cond, args: [a, b] } => write!(w, " {cond} {a}, {b}")?,
        InstData::Convert {
            op,
            arg,
            rounding,
            saturate,
        } => {
            if *rounding != op.default_rounding() {
                write!(w, ".{rounding}")?;
            }
            if *saturate {
                write!(w, ".sat")?;
            }
            write!(w, " {arg}")?;
        }
        InstData::Load {
            ptr,
            align,
            volatile,
        } => {
            if *volatile {
                write!(w, ".volatile")?;
            }
            write!(w, " {ptr}, align {align}")?;
        }
        InstData::Store {
            args: [v, p],
            align,
            volatile,
        } => {
            if *volatile {
                write!(w, ".volatile")?;
            }
            write!(w, " {v}, {p}, align {align}")?;
        }
        InstData::StackAddr { slot } => write!(w, " {slot}")?,
        InstData::GlobalAddr { global } => {
            write!(w, " ")?;
            write_global_name(w, module, *global)?;
        }
        InstData::AtomicRmw {
            op,
            args: [p, v],
            order,
            scope,
        } => write!(w, ".{op} {p}, {v}, {order}, {scope}")?,
        InstData::AtomicCas {
            args: [p, e, n],
            order,
            scope,
        } => write!(w, " {p}, {e}, {n}, {order}, {scope}")?,
        InstData::AtomicLoad { ptr, order, scope } => write!(w, " {ptr}, {order}, {scope}")?,
        InstData::AtomicStore {
            args: [v, p],
            order,
            scope,
        } => write!(w, " {v}, {p}, {order}, {scope}")?,
        InstData::Fence {
            flags,
            order,
            scope,
        } => write!(w, " {}, {order}, {scope}", flags_to_string(*flags))?,
        InstData::Barrier { flags, scope } => write!(w, " {}, {scope}", flags_to_string(*flags))?,
        InstData::WorkItem { query, dim } => {
            if query.takes_dim() {
                write!(w, " {dim}")?;
            }
        }
        InstData::Call { func: callee, args } => {
            write!(w, " ")?;
            write_func_name(w, module, *callee)?;
            write_args(w, args)?;
        }
        InstData::AsyncCopied {
            args: [d, s, n, ss, ds, e],
            elem,
        } => write!(w, " {d}, {s}, {n}, {ss}, {ds}, {e}, elem {elem}")?,
        InstData::AsyncWait { arg } => write!(w, " {arg}")?,
        InstData::Printf { format, args } => {
            write!(w, " ")?;
            write_string(w, format)?;
            for a in args {
                write!(w, ", {a}")?;
            }
        }
        InstData::DeviceEnqueue { kernel, args, .. } => {
            if let Some(k) = kernel {
                write!(w, " ")?;
                write_func_name(w, module, *k)?;
            }
            for (i, a) in args.iter().enumerate() {
                let sep = if i == 0 { " " } else { ", " };
                write!(w, "{sep}{a}")?;
            }
        }
        InstData::Jump { dest } => {
            write!(w, " ")?;
            write_block_call(w, dest)?;
        }
        InstData::Suspend {
            flags,
            scope,
            dest,
            arriving,
        } => {
            write!(w, " {}, {scope}, ", flags_to_string(*flags))?;
            write_block_call(w, dest)?;
            if let Some(m) = arriving {
                write!(w, ", arriving {m}")?;
            }
        }
        InstData::Brif {
            cond,
            then_dest,
            else_dest,
        } => {
            write!(w, " {cond}, ")?;
            write_block_call(w, then_dest)?;
            write!(w, ", ")?;
            write_block_call(w, else_dest)?;
        }
        InstData::Switch {
            arg,
            default,
            cases,
        } => {
            write!(w, " {arg}, ")?;
            write_block_call(w, default)?;
            write!(w, ", [")?;
            let ty = func.value_type(*arg);
            for (i, (value, dest)) in cases.iter().enumerate() {
                if i > 0 {
                    write!(w, ", ")?;
                }
                write!(w, "{}: ", format_int(*value, ty))?;
                write_block_call(w, dest)?;
            }
            write!(w, "]")?;
        }
        InstData::Return { arg } => {
            if let Some(arg) = arg {
                write!(w, " {arg}")?;
            }
        }
        InstData::Unreachable | InstData::Undef | InstData::NextItem => {}
    }
    Ok(())
}

impl WorkItemQuery {
    /// True for the queries that take a dimension index.
    pub fn takes_dim(self) -> bool {
        !matches!(
            self,
            WorkItemQuery::WorkDim | WorkItemQuery::GlobalLinearId | WorkItemQuery::LocalLinearId
        ) && !self.is_sub_group()
    }
}

fn write_args(w: &mut dyn Write, args: &[Value]) -> fmt::Result {
    write!(w, "(")?;
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            write!(w, ", ")?;
        }
        write!(w, "{a}")?;
    }
    write!(w, ")")
}

fn write_block_call(w: &mut dyn Write, call: &BlockCall) -> fmt::Result {
    write!(w, "{}", call.block)?;
    if !call.args.is_empty() {
        write_args(w, &call.args)?;
    }
    Ok(())
}

fn write_func_name(w: &mut dyn Write, module: Option<&Module>, id: FuncId) -> fmt::Result {
    match module.and_then(|m| m.functions.get(id)) {
        Some(f) => write!(w, "@{}", f.name),
        None => write!(w, "@{id}"),
    }
}

fn write_global_name(w: &mut dyn Write, module: Option<&Module>, id: GlobalId) -> fmt::Result {
    match module.and_then(|m| m.globals.get(id)) {
        Some(g) => write!(w, "@{}", g.name),
        None => write!(w, "@{id}"),
    }
}

/// An integer constant of type `ty` as printed: signed decimal (`i1` as 0 or
/// 1, pointers unsigned).
pub fn format_int(bits: u64, ty: Type) -> String {
    match ty {
        Type::I1 | Type::Ptr(_) => format!("{bits}"),
        _ => {
            let shift = 64 - ty.bits();
            format!("{}", ((bits << shift) as i64) >> shift)
        }
    }
}

/// A float constant as printed: the shortest decimal that reads back to the
/// same bits when there is one, else the hex bits (`0x7fc00000`).
pub fn format_float(bits: u64, ty: Type) -> String {
    match ty {
        Type::F32 => {
            let x = f32::from_bits(bits as u32);
            if x.is_finite() {
                return format!("{x:?}");
            }
        }
        Type::F64 => {
            let x = f64::from_bits(bits);
            if x.is_finite() {
                return format!("{x:?}");
            }
        }
        _ => {}
    }
    format!("{:#x}", bits)
}

/// Fence flags as printed: `local|global`, or `none`.
pub fn flags_to_string(flags: FenceFlags) -> String {
    let names: Vec<&str> = FenceFlags::NAMED
        .iter()
        .filter(|(f, _)| flags.0 & f.0 != 0)
        .map(|(_, n)| *n)
        .collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join("|")
    }
}

fn quals_to_string(q: TypeQuals) -> String {
    let names: Vec<&str> = [
        (q.is_const, "const"),
        (q.is_restrict, "restrict"),
        (q.is_volatile, "volatile"),
        (q.is_pipe, "pipe"),
    ]
    .into_iter()
    .filter(|(on, _)| *on)
    .map(|(_, n)| n)
    .collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join("|")
    }
}

/// Writes a double-quoted string with `\\`, `\"`, `\n`, `\t` and `\xNN` escapes.
pub fn write_string(w: &mut dyn Write, s: &str) -> fmt::Result {
    write!(w, "\"")?;
    for byte in s.bytes() {
        match byte {
            b'\\' => write!(w, "\\\\")?,
            b'"' => write!(w, "\\\"")?,
            b'\n' => write!(w, "\\n")?,
            b'\t' => write!(w, "\\t")?,
            0x20..=0x7e => write!(w, "{}", byte as char)?,
            _ => write!(w, "\\x{byte:02x}")?,
        }
    }
    write!(w, "\"")
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_module(f, self)
    }
}
