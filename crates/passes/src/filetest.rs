//! The filetest kinds this crate provides: `domtree`, `postdom`, `loops`,
//! `liveness` and `uniformity` (with `uniformity-w1`, `-w4`, `-w8`, `-w32`
//! for other SIMD widths).
//!
//! Each prints its analysis for every function of the module, in a format
//! meant to be checked by hand against the `.lir` file. A check only sees the
//! parsed module (comments are gone), so `uniformity` takes the local size
//! from the kernel's `reqd_work_group_size` (16,1,1 when there is none) and
//! the width from the test kind (16 for plain `uniformity`); the first line
//! of each function's output states the configuration used.

use std::fmt::Write as _;

use lockstep_ir::print::inst_to_string;
use lockstep_ir::{Block, Function, Module};

use crate::analysis::{
    ControlFlowGraph, DominanceFrontiers, DominatorTree, Liveness, LoopForest, PostDominatorTree,
    Uniformity, UniformityConfig, ValueSet,
};
use crate::pipeline::{Pass, RefillMode, Settings};
use crate::present::uniformity_listing;
use crate::transform::linearize::Scheme;

fn list(blocks: &[Block]) -> String {
    let names: Vec<String> = blocks.iter().map(|b| b.to_string()).collect();
    format!("[{}]", names.join(", "))
}

fn value_list(set: &ValueSet) -> String {
    let names: Vec<String> = set.iter().map(|v| v.to_string()).collect();
    format!("[{}]", names.join(", "))
}

fn for_each_function(
    module: &Module,
    mut f: impl FnMut(&mut String, &Function),
) -> Result<String, String> {
    let mut out = String::new();
    for (_, func) in module.functions.iter() {
        let _ = writeln!(out, "@{}:", func.name);
        f(&mut out, func);
    }
    Ok(out)
}

pub(crate) fn domtree(module: &Module) -> Result<String, String> {
    for_each_function(module, |out, func| {
        let cfg = ControlFlowGraph::compute(func);
        let dt = DominatorTree::compute(&cfg);
        let df = DominanceFrontiers::compute(&cfg, &dt);
        let _ = writeln!(out, "  rpo {}", list(cfg.rpo()));
        for &b in cfg.blocks() {
            if !cfg.is_reachable(b) {
                let _ = writeln!(out, "  {b}: unreachable");
                continue;
            }
            let idom = dt.idom(b).map_or("-".to_string(), |d| d.to_string());
            let _ = writeln!(out, "  {b}: idom {idom}, df {}", list(df.frontier(b)));
        }
    })
}

pub(crate) fn postdom(module: &Module) -> Result<String, String> {
    for_each_function(module, |out, func| {
        let cfg = ControlFlowGraph::compute(func);
        let pdt = PostDominatorTree::compute(&cfg);
        let _ = write!(out, "  exit <- {}", list(pdt.exit_preds()));
        if !pdt.infinite_loop_exits().is_empty() {
            let _ = write!(
                out,
                " (infinite loops: {})",
                list(pdt.infinite_loop_exits())
            );
        }
        let _ = writeln!(out);
        for &b in cfg.blocks() {
            if !cfg.is_reachable(b) {
                let _ = writeln!(out, "  {b}: unreachable");
                continue;
            }
            let ipdom = pdt.ipdom(b).map_or("exit".to_string(), |d| d.to_string());
            let _ = writeln!(out, "  {b}: ipdom {ipdom}, pdf {}", list(pdt.frontier(b)));
        }
    })
}

pub(crate) fn loops(module: &Module) -> Result<String, String> {
    for_each_function(module, |out, func| {
        let cfg = ControlFlowGraph::compute(func);
        let forest = LoopForest::compute(&cfg);
        let irreducible = forest.irreducible_loops().count();
        let _ = writeln!(
            out,
            "  {}, {} loop{}{}",
            if forest.is_cfg_reducible() {
                "reducible"
            } else {
                "irreducible"
            },
            forest.len(),
            if forest.len() == 1 { "" } else { "s" },
            if irreducible > 0 {
                format!(", {irreducible} irreducible")
            } else {
                String::new()
            }
        );
        for lp in forest.loops() {
            let d = forest.data(lp);
            let indent = "  ".repeat(d.depth as usize);
            let head = if forest.is_reducible(lp) {
                format!("header {}", d.header)
            } else {
                format!("irreducible, entries {}", list(&d.entries))
            };
            let _ = writeln!(
                out,
                "{indent}{lp}: {head}, depth {}, blocks {}, latches {}, exiting {}, exits {}",
                d.depth,
                list(&d.blocks),
                list(&d.latches),
                list(&d.exiting),
                list(&d.exits)
            );
        }
    })
}

