//! Whether a kernel runs with lane refill (the `refill` pass), and why.
//!
//! **Eligible**: a kernel without barriers (so without work-group
//! collectives, which are built on them), without local memory (its
//! `__local` variables and arguments belong to one work-group, and refill
//! lets a gang mix work-groups) and without subgroups (a subgroup is a
//! gang of consecutive work-items, which refill breaks up). Atomics, private memory and `printf` are
//! per work-item and stay correct.
//!
//! **Worth it** (the static cost model of [`RefillMode::Auto`]; the
//! runtime then measures the first launches with and without refill and
//! keeps refill only where it is clearly faster): refill pays when
//! lanes finish at very different times — a loop whose trip count differs
//! between lanes — and costs everywhere else: the ids of neighbouring lanes
//! stop being consecutive, so vector loads and stores become gathers and
//! scatters, and every block pays block-IP's dispatch. So `auto` refills a
//! kernel with a divergent loop whose exit depends on loaded data (a
//! data-dependent trip count: CSR rows, Collatz chains, escape-time
//! iterations, interpreters), and nothing else.

use std::collections::HashMap;

use lockstep_ir::{AddrSpace, Block, Function, InstData, Type, Value, ValueDef};

use super::{Uniformity, UniformityConfig};

/// Whether kernels run with lane refill: `--refill` and `LOCKSTEP_REFILL`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RefillMode {
    /// Never.
    Off,
    /// Every eligible kernel.
    On,
    /// Eligible kernels the cost model expects to gain (the default).
    #[default]
    Auto,
}

impl RefillMode {
    pub const ALL: [RefillMode; 3] = [RefillMode::Off, RefillMode::On, RefillMode::Auto];

    pub fn name(self) -> &'static str {
        match self {
            RefillMode::Off => "off",
            RefillMode::On => "on",
            RefillMode::Auto => "auto",
        }
    }
}

impl std::fmt::Display for RefillMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for RefillMode {
    type Err = String;
    fn from_str(s: &str) -> Result<RefillMode, String> {
        RefillMode::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| format!("unknown refill mode '{s}' (expected off, on or auto)"))
    }
}

/// The decision for one kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefillChoice {
    pub refill: bool,
    /// Why, for `--emit report`.
    pub reason: String,
}

/// Decides for kernel `func` (phase `split`) under `mode`, specialized for
/// `config`.
pub fn refill_choice(func: &Function, config: &UniformityConfig, mode: RefillMode) -> RefillChoice {
    let no = |reason: String| RefillChoice {
        refill: false,
        reason,
    };
    if mode == RefillMode::Off {
        return no("off (--refill off)".into());
    }
    if config.local_size.contains(&0) {
        return no("off: the work-group size is not known when compiling".into());
    }
    if let Err(why) = eligible(func) {
        return no(format!("off: not eligible ({why})"));
    }
    if mode == RefillMode::On {
        return RefillChoice {
            refill: true,
            reason: "on (--refill on)".into(),
        };
    }
    let uni = Uniformity::for_function(func, config);
    let loops = uni.loops();
    let mut incoming: HashMap<Block, Vec<Vec<Value>>> = HashMap::new();
    for (_, inst) in func.insts_in_layout() {
        for dest in func.insts[inst].branch_dests() {
            incoming
                .entry(dest.block)
                .or_default()
                .push(dest.args.clone());
        }
    }
    for lp in loops.loops() {
        if !uni.is_divergent_loop(lp) {
            continue;
        }
        let data_dependent = loops.blocks(lp).iter().any(|&b| {
            uni.is_divergent(b)
                && func.terminator(b).is_some_and(|t| {
                    func.insts[t]
                        .args()
                        .into_iter()
                        .any(|c| depends_on_load(func, &incoming, c, 32))
                })
        });
        if data_dependent {
            let line = loops
                .blocks(lp)
                .iter()
                .flat_map(|&b| func.blocks[b].insts.iter())
                .find_map(|&i| func.srclocs[i])
                .map_or(String::new(), |l| format!(" at line {}", l.line));
            return RefillChoice {
                refill: true,
                reason: format!(
                    "on: a loop{line} whose trip count depends on loaded data (the runtime \
                     keeps it if the first launches run faster with it)"
                ),
            };
        }
    }
    no("off: no loop whose trip count varies with loaded data".into())
}

/// Why kernel `func` cannot run with refill, if it cannot.
fn eligible(func: &Function) -> Result<(), String> {
    if !func.is_kernel() {
        return Err("not a kernel".into());
    }
    if func
        .values
        .iter()
        .any(|(_, v)| v.ty == Type::Ptr(AddrSpace::Local))
    {
        return Err("uses local memory".into());
    }
    for (_, inst) in func.insts_in_layout() {
        match &func.insts[inst] {
            InstData::Suspend { .. } | InstData::Barrier { .. } => {
                return Err("has barriers".into())
            }
            InstData::Gang { .. } | InstData::Predicated { .. } => {
                return Err("already gang-level IR".into())
            }
            InstData::Call { .. } => return Err("calls a function".into()),
            _ => {}
        }
    }
    // A subgroup is the gang: with refill, a gang's lanes hold work-items
    // of unrelated places.
    if func.uses_sub_groups() {
        return Err("uses subgroups".into());
    }
    Ok(())
}

/// True if `v` is computed from a load (or an atomic), looking back
/// through at most `depth` definitions and block parameters.
fn depends_on_load(
    func: &Function,
    incoming: &HashMap<Block, Vec<Vec<Value>>>,
    v: Value,
    depth: u32,
) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![(v, depth)];
    while let Some((v, d)) = work.pop() {
        if d == 0 || !seen.insert(v) {
            continue;
        }
        match func.values[v].def {
            ValueDef::Result(inst) => {
                let data = &func.insts[inst];
                if matches!(
                    data,
                    InstData::Load { .. }
                        | InstData::AtomicRmw { .. }
                        | InstData::AtomicCas { .. }
                        | InstData::AtomicLoad { .. }
                ) {
                    return true;
                }
                work.extend(data.args().into_iter().map(|a| (a, d - 1)));
            }
            ValueDef::Param(block, n) => {
                for args in incoming.get(&block).into_iter().flatten() {
                    if let Some(&a) = args.get(n as usize) {
                        work.push((a, d - 1));
                    }
                }
            }
            ValueDef::Unused => {}
        }
    }
    false
}
