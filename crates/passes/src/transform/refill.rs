//! `refill`: lane refill. A lane whose work-item is done takes the next one
//! nobody has started, while the other lanes keep their place, so a gang
//! stays full through divergent loops of very different lengths (a skewed
//! sparse row, a Collatz chain, an escape-time pixel).
//!
//! The kernel becomes a loop over work-items, each lane an independent
//! worker (written for one lane, like the rest of the IR before
//! `linearize`):
//!
//! ```text
//! entry(params):  jump claim
//! claim:          r = next_item; brif r != -1, head(r), exit
//! head(r):        the kernel's body, work-item ids computed from r;
//!                 its return jumps to claim
//! exit:           return
//! ```
//!
//! One call of the kernel runs a range of work-groups along dimension 0 (the
//! runtime chooses it): `r` is `group offset × local size + local linear
//! id`, so `get_local_id`, `get_global_id`, `get_local_linear_id`,
//! `get_global_linear_id` and `get_group_id(0)` become arithmetic on `r`
//! and the group's uniform queries; every work-item runs exactly once with
//! its own ids. Lanes now hold unrelated work-items: ids that were
//! consecutive become varying, and the uniformity analysis treats the
//! function's lanes as out of step (see [`crate::analysis::Uniformity`]).
//! `linearize` then uses block-IP, which lets lanes be in different blocks
//! and iterations, and leaves a loop early when enough lanes wait after it
//! (they go on to claim new work-items and come back).
//!
//! Needs a kernel in the `split` phase with one `return`, no suspend
//! points, no local memory and no gang operations (see
//! [`crate::analysis::refill_choice`], which decides whether it runs).

use std::collections::HashMap;

use lockstep_ir::{
    BinaryOp, Block, BlockCall, ConvertOp, Function, Inst, InstData, IntCC, Rounding, Type, Value,
    WorkItemQuery,
};

/// Rewrites kernel `func` (phase `split`, eligible as the module says) so
/// that its lanes take work-items as they free up, for work-groups of
/// `local_size`.
pub fn refill(func: &mut Function, local_size: [u32; 3]) {
    let entry = func.entry_block().expect("a kernel has an entry block");
    let claim = func.create_block();
    let head = func.create_block();
    let exit = func.create_block();
    let item = func.append_block_param(head, Type::I32);
    // The entry's code moves to `head`; the entry keeps the parameters.
    let insts = std::mem::take(&mut func.blocks[entry].insts);
    for &inst in &insts {
        func.inst_block[inst] = Some(head);
    }
    func.blocks[head].insts = insts;
    let jump = func.create_inst(
        InstData::Jump {
            dest: BlockCall {
                block: claim,
                args: vec![],
            },
        },
        None,
    );
    func.append_inst(entry, jump);
    let at = func.layout.iter().position(|&b| b == entry).expect("entry") + 1;
    func.layout.splice(at..at, [claim, head]);
    // The return (one, after unify_returns) goes back to claim.
    for (_, inst) in func.insts_in_layout().collect::<Vec<_>>() {
        if matches!(func.insts[inst], InstData::Return { .. }) {
            func.insts[inst] = InstData::Jump {
                dest: BlockCall {
                    block: claim,
                    args: vec![],
                },
            };
        }
    }
    let next = func.create_inst(InstData::NextItem, Some(Type::I32));
    func.append_inst(claim, next);
    let r = func.results[next].expect("next_item has a result");
    let none = constant(func, claim, Type::I32, u32::MAX as u64);
    let got = append(
        func,
        claim,
        InstData::Icmp {
            cond: IntCC::Ne,
            args: [r, none],
        },
        Type::I1,
    );
    let branch = func.create_inst(
        InstData::Brif {
            cond: got,
            then_dest: BlockCall {
                block: head,
                args: vec![r],
            },
            else_dest: BlockCall {
                block: exit,
                args: vec![],
            },
        },
        None,
    );
    func.append_inst(claim, branch);
    let ret = func.create_inst(InstData::Return { arg: None }, None);
    func.append_inst(exit, ret);
    func.layout.push(exit);
    rewrite_queries(func, head, item, local_size);
    func.refill = true;
}

