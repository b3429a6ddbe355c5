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

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::Hash;

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
        self.explore_joins(branch, true)
    }

    /// [`SyncDependence::joins`] computed on everything reachable from the
    /// branch, without stopping where its paths meet: the same result,
    /// slower; for tests of the shortcut.
    pub fn joins_exhaustive(&self, branch: Block) -> BranchJoins {
        self.explore_joins(branch, false)
    }

    fn explore_joins(&self, branch: Block, shortcut: bool) -> BranchJoins {
        let (cfg, loops) = (self.cfg, self.loops);
        let mut out = BranchJoins::default();
        let succs = self.func.successors(branch);
        if !cfg.is_reachable(branch) || succs.len() < 2 {
            return out;
        }
        let enclosing = loops.loops_containing(branch);
        // An edge entering a loop that contains the branch from outside it.
        let reenters = |u: Block, s: Block| {
            enclosing
                .iter()
                .any(|&l| loops.entries(l).contains(&s) && !loops.contains(l, u))
        };
        // The graph, numbered as explored: node 0 is the branch, nodes
        // `1..=succs.len()` its edge nodes, then the blocks it reaches
        // (the branch itself again as the sink of the edges into it).
        let mut g = Graph::with_nodes(1 + succs.len());
        let mut block_of: Vec<Block> = vec![branch; 1 + succs.len()];
        let mut explore = Explore::default();
        let rpo = |b: Block| cfg.rpo_number(b).expect("reachable from a reachable block");
        for (k, &s) in succs.iter().enumerate() {
            g.add_edge(0, k as u32 + 1);
            let t = explore.node(&mut g, &mut block_of, s, rpo(s));
            g.add_edge(k as u32 + 1, t);
        }
        let mut may_stop = shortcut;
        while let Some(x) = explore.next() {
            let b = block_of[x as usize];
            if may_stop && explore.is_empty() && b != branch && loops.innermost_loop(b).is_none() {
                // Every path on from here goes through `b`: stop if it
                // cannot come back (see `all_reach`).
                if all_reach(&g, x, explore.ids.get(&branch).copied()) {
                    break;
                }
                may_stop = false;
            }
            if b == branch {
                continue; // the sink of the edges into the branch
            }
            for &s in cfg.succs(b) {
                if !reenters(b, s) {
                    let t = explore.node(&mut g, &mut block_of, s, rpo(s));
                    g.add_edge(x, t);
                }
            }
        }
        let (idom, _) = graph::dominators(&g, 0);
        let preds = g.preds();
        let first_block = succs.len() + 1;
        let mut found: Vec<(Block, Vec<Block>)> = Vec::new();
        for x in first_block..g.len() {
            if idom[x] != 0 {
                continue;
            }
            let mut from: Vec<Block> = preds[x]
                .iter()
                .filter(|&&p| idom[p as usize] != graph::NONE)
                .map(|&p| block_of[p as usize])
                .collect();
            from.sort_by_key(|&b| cfg.rpo_number(b));
            from.dedup();
            found.push((block_of[x], from));
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
        let entries = loops.entries(lp);
        // Nodes numbered as explored from the branch (node 0), blocks in
        // RPO, the sinks (one `EXIT`, a `CONT` per entry, then `END`) last.
        #[derive(Copy, Clone, PartialEq, Eq, Hash)]
        enum Node {
            Block(Block),
            Exit,
            Cont(usize),
            End,
        }
        let mut g = Graph::with_nodes(1);
        let mut kind: Vec<Node> = vec![Node::Block(branch)];
        let mut explore = Explore::default();
        explore.ids.insert(Node::Block(branch), 0);
        let key = |n: Node| match n {
            Node::Block(b) => cfg.rpo_number(b).unwrap_or(u32::MAX),
            _ => u32::MAX,
        };
        let mut end = None;
        let mut x = 0;
        loop {
            let targets: Vec<Node> = match kind[x as usize] {
                Node::Block(u) => cfg
                    .succs(u)
                    .iter()
                    .map(|&s| {
                        if !loops.contains(lp, s) {
                            Node::Exit
                        } else if let Some(i) = entries.iter().position(|&e| e == s) {
                            Node::Cont(i)
                        } else {
                            Node::Block(s)
                        }
                    })
                    .collect(),
                Node::Exit | Node::Cont(_) => vec![Node::End],
                Node::End => Vec::new(),
            };
            for t in targets {
                let id = explore.node(&mut g, &mut kind, t, key(t));
                if t == Node::End {
                    end = Some(id);
                }
                g.add_edge(x, id);
            }
            let Some(next) = explore.next() else {
                break;
            };
            if explore.is_empty() && kind[next as usize] != Node::End {
                // Every path from here to `END` goes through `next`, which
                // is not the branch: it dominates `END`.
                return false;
            }
            x = next;
        }
        let Some(end) = end else {
            return false;
        };
        let (idom, _) = graph::dominators(&g, 0);
        idom[end as usize] == 0
    }
}

/// The nodes of a graph being built as it is explored from its root: each
/// gets a number when first seen and waits in a queue, the lowest key (RPO
/// number) first, so that the blocks of an acyclic region come out in a
/// topological order and the queue holds one node exactly when every path
/// on from the explored part goes through it.
struct Explore<K> {
    ids: HashMap<K, u32>,
    queue: BinaryHeap<Reverse<(u32, u32)>>,
}

impl<K> Default for Explore<K> {
    fn default() -> Explore<K> {
        Explore {
            ids: HashMap::new(),
            queue: BinaryHeap::new(),
        }
    }
}

impl<K: Copy + Eq + Hash> Explore<K> {
    /// The node of `k` in `g` (`kinds[node] == k`): added and queued with
    /// `key` when first seen.
    fn node(&mut self, g: &mut Graph, kinds: &mut Vec<K>, k: K, key: u32) -> u32 {
        if let Some(&id) = self.ids.get(&k) {
            return id;
        }
        let id = g.add_node();
        kinds.push(k);
        self.ids.insert(k, id);
        self.queue.push(Reverse((key, id)));
        id
    }

    /// The next node to explore.
    fn next(&mut self) -> Option<u32> {
        self.queue.pop().map(|Reverse((_, id))| id)
    }

    /// True if no node waits.
    fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

/// True if every node of `g` except the sink of the edges into the branch
/// reaches `target` (the one node left to explore), so that, `target` being
/// in no loop, nothing reached through it can come back into the explored
/// part: the dominators of the explored part, and of `target`, are those
/// of the whole graph.
///
/// Proof sketch: a node `u` reached through `target` with an edge into an
/// explored node `y` (or into `target`) closes a cycle `target .. u y ..
/// target` (every explored node reaches `target`), which a block in no loop
/// cannot be on. The sink of the edges into the branch is not on such a
/// cycle either: the branch reaches `target` too.
fn all_reach(g: &Graph, target: u32, sink: Option<u32>) -> bool {
    let preds = g.preds();
    let mut seen = vec![false; g.len()];
    seen[target as usize] = true;
    let mut count = 1;
    let mut work = vec![target];
    while let Some(x) = work.pop() {
        for &p in &preds[x as usize] {
            if !seen[p as usize] {
                seen[p as usize] = true;
                count += 1;
                work.push(p);
            }
        }
    }
    count + usize::from(sink.is_some_and(|s| !seen[s as usize])) == g.len()
}
