//! Sync dependence: where the lanes of a divergent branch meet again (its
//! *join points*), and which loops they may leave in different iterations.
//!
//! Moll & Hack ("Partial control-flow linearization", PLDI 2018) define the
//! join points of a branch at block `b` as the blocks `x` reachable from two
//! different successors of `b` along paths that share no block but `b` and
//! `x` (disjoint paths). At such an `x` lanes that took different sides
//! arrive together, so a block parameter of `x` can hold different values in
//! different lanes even if every incoming value is uniform.
//!
//! We compute that definition exactly with dominators instead of Moll &
//! Hack's label propagation. By Menger's theorem two paths from `b` to `x`
//! sharing only their ends exist iff no single block other than `b`
//! separates `x` from `b`, i.e. iff `idom(x) == b` in the dominator tree of
//! the graph *rooted at `b`*. Two details make the equivalence exact:
//!
//! * every outgoing edge of `b` is split by a virtual node, so a successor
//!   reached only by its own edge is dominated by that edge node (not a
//!   join), while a block targeted twice (`brif c, x(v1), x(v2)`) or reached
//!   directly and around is a join;
//! * `b` itself is split into a root and a sink copy that receives every
//!   edge into `b`, so `b` is a join of its own branch when lanes can come
//!   back to it along two disjoint paths (a loop header whose body
//!   diverges and does not reconverge before the back edges).
//!
//! Paths may run around loops that do not contain `b`, and through the
//! header of a loop that contains it, which is what makes a header a join
//! point when two sides of a divergent branch reach different latches, and
//! an exit block a join point when one side leaves now and the other leaves
//! later (through another exiting block).
//!
//! **Divergent loops (temporal divergence).** A loop `L` *is divergent*
//! when lanes may leave it in different iterations (or, for an irreducible
//! loop, stand at different entries of it at once). For a divergent branch
//! `b` in `L` we look at one iteration of `L`: the graph of `L`'s blocks
//! where every edge to an entry of `L` goes to a sink `CONT(entry)`, every
//! edge leaving `L` goes to one sink `EXIT`, and all sinks go to `END`.
//! Lanes that disagree at `b` can end this iteration at different sinks —
//! some leave while others continue, or (irreducible) continue at different
//! entries — iff two disjoint paths lead from `b` to `END`, i.e. again iff
//! `idom(END) == b` there. If all paths from `b` meet again at a block of
//! `L` before the iteration ends, or all leave `L` together, or all continue
//! to the one header, the loop is not made divergent by `b`.
//!
//! Lanes that enter an irreducible loop at different entries are not
//! synchronized by any header either, so an irreducible loop not containing
//! `b` is divergent too when one of its entries is a join point of `b`.

use cranelift_entity::SecondaryMap;
use lockstep_ir::{Block, Function};

use super::cfg::ControlFlowGraph;
use super::graph::{self, Graph};
use super::loops::{Loop, LoopForest};

/// Answers sync-dependence queries about the branches of one function.
pub struct SyncDependence<'a> {
    func: &'a Function,
    cfg: &'a ControlFlowGraph,
    loops: &'a LoopForest,
}

impl<'a> SyncDependence<'a> {
    pub fn new(
        func: &'a Function,
        cfg: &'a ControlFlowGraph,
        loops: &'a LoopForest,
    ) -> SyncDependence<'a> {
        SyncDependence { func, cfg, loops }
    }

    /// The join points of the terminator of `branch`: the blocks reachable
    /// from two different outgoing edges of it along disjoint paths, in RPO
    /// (possibly including `branch` itself). Empty for unreachable blocks
    /// and for terminators with fewer than two outgoing edges.
    pub fn join_points(&self, branch: Block) -> Vec<Block> {
        let cfg = self.cfg;
        let succs = self.func.successors(branch);
        if !cfg.is_reachable(branch) || succs.len() < 2 {
            return Vec::new();
        }
        let n = cfg.num_block_ids();
        let mut g = Graph::with_nodes(n);
        let branch_in = g.add_node();
        let target = |s: Block| {
            if s == branch {
                branch_in
            } else {
                s.as_u32()
            }
        };
        for &u in cfg.rpo() {
            if u != branch {
                for &s in cfg.succs(u) {
                    g.add_edge(u.as_u32(), target(s));
                }
            }
        }
        let first_edge_node = g.len() as u32;
        for s in succs {
            let e = g.add_node();
            g.add_edge(branch.as_u32(), e);
            g.add_edge(e, target(s));
        }
        let (idom, rpo) = graph::dominators(&g, branch.as_u32());
        let mut joins: Vec<Block> = rpo
            .into_iter()
            .filter(|&x| {
                x != branch.as_u32() && x < first_edge_node && idom[x as usize] == branch.as_u32()
            })
            .map(|x| {
                if x == branch_in {
                    branch
                } else {
                    Block::from_u32(x)
                }
            })
            .collect();
        joins.sort_by_key(|&b| cfg.rpo_number(b));
        joins
    }

    /// The loops that a divergent terminator at `branch` makes divergent
    /// (see the module docs), given its join points; by loop id.
    pub fn divergent_loops(&self, branch: Block, joins: &[Block]) -> Vec<Loop> {
        let (cfg, loops) = (self.cfg, self.loops);
        let mut out = Vec::new();
        if !cfg.is_reachable(branch) {
            return out;
        }
        for lp in loops.loops_containing(branch) {
            if self.lanes_split_in_iteration(branch, lp) {
                out.push(lp);
            }
        }
        for lp in loops.irreducible_loops() {
            if !loops.contains(lp, branch) && loops.entries(lp).iter().any(|e| joins.contains(e)) {
                out.push(lp);
            }
        }
        out.sort();
        out
    }

    /// In one iteration of `lp`, can lanes that disagree at `branch` end at
    /// different sinks (leave vs. continue, or continue at different entries)?
    fn lanes_split_in_iteration(&self, branch: Block, lp: Loop) -> bool {
        let (cfg, loops) = (self.cfg, self.loops);
        let n = cfg.num_block_ids();
        let mut in_loop: SecondaryMap<Block, bool> = SecondaryMap::new();
        for &b in loops.blocks(lp) {
            in_loop[b] = true;
        }
        let mut g = Graph::with_nodes(n);
        let exit = g.add_node();
        let end = g.add_node();
        g.add_edge(exit, end);
        let entries = loops.entries(lp);
        let conts: Vec<u32> = entries
            .iter()
            .map(|_| {
                let c = g.add_node();
                g.add_edge(c, end);
                c
            })
            .collect();
        for &u in loops.blocks(lp) {
            for &s in cfg.succs(u) {
                let to = if !in_loop[s] {
                    exit
                } else if let Some(i) = entries.iter().position(|&e| e == s) {
                    conts[i]
                } else {
                    s.as_u32()
                };
                g.add_edge(u.as_u32(), to);
            }
        }
        let (idom, _) = graph::dominators(&g, branch.as_u32());
        idom[end as usize] == branch.as_u32()
    }
}