/// Replaces the work-item queries that depend on which work-item a lane
/// holds by arithmetic on its item `item` (a parameter of `head`, computed
/// at the start of `head`).
fn rewrite_queries(func: &mut Function, head: Block, item: Value, local_size: [u32; 3]) {
    let queries: Vec<(Inst, WorkItemQuery, u8)> = func
        .insts_in_layout()
        .filter_map(|(_, inst)| match func.insts[inst] {
            InstData::WorkItem { query, dim } if depends_on_item(query, dim) => {
                Some((inst, query, dim))
            }
            _ => None,
        })
        .collect();
    if queries.is_empty() {
        return;
    }
    let mut ids = Ids {
        head,
        at: 0,
        item,
        local_size: local_size.map(|s| s.max(1) as u64),
        cache: HashMap::new(),
        group_queries: HashMap::new(),
        wide: None,
        linear: None,
    };
    let mut replace: HashMap<Value, Value> = HashMap::new();
    for &(inst, query, dim) in &queries {
        let v = ids.query(func, query, dim as usize);
        if let Some(old) = func.results[inst] {
            replace.insert(old, v);
        }
    }
    for &(inst, ..) in &queries {
        func.remove_inst(inst);
    }
    for block in func.layout.clone() {
        for inst in func.blocks[block].insts.clone() {
            func.insts[inst].map_args(|v| *replace.get(&v).unwrap_or(&v));
        }
    }
}

/// True for the queries whose value depends on the work-item, not only on
/// its work-group (dimension 0 of the group id: a call runs a range of
/// groups along it).
fn depends_on_item(query: WorkItemQuery, dim: u8) -> bool {
    match query {
        WorkItemQuery::LocalId
        | WorkItemQuery::GlobalId
        | WorkItemQuery::LocalLinearId
        | WorkItemQuery::GlobalLinearId => true,
        WorkItemQuery::GroupId => dim == 0,
        _ => false,
    }
}

/// The work-item ids of a lane's item, built at the start of `head` as
/// they are first needed (each once).
struct Ids {
    head: Block,
    /// Where the next instruction goes in `head`.
    at: usize,
    item: Value,
    local_size: [u64; 3],
    cache: HashMap<(WorkItemQuery, usize), Value>,
    group_queries: HashMap<(WorkItemQuery, usize), Value>,
    /// The item as an `i64`, and its local linear id.
    wide: Option<Value>,
    linear: Option<Value>,
}

impl Ids {
    fn query(&mut self, func: &mut Function, query: WorkItemQuery, dim: usize) -> Value {
        if let Some(&v) = self.cache.get(&(query, dim)) {
            return v;
        }
        let [lx, ly, _] = self.local_size;
        let per_group: u64 = self.local_size.iter().product();
        let v = match query {
            WorkItemQuery::LocalLinearId => self.linear(func),
            WorkItemQuery::LocalId => {
                let lin = self.linear(func);
                match dim {
                    0 if per_group == lx => lin,
                    0 => self.binary_const(func, BinaryOp::Urem, lin, lx),
                    1 => {
                        let q = self.binary_const(func, BinaryOp::Udiv, lin, lx);
                        self.binary_const(func, BinaryOp::Urem, q, ly)
                    }
                    _ => self.binary_const(func, BinaryOp::Udiv, lin, lx * ly),
                }
            }
            WorkItemQuery::GroupId => {
                // Dimension 0: the call's first group plus the item's offset.
                let first = self.work_item(func, WorkItemQuery::GroupId, 0);
                let wide = self.wide_item(func);
                let offset = self.binary_const(func, BinaryOp::Udiv, wide, per_group);
                self.binary(func, BinaryOp::Iadd, first, offset)
            }
            WorkItemQuery::GlobalId if dim == 0 && per_group == lx => {
                // Groups along dimension 0 only: the call's first item plus
                // the item. (A call of more than one group has groups of
                // the enqueued size; one of a last, smaller group has items
                // below its size.)
                let first = self.work_item(func, WorkItemQuery::GroupId, 0);
                let size = self.work_item(func, WorkItemQuery::EnqueuedLocalSize, 0);
                let offset = self.work_item(func, WorkItemQuery::GlobalOffset, 0);
                let start = self.binary(func, BinaryOp::Imul, first, size);
                let start = self.binary(func, BinaryOp::Iadd, start, offset);
                let wide = self.wide_item(func);
                self.binary(func, BinaryOp::Iadd, start, wide)
            }
            WorkItemQuery::GlobalId => {
                let group = if dim == 0 {
                    self.query(func, WorkItemQuery::GroupId, 0)
                } else {
                    self.work_item(func, WorkItemQuery::GroupId, dim)
                };
                let size = self.work_item(func, WorkItemQuery::EnqueuedLocalSize, dim);
                let offset = self.work_item(func, WorkItemQuery::GlobalOffset, dim);
                let local = self.query(func, WorkItemQuery::LocalId, dim);
                let start = self.binary(func, BinaryOp::Imul, group, size);
                let start = self.binary(func, BinaryOp::Iadd, start, offset);
                self.binary(func, BinaryOp::Iadd, start, local)
            }
            _ => {
                // GlobalLinearId: (z - oz)·sy·sx + (y - oy)·sx + (x - ox).
                let mut sum = None;
                let mut stride = None;
                for d in 0..3 {
                    let id = self.query(func, WorkItemQuery::GlobalId, d);
                    let offset = self.work_item(func, WorkItemQuery::GlobalOffset, d);
                    let rel = self.binary(func, BinaryOp::Isub, id, offset);
                    let term = match stride {
                        None => rel,
                        Some(s) => self.binary(func, BinaryOp::Imul, rel, s),
                    };
                    sum = Some(match sum {
                        None => term,
                        Some(acc) => self.binary(func, BinaryOp::Iadd, acc, term),
                    });
                    if d < 2 {
                        let size = self.work_item(func, WorkItemQuery::GlobalSize, d);
                        stride = Some(match stride {
                            None => size,
                            Some(s) => self.binary(func, BinaryOp::Imul, s, size),
                        });
                    }
                }
                sum.expect("three dimensions")
            }
        };
        self.cache.insert((query, dim), v);
        v
    }

