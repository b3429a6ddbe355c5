//! Shared by the IR's integration tests: which parts of the IR a module
//! exercises (so the roundtrip filetests and the random module generator can
//! both be checked to cover the whole instruction set), and the small
//! dominance computation that needs.

// Each test binary that includes this module uses a different part of it.
#![allow(dead_code)]

use std::collections::BTreeSet;

use cranelift_entity::EntityRef;
use lockstep_ir::{
    AccessQual, AtomicRmwOp, BinaryOp, Block, ConvertOp, DeviceOp, FenceFlags, FloatCC, Function,
    InstData, IntCC, MemOrder, MemScope, Module, Rounding, TernaryOp, Type, UnaryOp, ValueDef,
    WorkItemQuery,
};

/// Dominator sets of a CFG over blocks `0..n` (entry 0), as bit masks.
/// Only edges from reachable blocks count, as in the verifier.
pub struct Doms {
    pub reachable: Vec<bool>,
    /// `dom[b]` has bit `a` set if `a` dominates `b` (reachable blocks only).
    pub dom: Vec<u64>,
}

impl Doms {
    pub fn compute(succs: &[Vec<usize>]) -> Doms {
        let n = succs.len();
        assert!(n <= 64, "Doms handles up to 64 blocks");
        let mut reachable = vec![false; n];
        let mut stack = vec![0];
        while let Some(b) = stack.pop() {
            if !std::mem::replace(&mut reachable[b], true) {
                stack.extend(&succs[b]);
            }
        }
        let all: u64 = (0..n).filter(|&b| reachable[b]).map(|b| 1 << b).sum();
        let mut dom: Vec<u64> = (0..n).map(|b| if b == 0 { 1 } else { all }).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for b in 1..n {
                if !reachable[b] {
                    continue;
                }
                let preds = (0..n).filter(|&p| reachable[p] && succs[p].contains(&b));
                let new = preds.fold(all, |acc, p| acc & dom[p]) | 1 << b;
                if new != dom[b] {
                    dom[b] = new;
                    changed = true;
                }
            }
        }
        Doms { reachable, dom }
    }

    /// The immediate dominator of reachable `b`: its strict dominator with
    /// the most dominators.
    pub fn idom(&self, b: usize) -> Option<usize> {
        (0..self.dom.len())
            .filter(|&a| a != b && self.dom[b] >> a & 1 == 1)
            .max_by_key(|&a| self.dom[a].count_ones())
    }
}

/// True if some cycle of the reachable CFG can be entered at more than one
/// block: a depth-first retreating edge whose target does not dominate its
/// source.
pub fn is_irreducible(succs: &[Vec<usize>]) -> bool {
    fn dfs(b: usize, succs: &[Vec<usize>], state: &mut [u8], retreating: &mut Vec<(usize, usize)>) {
        state[b] = 1;
        for &s in &succs[b] {
            match state[s] {
                0 => dfs(s, succs, state, retreating),
                1 => retreating.push((b, s)),
                _ => {}
            }
        }
        state[b] = 2;
    }
    let doms = Doms::compute(succs);
    let mut state = vec![0; succs.len()];
    let mut retreating = Vec::new();
    dfs(0, succs, &mut state, &mut retreating);
    retreating
        .iter()
        .any(|&(from, to)| doms.dom[from] >> to & 1 == 0)
}

/// The successor lists of `func`'s layout, with blocks numbered by layout
/// position.
pub fn layout_cfg(func: &Function) -> Vec<Vec<usize>> {
    let index = |b: Block| func.layout.iter().position(|&x| x == b);
    func.layout
        .iter()
        .map(|&b| func.successors(b).into_iter().filter_map(index).collect())
        .collect()
}

