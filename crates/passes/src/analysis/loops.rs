//! The loop forest: every cycle of the CFG as a loop with its header,
//! entries, latches, blocks and exits, nested; and reducibility.
//!
//! Loops matter to SIMD execution because lanes may leave a loop in
//! different iterations (temporal divergence), and because the linearizer
//! treats a single-entry (reducible) loop with a structured loop mask but an
//! irreducible region with the Beignet block-IP scheme. Clang's optimizer can
//! turn reducible source into an irreducible CFG, so both must be found.
//!
//! The forest is computed the SCC way (Steensgaard's loop nesting forest,
//! an equivalent of Havlak's algorithm for irreducible graphs; see
//! Ramalingam, "On loops, dominators, and dominance frontiers", 2002):
//!
//! 1. the strongly connected components of the reachable CFG that contain a
//!    cycle (more than one block, or a self-loop) are the outermost loops;
//! 2. a loop's *entries* are its blocks with a predecessor outside it; with
//!    one entry, that entry is the *header* and dominates the loop (a
//!    reducible, natural loop); with several the loop is an *irreducible
//!    region* and its header is the entry that comes first in RPO;
//! 3. the loops nested in a loop are the cyclic components of its blocks
//!    once the edges into its entries (its back edges) are removed.
//!
//! For reducible CFGs this gives the natural loops, with loops that share a
//! header merged (as LLVM does). Only blocks reachable from the entry take
//! part; the entry block is never in a loop (no branch may target it).

use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{entity_impl, PrimaryMap, SecondaryMap};
use std::collections::{HashMap, HashSet};

use lockstep_ir::{Block, Function};

use super::cfg::ControlFlowGraph;
use super::graph::{self, Graph};

/// A loop of a [`LoopForest`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loop(u32);
entity_impl!(Loop, "loop");

/// What the forest knows about one loop. Block lists are in RPO.
#[derive(Clone, Debug)]
pub struct LoopData {
    /// The single entry of a reducible loop; the first entry in RPO of an
    /// irreducible one.
    pub header: Block,
    /// The blocks with a predecessor outside the loop (header first).
    pub entries: Vec<Block>,
    /// All blocks of the loop, including those of nested loops.
    pub blocks: Vec<Block>,
    /// Blocks of the loop with an edge to one of its entries (the sources of
    /// its back edges).
    pub latches: Vec<Block>,
    /// Blocks of the loop with a successor outside it.
    pub exiting: Vec<Block>,
    /// Blocks outside the loop with a predecessor inside it.
    pub exits: Vec<Block>,
    pub parent: PackedOption<Loop>,
    /// Directly nested loops, by header RPO.
    pub children: Vec<Loop>,
    /// 1 for an outermost loop.
    pub depth: u32,
}

/// The loops of a function, outer loops before the loops they contain.
#[derive(Clone, Debug, Default)]
pub struct LoopForest {
    loops: PrimaryMap<Loop, LoopData>,
    innermost: SecondaryMap<Block, PackedOption<Loop>>,
    roots: Vec<Loop>,
}

impl LoopForest {
    pub fn compute(cfg: &ControlFlowGraph) -> LoopForest {
        let mut forest = LoopForest::default();
        let g = cfg.reachable_graph();
        let all: Vec<Block> = cfg.rpo().to_vec();
        forest.find_loops(cfg, &g, &all, &[], None);
        forest
    }

