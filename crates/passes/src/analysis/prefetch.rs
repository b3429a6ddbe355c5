//! Which loads in loops to prefetch: a load whose address moves by the
//! same amount each iteration of its innermost loop, far enough that the
//! hardware prefetchers (which follow strides within a page) lose it.
//!
//! The grid-stride loop (`for (i = get_global_id(0); i < n; i +=
//! get_global_size(0)) … in[i]`) is the common case: each gang reads one
//! cache line per iteration, a whole NDRange apart (a histogram's 16M
//! words in 128 groups of 256: 128 KiB), so every load waits for memory,
//! and a demand load that runs ahead would wait in the reorder buffer all
//! the same. A prefetch a few iterations ahead retires at once and brings
//! the line in while the gang works on the current one.
//!
//! The analysis finds, for each load (predicated or not) in a reducible
//! loop, an induction variable: a parameter `p` of the loop's header whose
//! value along every back edge is `p + step`, with `step` the same in every
//! iteration (a constant, a value from outside the loop, or a work-item
//! size query), and the load's address as `c·p` plus values the same in
//! every iteration (adds, subtracts, multiplies and shifts by constants,
//! integer casts and pointer offsets). The address then moves by `c·step`
//! bytes per iteration. Block parameters between the update and the back
//! edge that also receive `p` itself (the lanes of a linearized loop that
//! skipped the update) are looked through.
//!
//! How far ahead: about [`LOOKAHEAD_INSTS`] instructions of the loop, at
//! least 2 and at most [`MAX_ITERATIONS`] iterations. A prefetch never
//! faults, so an address past the end of a buffer only costs the slot.

use std::collections::HashMap;

use cranelift_entity::SecondaryMap;
use lockstep_ir::{
    BinaryOp, Block, ConvertOp, Function, Inst, InstData, Value, ValueDef, WorkItemQuery,
};

use super::{ControlFlowGraph, Loop, LoopForest};

/// Instructions of a loop to look ahead: with a few instructions per
/// cycle, some hundred nanoseconds, a memory access's latency.
pub const LOOKAHEAD_INSTS: usize = 640;

/// The most iterations to look ahead (small loops): further, the line may
/// be evicted before its use.
pub const MAX_ITERATIONS: u64 = 32;

/// What a loop's induction variable adds each iteration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Const(i64),
    /// A value defined before the loop.
    Value(Value),
    /// The result of a work-item size query (`global_size`, `local_size`,
    /// `enqueued_local_size`, `num_groups`), the same everywhere, so that
    /// it can be computed again before the query's own place.
    Query {
        query: WorkItemQuery,
        dim: u8,
        value: Value,
    },
}

/// Where a load will read `iterations` iterations from now: its address
/// plus `iterations · bytes · step`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ahead {
    pub step: Step,
    /// Bytes the address moves per unit of the step.
    pub bytes: i64,
    pub iterations: u64,
}

/// The loads to prefetch, by instruction.
#[derive(Default)]
pub struct Prefetches {
    ahead: SecondaryMap<Inst, Option<Ahead>>,
}

impl Prefetches {
    pub fn compute(func: &Function) -> Prefetches {
        let cfg = ControlFlowGraph::compute(func);
        let loops = LoopForest::compute(&cfg);
        let mut ahead = SecondaryMap::new();
        let mut loop_of: HashMap<Loop, Option<LoopInduction>> = HashMap::new();
        for (block, inst) in func.insts_in_layout() {
            let data = match &func.insts[inst] {
                InstData::Predicated { inst, .. } => inst.as_ref(),
                d => d,
            };
            let InstData::Load { ptr, volatile, .. } = data else {
                continue;
            };
            let Some(lp) = loops.innermost_loop(block) else {
                continue;
            };
            if *volatile || !loops.is_reducible(lp) {
                continue;
            }
            let induction = loop_of
                .entry(lp)
                .or_insert_with(|| LoopInduction::find(func, &cfg, &loops, lp));
            let Some(ind) = induction else {
                continue;
            };
            let Some(c) = ind.coefficient(func, *ptr) else {
                continue;
            };
            if c == 0 {
                continue;
            }
            // A step known to be small is a stream the hardware follows.
            if let Step::Const(s) = ind.step {
                if (c * s).unsigned_abs() < 256 {
                    continue;
                }
            }
            ahead[inst] = Some(Ahead {
                step: ind.step,
                bytes: c,
                iterations: ind.iterations,
            });
        }
        Prefetches { ahead }
    }

    /// Where to prefetch for the load `inst`, if anywhere.
    pub fn ahead(&self, inst: Inst) -> Option<Ahead> {
        self.ahead[inst]
    }
}

/// A loop's induction variable (the first header parameter that is one).
struct LoopInduction {
    param: Value,
    step: Step,
    blocks: Vec<Block>,
    iterations: u64,
}