/// Everything the roundtrip tests must exercise, as coverage keys.
/// What the filetests must also cover: gang-level IR, which the random
/// generator of `roundtrip_prop` does not produce.
pub fn required_gang_coverage() -> BTreeSet<String> {
    let mut keys: BTreeSet<String> = [
        "gang",
        "gang:per-lane-values",
        "predicated:load",
        "predicated:store",
        "predicated:atomic_rmw",
        "undef",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    keys.extend(
        lockstep_ir::GangOp::ALL
            .iter()
            .map(|op| format!("gang:{op}")),
    );
    keys.extend(
        lockstep_ir::GangOp::ALL
            .iter()
            .filter(|op| op.sub_group_arity().is_some())
            .map(|op| format!("sub_group:{op}")),
    );
    keys.insert("gang:clustered".into());
    keys.insert("sub_group:clustered".into());
    keys
}

pub fn required_coverage() -> BTreeSet<String> {
    let mut keys: BTreeSet<String> = [
        "select",
        "ptradd",
        "load",
        "load.volatile",
        "store",
        "store.volatile",
        "stack_addr",
        "global_addr",
        "memcpy",
        "memset",
        "atomic_cas",
        "atomic_load",
        "atomic_store",
        "fence",
        "barrier",
        "call",
        "call:void",
        "call:forward",
        "printf",
        "printf:escapes",
        "async_copied",
        "async_wait",
        "jump",
        "jump:args",
        "suspend",
        "suspend:args",
        "brif",
        "brif:args",
        "switch",
        "switch:args",
        "switch:negative",
        "return:value",
        "return:void",
        "unreachable",
        "srcloc",
        "sat",
        "iconst:negative",
        "fconst:f16",
        "fconst:finite",
        "fconst:-0.0",
        "fconst:nan",
        "fconst:inf",
        "fconst:f64",
        "flag:none",
        "block-params",
        "layout:non-numeric",
        "values:gap",
        "cfg:irreducible",
        "kernel",
        "byval",
        "reqd_work_group_size",
        "reqd_sub_group_size",
        "work_group_size_hint",
        "vec_type_hint",
        "enqueued_block",
        "stack_slot",
        "global:init",
        "global:reloc",
        "global:reloc-forward",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let mut add = |prefix: &str, names: &mut dyn Iterator<Item = &'static str>| {
        keys.extend(names.map(|n| format!("{prefix}:{n}")));
    };
    add("unary", &mut UnaryOp::ALL.iter().map(|o| o.name()));
    add("binary", &mut BinaryOp::ALL.iter().map(|o| o.name()));
    add("ternary", &mut TernaryOp::ALL.iter().map(|o| o.name()));
    add("icmp", &mut IntCC::ALL.iter().map(|o| o.name()));
    add("fcmp", &mut FloatCC::ALL.iter().map(|o| o.name()));
    add("convert", &mut ConvertOp::ALL.iter().map(|o| o.name()));
    add("rounding", &mut Rounding::ALL.iter().map(|o| o.name()));
    add("atomic_rmw", &mut AtomicRmwOp::ALL.iter().map(|o| o.name()));
    add("order", &mut MemOrder::ALL.iter().map(|o| o.name()));
    add("scope", &mut MemScope::ALL.iter().map(|o| o.name()));
    add("query", &mut WorkItemQuery::ALL.iter().map(|o| o.name()));
    add("device", &mut DeviceOp::ALL.iter().map(|o| o.name()));
    add("flag", &mut FenceFlags::NAMED.iter().map(|(_, n)| *n));
    add("iconst", &mut ["i1", "i8", "i16", "i32", "i64"].into_iter());
    add("access", &mut AccessQual::ALL.iter().map(|a| a.name()));
    add(
        "qual",
        &mut ["const", "restrict", "volatile", "pipe"].into_iter(),
    );
    add(
        "phase",
        &mut ["imported", "normalized", "linearized"].into_iter(),
    );
    // Program-scope variables live in these spaces.
    add("global", &mut ["constant", "global", "local"].into_iter());
    keys
}

/// The coverage keys `module` exercises (see [`required_coverage`]).
pub fn coverage(module: &Module) -> BTreeSet<String> {
    let mut keys = BTreeSet::new();
    let mut key = |k: String| {
        keys.insert(k);
    };
    for (id, g) in module.globals.iter() {
        key(format!("global:{}", g.space));
        if g.init.is_some() {
            key("global:init".into());
        }
        for r in &g.relocs {
            key("global:reloc".into());
            if r.target > id {
                key("global:reloc-forward".into());
            }
        }
    }
    for (fid, func) in module.functions.iter() {
        key(format!("phase:{}", func.phase.name()));
        if func.gang.is_some() {
            key("gang".into());
            if func.values.keys().any(|v| func.is_varying(v)) {
                key("gang:per-lane-values".into());
            }
        }
        if let Some(info) = &func.kernel {
            key("kernel".into());
            for arg in &info.args {
                key(format!("access:{}", arg.access.name()));
                let q = arg.qualifiers;
                for (on, name) in [
                    (q.is_const, "const"),
                    (q.is_restrict, "restrict"),
                    (q.is_volatile, "volatile"),
                    (q.is_pipe, "pipe"),
                ] {
                    if on {
                        key(format!("qual:{name}"));
                    }
                }
                if arg.byval.is_some() {
                    key("byval".into());
                }
            }
            for (present, name) in [
                (info.reqd_work_group_size.is_some(), "reqd_work_group_size"),
                (info.reqd_sub_group_size.is_some(), "reqd_sub_group_size"),
                (info.work_group_size_hint.is_some(), "work_group_size_hint"),
                (info.vec_type_hint.is_some(), "vec_type_hint"),
                (info.enqueued_block, "enqueued_block"),
            ] {
                if present {
                    key(name.into());
                }
            }
        }
        if !func.stack_slots.is_empty() {
            key("stack_slot".into());
        }
        if func.layout.windows(2).any(|w| w[0] > w[1]) {
            key("layout:non-numeric".into());
        }
        let defined = func
            .layout
            .iter()
            .flat_map(|&b| {
                let results = func.blocks[b].insts.iter().filter_map(|&i| func.results[i]);
                func.blocks[b].params.iter().copied().chain(results)
            })
            .count();
        let used_numbers = func
            .values
            .iter()
            .filter(|(_, d)| d.def != ValueDef::Unused)
            .map(|(v, _)| v.index() + 1)
            .max()
            .unwrap_or(0);
        if defined < used_numbers {
            key("values:gap".into());
        }
        if func
            .layout
            .iter()
            .skip(1)
            .any(|&b| !func.blocks[b].params.is_empty())
        {
            key("block-params".into());
        }
        if is_irreducible(&layout_cfg(func)) {
            key("cfg:irreducible".into());
        }
        for (_, inst) in func.insts_in_layout() {
            if func.srclocs[inst].is_some() {
                key("srcloc".into());
            }
            let result_ty = func.results[inst].map(|v| func.value_type(v));
            let data = &func.insts[inst];
            for k in inst_coverage(module, fid.index(), func, data, result_ty) {
                key(k);
            }
        }
    }
    keys
}

fn inst_coverage(
    module: &Module,
    caller: usize,
    func: &Function,
    data: &InstData,
    result_ty: Option<Type>,
) -> Vec<String> {
    let mut keys = Vec::new();
    let mut key = |k: String| keys.push(k);
    let (mut order, mut scope, mut flags) = (None, None, None);
    match data {
        InstData::Iconst { imm } => {
            let ty = result_ty.expect("iconst has a result");
            if ty.is_int() {
                key(format!("iconst:{ty}"));
                if ty != Type::I1 && imm >> (ty.bits() - 1) & 1 == 1 {
                    key("iconst:negative".into());
                }
            }
        }
        InstData::Undef => key("undef".into()),
        InstData::Fconst { bits } => {
            let ty = result_ty.expect("fconst has a result");
            key(format!("fconst:{ty}"));
            let x = match ty {
                Type::F32 => f32::from_bits(*bits as u32) as f64,
                Type::F64 => f64::from_bits(*bits),
                _ => return keys,
            };
            let class = if x.is_nan() {
                "nan"
            } else if x.is_infinite() {
                "inf"
            } else if x == 0.0 && x.is_sign_negative() {
                "-0.0"
            } else {
                "finite"
            };
            key(format!("fconst:{class}"));
        }
        InstData::Unary { op, .. } => key(format!("unary:{op}")),
        InstData::Binary { op, .. } => key(format!("binary:{op}")),
        InstData::Ternary { op, .. } => key(format!("ternary:{op}")),
        InstData::Icmp { cond, .. } => key(format!("icmp:{cond}")),
        InstData::Fcmp { cond, .. } => key(format!("fcmp:{cond}")),
        InstData::Select { .. } => key("select".into()),
        InstData::Convert {
            op,
            rounding,
            saturate,
            ..
        } => {
            key(format!("convert:{op}"));
            if *rounding != op.default_rounding() {
                key(format!("rounding:{rounding}"));
            }
            if *saturate {
                key("sat".into());
            }
        }
        InstData::PtrAdd { .. } => key("ptradd".into()),
        InstData::Load { volatile, .. } => {
            key(if *volatile { "load.volatile" } else { "load" }.into())
        }
        InstData::Store { volatile, .. } => {
            key(if *volatile { "store.volatile" } else { "store" }.into())
        }
        InstData::StackAddr { .. } => key("stack_addr".into()),
        InstData::GlobalAddr { .. } => key("global_addr".into()),
        InstData::MemCopy { .. } => key("memcpy".into()),
        InstData::MemSet { .. } => key("memset".into()),
        InstData::AtomicRmw {
            op,
            order: o,
            scope: s,
            ..
        } => {
            key(format!("atomic_rmw:{op}"));
            (order, scope) = (Some(*o), Some(*s));
        }
        InstData::AtomicCas {
            order: o, scope: s, ..
        } => {
            key("atomic_cas".into());
            (order, scope) = (Some(*o), Some(*s));
        }
        InstData::AtomicLoad {
            order: o, scope: s, ..
        } => {
            key("atomic_load".into());
            (order, scope) = (Some(*o), Some(*s));
        }
        InstData::AtomicStore {
            order: o, scope: s, ..
        } => {
            key("atomic_store".into());
            (order, scope) = (Some(*o), Some(*s));
        }
        InstData::Fence {
            flags: f,
            order: o,
            scope: s,
        } => {
            key("fence".into());
            (order, scope, flags) = (Some(*o), Some(*s), Some(*f));
        }
        InstData::Barrier { flags: f, scope: s } => {
            key("barrier".into());
            (scope, flags) = (Some(*s), Some(*f));
        }
        InstData::WorkItem { query, .. } => key(format!("query:{query}")),
        InstData::NextItem => key("next_item".into()),
        InstData::Gang { op, args } => {
            key(format!("gang:{op}"));
            if op
                .collective()
                .is_some_and(|(k, _)| k == lockstep_ir::Collective::Reduce)
                && args.len() == 3
            {
                key("gang:clustered".into());
            }
        }
        InstData::SubGroup { op, args } => {
            key(format!("sub_group:{op}"));
            if op.collective().is_some() && args.len() == 2 {
                key("sub_group:clustered".into());
            }
        }
        InstData::Predicated { inst, .. } => {
            key(format!("predicated:{}", inst.mnemonic()));
        }
        InstData::Call { func: callee, .. } => {
            key("call".into());
            if result_ty.is_none() {
                key("call:void".into());
            }
            if callee.index() > caller && module.functions.get(*callee).is_some() {
                key("call:forward".into());
            }
        }
        InstData::AsyncCopied { .. } | InstData::AsyncWait { .. } => key(data.mnemonic().into()),
        InstData::DeviceEnqueue { op, .. } => key(format!("device:{op}")),
        InstData::Printf { format, .. } => {
            key("printf".into());
            if format
                .bytes()
                .any(|b| b"\n\t\"\\".contains(&b) || !(0x20..0x7f).contains(&b))
            {
                key("printf:escapes".into());
            }
        }
        InstData::Suspend {
            flags: f,
            scope: s,
            dest,
            ..
        } => {
            key("suspend".into());
            if !dest.args.is_empty() {
                key("suspend:args".into());
            }
            (scope, flags) = (Some(*s), Some(*f));
        }
        InstData::Jump { dest } => {
            key("jump".into());
            if !dest.args.is_empty() {
                key("jump:args".into());
            }
        }
        InstData::Brif {
            then_dest,
            else_dest,
            ..
        } => {
            key("brif".into());
            if !then_dest.args.is_empty() || !else_dest.args.is_empty() {
                key("brif:args".into());
            }
        }
        InstData::Switch {
            arg,
            default,
            cases,
        } => {
            key("switch".into());
            let ty = func.value_type(*arg);
            if ty != Type::I1 && cases.iter().any(|(v, _)| v >> (ty.bits() - 1) & 1 == 1) {
                key("switch:negative".into());
            }
            if !default.args.is_empty() || cases.iter().any(|(_, d)| !d.args.is_empty()) {
                key("switch:args".into());
            }
        }
        InstData::Return { arg } => key(if arg.is_some() {
            "return:value"
        } else {
            "return:void"
        }
        .into()),
        InstData::Unreachable => key("unreachable".into()),
    }
    if let Some(order) = order {
        key(format!("order:{order}"));
    }
    if let Some(scope) = scope {
        key(format!("scope:{scope}"));
    }
    if let Some(flags) = flags {
        if flags == FenceFlags::NONE {
            key("flag:none".into());
        }
        for (f, name) in FenceFlags::NAMED {
            if flags.0 & f.0 != 0 {
                key(format!("flag:{name}"));
            }
        }
    }
    keys
}

/// The keys of `required` missing from `covered`, for an assertion message.
pub fn missing(required: &BTreeSet<String>, covered: &BTreeSet<String>) -> Vec<String> {
    required.difference(covered).cloned().collect()
}