    /// Finds the loops among `blocks` (the blocks of `parent`, or the whole
    /// reachable CFG), ignoring edges into `cut` (the parent's entries).
    fn find_loops(
        &mut self,
        cfg: &ControlFlowGraph,
        g: &Graph,
        blocks: &[Block],
        cut: &[Block],
        parent: Option<Loop>,
    ) {
        let nodes: Vec<u32> = blocks.iter().map(|b| b.as_u32()).collect();
        let cut_nodes: Vec<u32> = cut.iter().map(|b| b.as_u32()).collect();
        let keep = |_: u32, v: u32| !cut_nodes.contains(&v);
        let mut comps: Vec<Vec<Block>> = graph::sccs(g, &nodes, &keep)
            .into_iter()
            .filter(|c| c.len() > 1 || (g.succs[c[0] as usize].contains(&c[0]) && keep(c[0], c[0])))
            .map(|c| {
                let mut c: Vec<Block> = c.into_iter().map(Block::from_u32).collect();
                c.sort_by_key(|&b| cfg.rpo_number(b));
                c
            })
            .collect();
        comps.sort_by_key(|c| cfg.rpo_number(c[0]));
        for comp in comps {
            let mut in_loop: SecondaryMap<Block, bool> = SecondaryMap::new();
            for &b in &comp {
                in_loop[b] = true;
            }
            let entries: Vec<Block> = comp
                .iter()
                .copied()
                .filter(|&b| cfg.reachable_preds(b).any(|p| !in_loop[p]))
                .collect();
            let latches: Vec<Block> = comp
                .iter()
                .copied()
                .filter(|&b| cfg.succs(b).iter().any(|s| entries.contains(s)))
                .collect();
            let exiting: Vec<Block> = comp
                .iter()
                .copied()
                .filter(|&b| cfg.succs(b).iter().any(|&s| !in_loop[s]))
                .collect();
            let mut exits: Vec<Block> = Vec::new();
            for &b in &comp {
                for &s in cfg.succs(b) {
                    if !in_loop[s] && !exits.contains(&s) {
                        exits.push(s);
                    }
                }
            }
            exits.sort_by_key(|&b| cfg.rpo_number(b));
            let depth = parent.map_or(1, |p| self.loops[p].depth + 1);
            let lp = self.loops.push(LoopData {
                header: entries[0],
                entries: entries.clone(),
                blocks: comp.clone(),
                latches,
                exiting,
                exits,
                parent: parent.into(),
                children: Vec::new(),
                depth,
            });
            match parent {
                Some(p) => self.loops[p].children.push(lp),
                None => self.roots.push(lp),
            }
            for &b in &comp {
                self.innermost[b] = lp.into();
            }
            self.find_loops(cfg, g, &comp, &entries, Some(lp));
        }
    }

    /// All loops, outer before inner, siblings by header RPO.
    pub fn loops(&self) -> impl Iterator<Item = Loop> + '_ {
        self.loops.keys()
    }

    pub fn len(&self) -> usize {
        self.loops.len()
    }

    pub fn is_empty(&self) -> bool {
        self.loops.is_empty()
    }

    pub fn data(&self, lp: Loop) -> &LoopData {
        &self.loops[lp]
    }

    /// The outermost loops, by header RPO.
    pub fn roots(&self) -> &[Loop] {
        &self.roots
    }

    pub fn header(&self, lp: Loop) -> Block {
        self.loops[lp].header
    }

    pub fn entries(&self, lp: Loop) -> &[Block] {
        &self.loops[lp].entries
    }

    pub fn blocks(&self, lp: Loop) -> &[Block] {
        &self.loops[lp].blocks
    }

    pub fn latches(&self, lp: Loop) -> &[Block] {
        &self.loops[lp].latches
    }

    pub fn exiting_blocks(&self, lp: Loop) -> &[Block] {
        &self.loops[lp].exiting
    }

    pub fn exit_blocks(&self, lp: Loop) -> &[Block] {
        &self.loops[lp].exits
    }

    pub fn parent(&self, lp: Loop) -> Option<Loop> {
        self.loops[lp].parent.expand()
    }

    pub fn children(&self, lp: Loop) -> &[Loop] {
        &self.loops[lp].children
    }

    pub fn depth(&self, lp: Loop) -> u32 {
        self.loops[lp].depth
    }

    /// True if the loop has a single entry (its header dominates it).
    pub fn is_reducible(&self, lp: Loop) -> bool {
        self.loops[lp].entries.len() == 1
    }

    /// True if no loop has more than one entry.
    pub fn is_cfg_reducible(&self) -> bool {
        self.loops.values().all(|l| l.entries.len() == 1)
    }

    /// The irreducible regions: loops with more than one entry.
    pub fn irreducible_loops(&self) -> impl Iterator<Item = Loop> + '_ {
        self.loops.keys().filter(|&l| !self.is_reducible(l))
    }

    /// The innermost loop containing `block`, if any.
    pub fn innermost_loop(&self, block: Block) -> Option<Loop> {
        self.innermost[block].expand()
    }

    /// The number of loops containing `block` (0 outside loops).
    pub fn loop_depth(&self, block: Block) -> u32 {
        self.innermost_loop(block).map_or(0, |l| self.depth(l))
    }

    /// True if `block` is in `lp` (or in a loop nested in it).
    pub fn contains(&self, lp: Loop, block: Block) -> bool {
        let mut cur = self.innermost_loop(block);
        let depth = self.depth(lp);
        while let Some(l) = cur {
            if l == lp {
                return true;
            }
            if self.depth(l) <= depth {
                return false;
            }
            cur = self.parent(l);
        }
        false
    }

    /// `inner` is `outer` or nested in it.
    pub fn is_nested_in(&self, inner: Loop, outer: Loop) -> bool {
        let mut cur = Some(inner);
        while let Some(l) = cur {
            if l == outer {
                return true;
            }
            cur = self.parent(l);
        }
        false
    }

    /// The loops containing `block`, innermost first.
    pub fn loops_containing(&self, block: Block) -> Vec<Loop> {
        let mut out = Vec::new();
        let mut cur = self.innermost_loop(block);
        while let Some(l) = cur {
            out.push(l);
            cur = self.parent(l);
        }
        out
    }

    /// The back edges of `lp`: `(latch, entry)` for every edge from a block
    /// of the loop to one of its entries.
    pub fn back_edges(&self, cfg: &ControlFlowGraph, lp: Loop) -> Vec<(Block, Block)> {
        let data = &self.loops[lp];
        let mut out = Vec::new();
        for &l in &data.latches {
            for &s in cfg.succs(l) {
                if data.entries.contains(&s) {
                    out.push((l, s));
                }
            }
        }
        out
    }
}

