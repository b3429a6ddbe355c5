//! The post-dominator tree, rooted at a virtual exit, and post-dominance
//! frontiers (control dependence).
//!
//! Post-dominance answers "does every path from `b` to the end pass through
//! `a`": where the lanes of a divergent branch are sure to meet again, and
//! which branches a block is control dependent on. A function may end in
//! several `return`s, in `unreachable`, or never end (an infinite loop), so
//! the tree is built on the reversed CFG plus one *virtual exit* node:
//!
//! * every reachable block without successors (`return`, `unreachable`)
//!   has an edge to the virtual exit;
//! * blocks that can reach no such block are in infinite loops: for every
//!   *terminal* strongly connected component of them (one with no edge to
//!   another), the block of that component that comes last in RPO (for a
//!   simple loop, its latch: as if the back edge left the function) also
//!   gets an edge to the virtual exit. Then every reachable block reaches
//!   the exit and has a post-dominator.
//!
//! Only blocks reachable from the entry are in the tree (an unreachable
//! block's successors cannot change what post-dominates a reachable block).

use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntityRef, SecondaryMap};
use lockstep_ir::Block;

use super::cfg::ControlFlowGraph;
use super::graph::{self, Graph, Tree, NONE};

/// Immediate post-dominators of the reachable blocks; the virtual exit is
/// the root and is not a block (it shows as `None`).
#[derive(Clone, Debug, Default)]
pub struct PostDominatorTree {
    ipdom: SecondaryMap<Block, PackedOption<Block>>,
    children: SecondaryMap<Block, Vec<Block>>,
    exit_children: Vec<Block>,
    exit_preds: Vec<Block>,
    infinite_loop_exits: Vec<Block>,
    frontier: SecondaryMap<Block, Vec<Block>>,
    tree: Tree,
    /// The virtual exit's node number.
    exit: u32,
}

impl PostDominatorTree {
    pub fn compute(cfg: &ControlFlowGraph) -> PostDominatorTree {
        let mut pdt = PostDominatorTree::default();
        if cfg.entry().is_none() {
            return pdt;
        }
        let n = cfg.num_block_ids();
        let exit = n as u32;
        pdt.exit = exit;

        // Blocks that reach a block without successors.
        let mut exiting: Vec<Block> = cfg
            .rpo()
            .iter()
            .copied()
            .filter(|&b| cfg.succs(b).is_empty())
            .collect();
        let mut reaches_exit: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut work = exiting.clone();
        for &b in &exiting {
            reaches_exit[b] = true;
        }
        while let Some(b) = work.pop() {
            for p in cfg.reachable_preds(b) {
                if !reaches_exit[p] {
                    reaches_exit[p] = true;
                    work.push(p);
                }
            }
        }
        // Terminal SCCs of the blocks that never reach an exit.
        let stuck: Vec<u32> = cfg
            .rpo()
            .iter()
            .filter(|&&b| !reaches_exit[b])
            .map(|b| b.as_u32())
            .collect();
        if !stuck.is_empty() {
            let g = cfg.reachable_graph();
            let comps = graph::sccs(&g, &stuck, &|_, _| true);
            let mut comp_of = vec![NONE; n];
            for (i, c) in comps.iter().enumerate() {
                for &b in c {
                    comp_of[b as usize] = i as u32;
                }
            }
            for (i, c) in comps.iter().enumerate() {
                let terminal = c.iter().all(|&b| {
                    g.succs[b as usize]
                        .iter()
                        .all(|&s| comp_of[s as usize] == i as u32)
                });
                if terminal {
                    let last = c
                        .iter()
                        .map(|&b| Block::from_u32(b))
                        .max_by_key(|&b| cfg.rpo_number(b))
                        .expect("components are not empty");
                    pdt.infinite_loop_exits.push(last);
                }
            }
            pdt.infinite_loop_exits.sort_by_key(|&b| cfg.rpo_number(b));
        }
        exiting.extend(pdt.infinite_loop_exits.iter().copied());
        exiting.sort_by_key(|&b| cfg.rpo_number(b));
        pdt.exit_preds = exiting;

        // The reversed CFG plus the virtual exit.
        let mut rev = Graph::with_nodes(n + 1);
        for &b in &pdt.exit_preds {
            rev.add_edge(exit, b.as_u32());
        }
        for &b in cfg.rpo().iter().rev() {
            for &s in cfg.succs(b) {
                rev.add_edge(s.as_u32(), b.as_u32());
            }
        }
        let (idom, rpo) = graph::dominators(&rev, exit);
        let df = graph::frontiers(&rev, &idom, &rpo);
        let tree = Tree::new(idom, exit, &rpo);
        for &b in cfg.rpo() {
            let i = tree.idom[b.index()];
            if i != exit && i != NONE {
                pdt.ipdom[b] = Block::from_u32(i).into();
            }
            pdt.children[b] = tree.children[b.index()]
                .iter()
                .map(|&c| Block::from_u32(c))
                .collect();
            pdt.frontier[b] = df[b.index()].iter().map(|&c| Block::from_u32(c)).collect();
            pdt.frontier[b].sort_by_key(|&x| cfg.rpo_number(x));
        }
        pdt.exit_children = tree.children[exit as usize]
            .iter()
            .map(|&c| Block::from_u32(c))
            .collect();
        pdt.tree = tree;
        pdt
    }

    /// The immediate post-dominator of `block`; `None` when it is the
    /// virtual exit, or when `block` is unreachable.
    pub fn ipdom(&self, block: Block) -> Option<Block> {
        self.ipdom[block].expand()
    }

    /// True if every path from `b` to the (virtual) exit passes through `a`
    /// (reflexive). False if either block is unreachable.
    pub fn post_dominates(&self, a: Block, b: Block) -> bool {
        a.index() < self.exit as usize
            && b.index() < self.exit as usize
            && self.tree.dominates(a.as_u32(), b.as_u32())
    }

    pub fn strictly_post_dominates(&self, a: Block, b: Block) -> bool {
        a != b && self.post_dominates(a, b)
    }

    /// The blocks `block` immediately post-dominates.
    pub fn children(&self, block: Block) -> &[Block] {
        &self.children[block]
    }

    /// The blocks whose immediate post-dominator is the virtual exit.
    pub fn exit_children(&self) -> &[Block] {
        &self.exit_children
    }

    /// The blocks with an edge to the virtual exit, in RPO: those without
    /// successors and those in [`PostDominatorTree::infinite_loop_exits`].
    pub fn exit_preds(&self) -> &[Block] {
        &self.exit_preds
    }

    /// The blocks given a virtual edge to the exit because they are in an
    /// infinite loop (one per terminal component), in RPO.
    pub fn infinite_loop_exits(&self) -> &[Block] {
        &self.infinite_loop_exits
    }

    /// The post-dominance frontier of `block`: the blocks whose branch
    /// decides whether `block` runs (`block` is control dependent on them),
    /// in RPO.
    pub fn frontier(&self, block: Block) -> &[Block] {
        &self.frontier[block]
    }
}