impl LoopInduction {
    fn find(
        func: &Function,
        cfg: &ControlFlowGraph,
        loops: &LoopForest,
        lp: Loop,
    ) -> Option<LoopInduction> {
        let header = loops.header(lp);
        let blocks = loops.blocks(lp).to_vec();
        let insts: usize = blocks.iter().map(|&b| func.blocks[b].insts.len()).sum();
        let iterations = ((LOOKAHEAD_INSTS / insts.max(1)) as u64).clamp(2, MAX_ITERATIONS);
        for (n, &param) in func.blocks[header].params.iter().enumerate() {
            let mut steps = loops.latches(lp).iter().map(|&latch| {
                let next = arg_to(func, latch, header, n)?;
                let next = look_through(func, cfg, &blocks, next, param);
                step_of(func, &blocks, next, param)
            });
            let Some(Some(first)) = steps.next() else {
                continue;
            };
            if steps.all(|s| s == Some(first)) {
                return Some(LoopInduction {
                    param,
                    step: first,
                    blocks,
                    iterations,
                });
            }
        }
        None
    }

    /// `c` if `v` is `c·param` plus values the same in every iteration.
    fn coefficient(&self, func: &Function, v: Value) -> Option<i64> {
        if v == self.param {
            return Some(1);
        }
        if invariant(func, &self.blocks, v) {
            return Some(0);
        }
        let ValueDef::Result(inst) = func.values[v].def else {
            return None;
        };
        let constant = |x: Value| match func.values[x].def {
            ValueDef::Result(i) => match func.insts[i] {
                InstData::Iconst { imm } => Some(imm as i64),
                _ => None,
            },
            _ => None,
        };
        match &func.insts[inst] {
            InstData::Binary { op, args: [a, b] } => match op {
                BinaryOp::Iadd => Some(self.coefficient(func, *a)? + self.coefficient(func, *b)?),
                BinaryOp::Isub => Some(self.coefficient(func, *a)? - self.coefficient(func, *b)?),
                BinaryOp::Imul => match (constant(*a), constant(*b)) {
                    (_, Some(k)) => self.coefficient(func, *a)?.checked_mul(k),
                    (Some(k), _) => self.coefficient(func, *b)?.checked_mul(k),
                    _ => None,
                },
                BinaryOp::Ishl => {
                    let k = u32::try_from(constant(*b)?).ok().filter(|&k| k < 32)?;
                    self.coefficient(func, *a)?.checked_mul(1 << k)
                }
                _ => None,
            },
            InstData::Convert {
                op: ConvertOp::Zext | ConvertOp::Sext | ConvertOp::Trunc,
                arg,
                ..
            } => self.coefficient(func, *arg),
            InstData::PtrAdd { args: [p, off] } => {
                Some(self.coefficient(func, *p)? + self.coefficient(func, *off)?)
            }
            _ => None,
        }
    }
}

/// The argument `block`'s terminator passes to parameter `n` of `to`.
fn arg_to(func: &Function, block: Block, to: Block, n: usize) -> Option<Value> {
    let term = func.terminator(block)?;
    let dests = func.insts[term].branch_dests();
    let mut args = dests
        .iter()
        .filter(|d| d.block == to)
        .map(|d| d.args.get(n).copied());
    let first = args.next()??;
    args.all(|a| a == Some(first)).then_some(first)
}

/// `v`, or if it is a parameter of a block of the loop whose incoming
/// values are `param` itself and one other value, that other value
/// (repeatedly).
fn look_through(
    func: &Function,
    cfg: &ControlFlowGraph,
    blocks: &[Block],
    mut v: Value,
    param: Value,
) -> Value {
    for _ in 0..8 {
        let ValueDef::Param(block, n) = func.values[v].def else {
            return v;
        };
        if v == param || !blocks.contains(&block) {
            return v;
        }
        let mut other = None;
        for &pred in cfg.preds(block) {
            match arg_to(func, pred, block, n as usize) {
                Some(a) if a == param || a == v => {}
                Some(a) if other.is_none_or(|o| o == a) => other = Some(a),
                _ => return v,
            }
        }
        match other {
            Some(o) => v = o,
            None => return v,
        }
    }
    v
}

/// The step if `next` is `param + step` (either order).
fn step_of(func: &Function, blocks: &[Block], next: Value, param: Value) -> Option<Step> {
    let ValueDef::Result(inst) = func.values[next].def else {
        return None;
    };
    let InstData::Binary {
        op: BinaryOp::Iadd,
        args: [a, b],
    } = func.insts[inst]
    else {
        return None;
    };
    let s = if a == param {
        b
    } else if b == param {
        a
    } else {
        return None;
    };
    match func.values[s].def {
        ValueDef::Result(i) => match func.insts[i] {
            InstData::Iconst { imm } => Some(Step::Const(imm as i64)),
            InstData::WorkItem { query, dim }
                if matches!(
                    query,
                    WorkItemQuery::GlobalSize
                        | WorkItemQuery::LocalSize
                        | WorkItemQuery::EnqueuedLocalSize
                        | WorkItemQuery::NumGroups
                ) && !func.is_varying(s) =>
            {
                Some(Step::Query {
                    query,
                    dim,
                    value: s,
                })
            }
            _ if !defined_in(func, blocks, s) && !func.is_varying(s) => Some(Step::Value(s)),
            _ => None,
        },
        ValueDef::Param(..) if !defined_in(func, blocks, s) && !func.is_varying(s) => {
            Some(Step::Value(s))
        }
        _ => None,
    }
}

