//! Text and Graphviz views of the analyses, for `lockstep compile --emit
//! uniformity|cfg-dot` and for the filetests.
//!
//! The listing is the function in the text format with a note on every
//! line: the shape of each value, whether each branch diverges (and where its
//! lanes join), loop headers and join points on block lines. The dot graph
//! shows the same facts as colours, so that a divergent, irreducible CFG can
//! be read at a glance.

use std::fmt::Write as _;

use lockstep_ir::print::{write_function_annotated, Item};
use lockstep_ir::{FuncId, Function, InstData, Module};

use crate::analysis::{Loop, LoopForest, Uniformity};

fn names(blocks: &[lockstep_ir::Block]) -> String {
    blocks
        .iter()
        .map(|b| b.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A value's shape, and the divergent loop outside which it is varying.
fn shape_note(info: &Uniformity, v: lockstep_ir::Value) -> String {
    match info.varying_outside(v) {
        Some(lp) => format!("{} (varying outside {lp})", info.shape(v)),
        None => info.shape(v).to_string(),
    }
}

/// The note for a block header line.
fn block_note(func: &Function, info: &Uniformity, block: lockstep_ir::Block) -> Option<String> {
    let mut parts = Vec::new();
    if !info.is_reachable(block) {
        return Some("unreachable".to_string());
    }
    let params = &func.blocks[block].params;
    if !params.is_empty() {
        parts.push(
            params
                .iter()
                .map(|&p| format!("{p} {}", shape_note(info, p)))
                .collect::<Vec<_>>()
                .join(", "),
        );
    }
    let loops = info.loops();
    for lp in loops.loops() {
        if !loops.entries(lp).contains(&block) {
            continue;
        }
        let what = if loops.is_reducible(lp) {
            "header"
        } else {
            "irreducible entry"
        };
        let div = if info.is_divergent_loop(lp) {
            ", divergent"
        } else {
            ""
        };
        parts.push(format!("{lp} {what}{div}"));
    }
    if info.is_join(block) {
        parts.push(format!("join of {}", names(info.joined_branches(block))));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// The note for an instruction line.
fn inst_note(func: &Function, info: &Uniformity, inst: lockstep_ir::Inst) -> Option<String> {
    let block = func.inst_block[inst]?;
    if !info.is_reachable(block) {
        return None;
    }
    if let Some(r) = func.results[inst] {
        return Some(shape_note(info, r));
    }
    match func.insts[inst] {
        InstData::Brif { .. } | InstData::Switch { .. } => Some(if info.is_divergent(block) {
            let joins = info.join_points(block);
            if joins.is_empty() {
                "divergent".to_string()
            } else {
                format!("divergent, joins at {}", names(joins))
            }
        } else {
            "uniform".to_string()
        }),
        _ => None,
    }
}

/// The function printed with a trailing note on every line: `; uniform`,
/// `; consecutive(4)` or `; varying` after each value definition (block
/// parameters on the block line), `; divergent` or `; uniform` after each
/// `brif` and `switch`. Block lines also name loop headers (and irreducible
/// entries) and the divergent branches a block is a join point of; a value
/// that is used outside a divergent loop it is defined in says
/// `(varying outside loopN)`.
pub fn uniformity_listing(module: &Module, func: FuncId, info: &Uniformity) -> String {
    let f = &module.functions[func];
    let mut out = String::new();
    let annotate = |item: Item| match item {
        Item::Block(b) => block_note(f, info, b),
        Item::Inst(i) => inst_note(f, info, i),
    };
    write_function_annotated(&mut out, Some(module), f, &annotate)
        .expect("writing to a String cannot fail");
    out
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The CFG of `func` in Graphviz dot: loops as nested clusters (blue,
/// irreducible ones orange with their entries filled orange, divergent ones
/// labelled so), join points of divergent branches as double octagons,
/// edges of divergent branches red, back edges bold blue, unreachable
/// blocks dashed grey.
pub fn cfg_dot(module: &Module, func: FuncId, info: &Uniformity) -> String {
    let f = &module.functions[func];
    let cfg = info.cfg();
    let loops = info.loops();
    let mut out = String::new();
    let _ = writeln!(out, "digraph \"{}\" {{", dot_escape(&f.name));
    let _ = writeln!(out, "    label=\"@{}\";", dot_escape(&f.name));
    let _ = writeln!(out, "    node [shape=box, fontname=\"monospace\"];");
    let node = |out: &mut String, indent: &str, b: lockstep_ir::Block| {
        let mut attrs = vec![format!("label=\"{b}\"")];
        if !cfg.is_reachable(b) {
            attrs.push("style=dashed, color=grey, fontcolor=grey".into());
        } else if loops
            .irreducible_loops()
            .any(|l| loops.entries(l).contains(&b))
        {
            attrs.push("style=filled, fillcolor=orange".into());
        } else if loops.loops().any(|l| loops.header(l) == b) {
            attrs.push("penwidth=2".into());
        }
        if info.is_join(b) {
            attrs.push("shape=doubleoctagon".into());
        }
        if info.is_divergent(b) {
            attrs.push("color=red".into());
        }
        let _ = writeln!(out, "{indent}{b} [{}];", attrs.join(", "));
    };
    fn cluster(
        out: &mut String,
        loops: &LoopForest,
        info: &Uniformity,
        lp: Loop,
        depth: usize,
        node: &dyn Fn(&mut String, &str, lockstep_ir::Block),
    ) {
        let indent = "    ".repeat(depth);
        let reducible = loops.is_reducible(lp);
        let mut label = if reducible {
            format!("{lp}")
        } else {
            format!("{lp} irreducible, entries {}", names(loops.entries(lp)))
        };
        if info.is_divergent_loop(lp) {
            label.push_str(" (divergent)");
        }
        let color = if reducible { "blue" } else { "orange" };
        let _ = writeln!(out, "{indent}subgraph cluster_{lp} {{");
        let _ = writeln!(out, "{indent}    label=\"{label}\"; color={color};");
        for &b in loops.blocks(lp) {
            if loops.innermost_loop(b) == Some(lp) {
                node(out, &format!("{indent}    "), b);
            }
        }
        for &c in loops.children(lp) {
            cluster(out, loops, info, c, depth + 1, node);
        }
        let _ = writeln!(out, "{indent}}}");
    }
    for &b in cfg.blocks() {
        if loops.innermost_loop(b).is_none() {
            node(&mut out, "    ", b);
        }
    }
    for &lp in loops.roots() {
        cluster(&mut out, loops, info, lp, 1, &node);
    }
    for &b in cfg.blocks() {
        let Some(term) = f.terminator(b) else {
            continue;
        };
        let data = &f.insts[term];
        let labels: Vec<String> = match data {
            InstData::Brif { .. } => vec!["T".into(), "F".into()],
            InstData::Switch { cases, .. } => std::iter::once("default".to_string())
                .chain(cases.iter().map(|(v, _)| v.to_string()))
                .collect(),
            _ => vec![String::new()],
        };
        for (dest, label) in data.branch_dests().iter().zip(labels) {
            let s = dest.block;
            let mut attrs = Vec::new();
            if !label.is_empty() {
                attrs.push(format!("label=\"{label}\""));
            }
            if info.is_divergent(b) {
                attrs.push("color=red, fontcolor=red".into());
            }
            let back = loops
                .loops_containing(b)
                .iter()
                .any(|&l| loops.entries(l).contains(&s) && loops.contains(l, s));
            if back {
                attrs.push("style=bold, color=blue".into());
                if info.is_divergent(b) {
                    attrs.pop();
                    attrs.push("style=bold".into());
                }
            }
            if !cfg.is_reachable(b) {
                attrs.push("style=dashed, color=grey".into());
            }
            let attrs = if attrs.is_empty() {
                String::new()
            } else {
                format!(" [{}]", attrs.join(", "))
            };
            let _ = writeln!(out, "    {b} -> {s}{attrs};");
        }
    }
    let _ = writeln!(out, "}}");
    out
}