pub(crate) fn liveness(module: &Module) -> Result<String, String> {
    for_each_function(module, |out, func| {
        let cfg = ControlFlowGraph::compute(func);
        let lv = Liveness::compute(func, &cfg);
        for &b in cfg.blocks() {
            if !cfg.is_reachable(b) {
                let _ = writeln!(out, "  {b}: unreachable");
                continue;
            }
            let _ = writeln!(
                out,
                "  {b}: in {}, out {}",
                value_list(lv.live_in(b)),
                value_list(lv.live_out(b))
            );
        }
        for (inst, set) in lv.barriers() {
            let block = func.inst_block[*inst].expect("barriers of the layout have a block");
            let _ = writeln!(
                out,
                "  {block}: `{}` live across {}",
                inst_to_string(None, func, *inst),
                value_list(set)
            );
        }
    })
}

fn uniformity_with_width(module: &Module, width: u32) -> Result<String, String> {
    let mut out = String::new();
    for (id, func) in module.functions.iter() {
        let config = filetest_config(func, width);
        let info = Uniformity::for_function(func, &config);
        let _ = writeln!(out, "config: {config}");
        out.push_str(&uniformity_listing(module, id, &info));
    }
    Ok(out)
}

/// The module after pass number `P` of [`Pass::ALL`] ran on each of its
/// functions alone (specialized as for `uniformity`; `refill` on every
/// eligible kernel), verified.
pub(crate) fn transform<const P: usize>(module: &Module) -> Result<String, String> {
    transformed(module, |_, func, config| {
        let settings = Settings {
            refill: RefillMode::On,
            ..Settings::default()
        };
        Pass::ALL[P].run(func, config, settings);
        Ok(())
    })
}

/// The module after `linearize` by block-IP.
pub(crate) fn linearize_block_ip(module: &Module) -> Result<String, String> {
    transformed(module, |_, func, config| {
        let settings = Settings {
            linearization: Scheme::BlockIp,
            ..Settings::default()
        };
        Pass::Linearize.run(func, config, settings);
        Ok(())
    })
}

/// The module after the whole pipeline, verified after each pass.
pub(crate) fn pipeline(module: &Module) -> Result<String, String> {
    transformed(module, |module, func, config| {
        let options = crate::pipeline::Options {
            verify: true,
            ..Default::default()
        };
        *func = crate::pipeline::run(module, func, config, options).map_err(|e| e.to_string())?;
        Ok(())
    })
}

fn transformed(
    module: &Module,
    pass: impl Fn(&Module, &mut Function, &UniformityConfig) -> Result<(), String>,
) -> Result<String, String> {
    let mut out = module.clone();
    for (id, func) in module.functions.iter() {
        let config = filetest_config(func, 16);
        let mut func = func.clone();
        pass(module, &mut func, &config)?;
        out.functions[id] = func;
    }
    lockstep_ir::verify_module(&out).map_err(|e| format!("invalid IR after the pass:\n{e}"))?;
    for (_, func) in out.functions.iter() {
        if func.phase >= lockstep_ir::Phase::Split {
            crate::transform::check_split(func)?;
        }
    }
    Ok(lockstep_ir::module_to_string(&out))
}

/// The specialization filetests use: the kernel's `reqd_work_group_size`
/// (16,1,1 when there is none) and `width`.
fn filetest_config(func: &Function, width: u32) -> UniformityConfig {
    UniformityConfig {
        local_size: func
            .kernel
            .as_ref()
            .and_then(|k| k.reqd_work_group_size)
            .unwrap_or(UniformityConfig::default().local_size),
        width,
    }
}

pub(crate) fn uniformity(module: &Module) -> Result<String, String> {
    uniformity_with_width(module, 16)
}

pub(crate) fn uniformity_w1(module: &Module) -> Result<String, String> {
    uniformity_with_width(module, 1)
}

pub(crate) fn uniformity_w4(module: &Module) -> Result<String, String> {
    uniformity_with_width(module, 4)
}

pub(crate) fn uniformity_w8(module: &Module) -> Result<String, String> {
    uniformity_with_width(module, 8)
}

pub(crate) fn uniformity_w32(module: &Module) -> Result<String, String> {
    uniformity_with_width(module, 32)
}
