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
//! later (through another exiting block). A path that leaves a loop
//! containing `b` may not come back into it (through an outer loop): lanes
//! that leave a loop wait at its exit for the others, so they do not meet
//! lanes still inside it. At a join point, only the edges from
//! predecessors that such paths reach carry lanes of the branch: a
//! parameter that gets the same value on all of those edges (a header's
//! counter, incremented once before two latches) stays as it is, whatever
//! the preheader passes.
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

/// The join points of one branch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BranchJoins {
    /// The join points, in RPO.
    pub blocks: Vec<Block>,
    /// For each join point (in the same order), its predecessors that lanes
    /// coming from the branch can arrive from, in RPO.
    pub preds: Vec<Vec<Block>>,
}

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
        self.joins(branch).blocks
    }

    /// The join points of `branch` with, for each, the predecessors lanes
    /// from the branch can arrive from.
    ///
    /// Paths that leave a loop containing `branch` may not enter it again:
    /// lanes that leave a loop wait at its exit until every lane has left
    /// (the loop's divergence is temporal, see the module docs), so they
    /// never meet lanes of the same branch still in the loop. This keeps a
    /// header of an inner loop from being a join point of its own exit
    /// branch by way of the outer loop's back edge.
    pub fn joins(&self, branch: Block) -> BranchJoins {
        let cfg = self.cfg;
        let mut out = BranchJoins::default();
        let succs = self.func.successors(branch);
        if !cfg.is_reachable(branch) || succs.len() < 2 {
            return out;
        }
        let enclosing = self.loops.loops_containing(branch);
        // An edge entering a loop that contains the branch from outside it.
        let reenters = |u: Block, s: Block| {
            enclosing
                .iter()
                .any(|&l| self.loops.entries(l).contains(&s) && !self.loops.contains(l, u))
        };
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
                    if !reenters(u, s) {
                        g.add_edge(u.as_u32(), target(s));
                    }
                }
            }
        }
        let first_edge_node = g.len() as u32;
        for s in succs {
            let e = g.add_node();
            g.add_edge(branch.as_u32(), e);
            g.add_edge(e, target(s));
        }
        let (idom, _) = graph::dominators(&g, branch.as_u32());
        let preds = g.preds();
        let block_of = |x: u32| {
            if x == branch_in || x >= first_edge_node {
                branch
            } else {
                Block::from_u32(x)
            }
        };
        let mut found: Vec<(Block, Vec<Block>)> = Vec::new();
        for x in 0..first_edge_node {
            if x == branch.as_u32() || idom[x as usize] != branch.as_u32() {
                continue;
            }
            let mut from: Vec<Block> = Vec::new();
            for &p in &preds[x as usize] {
                let pb = block_of(p);
                if idom[p as usize] != graph::NONE && !from.contains(&pb) {
                    from.push(pb);
                }
            }
            from.sort_by_key(|&b| cfg.rpo_number(b));
            found.push((block_of(x), from));
        }
        found.sort_by_key(|(b, _)| cfg.rpo_number(*b));
        for (b, from) in found {
            out.blocks.push(b);
            out.preds.push(from);
        }
        out
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