fn defined_in(func: &Function, blocks: &[Block], v: Value) -> bool {
    let block = match func.values[v].def {
        ValueDef::Result(inst) => func.inst_block[inst],
        ValueDef::Param(b, _) => Some(b),
        _ => None,
    };
    block.is_some_and(|b| blocks.contains(&b))
}

/// True if `v` is the same in every iteration of the loop of `blocks`:
/// defined outside it, a constant, a work-item query, or a pure operation
/// on such values.
fn invariant(func: &Function, blocks: &[Block], v: Value) -> bool {
    fn go(func: &Function, blocks: &[Block], v: Value, depth: u32) -> bool {
        if !defined_in(func, blocks, v) {
            return true;
        }
        let ValueDef::Result(inst) = func.values[v].def else {
            return false;
        };
        match &func.insts[inst] {
            InstData::Iconst { .. } | InstData::Fconst { .. } | InstData::WorkItem { .. } => true,
            InstData::GlobalAddr { .. } => true,
            d @ (InstData::Binary { .. }
            | InstData::Unary { .. }
            | InstData::Convert { .. }
            | InstData::PtrAdd { .. }) => {
                depth < 16 && d.args().into_iter().all(|a| go(func, blocks, a, depth + 1))
            }
            _ => false,
        }
    }
    go(func, blocks, v, 0)
}

#[cfg(test)]
mod tests {
    use super::{Prefetches, Step};
    use lockstep_ir::{parse_function, Inst, InstData, WorkItemQuery};

    /// `for (i = get_global_id(0); i < n; i += get_global_size(0)) sum +=
    /// in[i]`: the load moves by 4 bytes per unit of the global size.
    const GRID_STRIDE: &str = "
kernel @k(ptr.global, i64) {
    arg 0 \"in\" \"float*\" none none
    arg 1 \"n\" \"ulong\" none none
block0(v0: ptr.global, v1: i64):
    v2: i64 = global_id 0
    v3: f32 = fconst 0.0
    jump block1(v2, v3)
block1(v4: i64, v5: f32):
    v6: i1 = icmp ult v4, v1
    brif v6, block2, block3
block2:
    v7: i64 = iconst 4
    v8: i64 = imul v4, v7
    v9: ptr.global = ptradd v0, v8
    v10: f32 = load v9, align 4
    v11: f32 = fadd v5, v10
    v12: i64 = global_size 0
    v13: i64 = iadd v4, v12
    jump block1(v13, v11)
block3:
    store v5, v0, align 4
    return
}
";

    fn load_of(func: &lockstep_ir::Function) -> Inst {
        func.insts_in_layout()
            .map(|(_, i)| i)
            .find(|&i| matches!(func.insts[i], InstData::Load { .. }))
            .expect("a load")
    }

    #[test]
    fn a_grid_stride_loads_address_moves_by_the_global_size() {
        let func = parse_function(GRID_STRIDE).unwrap();
        let ahead = Prefetches::compute(&func)
            .ahead(load_of(&func))
            .expect("prefetched");
        assert!(
            matches!(
                ahead.step,
                Step::Query {
                    query: WorkItemQuery::GlobalSize,
                    dim: 0,
                    ..
                }
            ),
            "{:?}",
            ahead.step
        );
        assert_eq!(ahead.bytes, 4);
        assert!((2..=super::MAX_ITERATIONS).contains(&ahead.iterations));
    }

    #[test]
    fn small_constant_strides_and_unrelated_addresses_are_left_to_the_hardware() {
        // i += 1: a stream of 4-byte steps the hardware prefetchers follow.
        let src = GRID_STRIDE.replace("v12: i64 = global_size 0", "v12: i64 = iconst 1");
        let func = parse_function(&src).unwrap();
        assert_eq!(Prefetches::compute(&func).ahead(load_of(&func)), None);
        // A constant stride of 1024 elements is prefetched.
        let src = GRID_STRIDE.replace("v12: i64 = global_size 0", "v12: i64 = iconst 1024");
        let func = parse_function(&src).unwrap();
        let ahead = Prefetches::compute(&func).ahead(load_of(&func));
        assert_eq!(
            ahead.map(|a| (a.step, a.bytes)),
            Some((Step::Const(1024), 4))
        );
        // An address that does not follow the induction variable (a loaded
        // index) is not.
        let src = GRID_STRIDE.replace("v8: i64 = imul v4, v7", "v8: i64 = imul v4, v4");
        let func = parse_function(&src).unwrap();
        assert_eq!(Prefetches::compute(&func).ahead(load_of(&func)), None);
    }
}