/// A topological order of the reachable blocks (back edges ignored) in
/// which every loop's blocks are contiguous and start with its header.
pub fn loop_contiguous_order(
    func: &Function,
    cfg: &ControlFlowGraph,
    loops: &LoopForest,
) -> Vec<Block> {
    let Some(entry) = func.entry_block() else {
        return Vec::new();
    };
    // Reverse postorder where, at each step, successors inside the current
    // innermost loops are visited first: a DFS that finishes a loop's blocks
    // before leaving it gives a loop-contiguous RPO for reducible CFGs.
    let mut post = Vec::new();
    let mut visited: SecondaryMap<Block, bool> = SecondaryMap::new();
    fn depth_first(
        b: Block,
        cfg: &ControlFlowGraph,
        loops: &LoopForest,
        visited: &mut SecondaryMap<Block, bool>,
        post: &mut Vec<Block>,
    ) {
        visited[b] = true;
        let mut succs: Vec<Block> = cfg.succs(b).to_vec();
        // Visit exits of deeper loops last, so they finish (and come) after the loop body.
        succs.sort_by_key(|&s| std::cmp::Reverse(loops.loop_depth(s)));
        for s in succs.into_iter().rev() {
            if !visited[s] {
                depth_first(s, cfg, loops, visited, post);
            }
        }
        post.push(b);
    }
    depth_first(entry, cfg, loops, &mut visited, &mut post);
    post.reverse();
    // Make loops contiguous: stable-sort each loop's blocks together by
    // (outermost-first) loop membership, preserving RPO within.
    let mut order = post;
    let index_of = |order: &Vec<Block>| -> HashMap<Block, usize> {
        order.iter().enumerate().map(|(i, &b)| (b, i)).collect()
    };
    let mut changed = true;
    while changed {
        changed = false;
        let idx = index_of(&order);
        for lp in loops.loops() {
            // The loop's range starts at its first block in the order (its
            // header, for a reducible loop).
            let Some(start) = loops
                .blocks(lp)
                .iter()
                .filter_map(|b| idx.get(b))
                .min()
                .copied()
            else {
                continue;
            };
            let members: Vec<Block> = order[start..]
                .iter()
                .copied()
                .filter(|&b| loops.contains(lp, b))
                .collect();
            let count = members.len();
            let contiguous = order[start..start + count]
                .iter()
                .all(|&b| loops.contains(lp, b));
            if !contiguous {
                // Blocks in the way that the loop reaches go after it; the
                // others lead into it (an irreducible loop's second entry)
                // and go before it.
                let mut reached: HashSet<Block> = HashSet::new();
                let mut work: Vec<Block> = members.clone();
                while let Some(b) = work.pop() {
                    for &succ in cfg.succs(b) {
                        if !loops.contains(lp, succ) && reached.insert(succ) {
                            work.push(succ);
                        }
                    }
                }
                let others: Vec<Block> = order[start..]
                    .iter()
                    .copied()
                    .filter(|&b| !loops.contains(lp, b))
                    .collect();
                let (after, before): (Vec<Block>, Vec<Block>) =
                    others.into_iter().partition(|b| reached.contains(b));
                order.truncate(start);
                order.extend(before);
                order.extend(members);
                order.extend(after);
                changed = true;
                break;
            }
        }
    }
    order
}