    /// The item as an `i64`.
    fn wide_item(&mut self, func: &mut Function) -> Value {
        if let Some(v) = self.wide {
            return v;
        }
        let v = self.push(
            func,
            InstData::Convert {
                op: ConvertOp::Zext,
                arg: self.item,
                rounding: Rounding::Rte,
                saturate: false,
            },
            Type::I64,
        );
        self.wide = Some(v);
        v
    }

    /// The item's local linear id in its group.
    fn linear(&mut self, func: &mut Function) -> Value {
        if let Some(v) = self.linear {
            return v;
        }
        let per_group: u64 = self.local_size.iter().product();
        let wide = self.wide_item(func);
        let v = self.binary_const(func, BinaryOp::Urem, wide, per_group);
        self.linear = Some(v);
        v
    }

    /// A query of the group (the same for every work-item of it), once.
    fn work_item(&mut self, func: &mut Function, query: WorkItemQuery, dim: usize) -> Value {
        if let Some(&v) = self.group_queries.get(&(query, dim)) {
            return v;
        }
        let v = self.push(
            func,
            InstData::WorkItem {
                query,
                dim: dim as u8,
            },
            Type::I64,
        );
        self.group_queries.insert((query, dim), v);
        v
    }

    fn binary(&mut self, func: &mut Function, op: BinaryOp, a: Value, b: Value) -> Value {
        let ty = func.value_type(a);
        self.push(func, InstData::Binary { op, args: [a, b] }, ty)
    }

    fn binary_const(&mut self, func: &mut Function, op: BinaryOp, a: Value, k: u64) -> Value {
        let ty = func.value_type(a);
        let c = self.push(func, InstData::Iconst { imm: k }, ty);
        self.binary(func, op, a, c)
    }

    fn push(&mut self, func: &mut Function, data: InstData, ty: Type) -> Value {
        let inst = func.create_inst(data, Some(ty));
        func.insert_inst(self.head, self.at, inst);
        self.at += 1;
        func.results[inst].expect("created with a result")
    }
}

fn constant(func: &mut Function, block: Block, ty: Type, imm: u64) -> Value {
    append(func, block, InstData::Iconst { imm }, ty)
}

fn append(func: &mut Function, block: Block, data: InstData, ty: Type) -> Value {
    let inst = func.create_inst(data, Some(ty));
    func.append_inst(block, inst);
    func.results[inst].expect("created with a result")
}
