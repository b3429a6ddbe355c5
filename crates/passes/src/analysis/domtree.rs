//! The dominator tree (Cooper–Harvey–Kennedy) and dominance frontiers.
//!
//! Dominance answers "does every path from the entry to `b` pass through
//! `a`": the verifier's SSA rule, the loop forest's header test, and the
//! iterated dominance frontier that places joins. Only blocks reachable
//! from the entry are in the tree; queries about unreachable blocks answer
//! "no" (no block dominates an unreachable one, and it dominates nothing).

use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{EntityRef, SecondaryMap};
use lockstep_ir::Block;

use super::cfg::ControlFlowGraph;
use super::graph::{self, Tree, NONE};

/// Immediate dominators of the reachable blocks, as a tree.
#[derive(Clone, Debug, Default)]
pub struct DominatorTree {
    idom: SecondaryMap<Block, PackedOption<Block>>,
    children: SecondaryMap<Block, Vec<Block>>,
    tree: Tree,
    rpo: Vec<Block>,
}

impl DominatorTree {
    pub fn compute(cfg: &ControlFlowGraph) -> DominatorTree {
        let Some(entry) = cfg.entry() else {
            return DominatorTree::default();
        };
        let (idom_nodes, rpo) = graph::dominators(&cfg.reachable_graph(), entry.as_u32());
        let tree = Tree::new(idom_nodes, entry.as_u32(), &rpo);
        let mut dt = DominatorTree {
            rpo: cfg.rpo().to_vec(),
            ..DominatorTree::default()
        };
        for &b in cfg.rpo() {
            let i = tree.idom[b.index()];
            if b != entry && i != NONE {
                dt.idom[b] = Block::from_u32(i).into();
            }
            dt.children[b] = tree.children[b.index()]
                .iter()
                .map(|&c| Block::from_u32(c))
                .collect();
        }
        dt.tree = tree;
        dt
    }

    /// The immediate dominator of `block`; `None` for the entry and for
    /// unreachable blocks.
    pub fn idom(&self, block: Block) -> Option<Block> {
        self.idom[block].expand()
    }

    /// The blocks `block` immediately dominates, in RPO.
    pub fn children(&self, block: Block) -> &[Block] {
        &self.children[block]
    }

    /// True if every path from the entry to `b` passes through `a`
    /// (reflexive). False if either block is unreachable.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        a.index() < self.tree.idom.len()
            && b.index() < self.tree.idom.len()
            && self.tree.dominates(a.as_u32(), b.as_u32())
    }

    /// `a` dominates `b` and `a != b`.
    pub fn strictly_dominates(&self, a: Block, b: Block) -> bool {
        a != b && self.dominates(a, b)
    }

    pub fn is_reachable(&self, block: Block) -> bool {
        block.index() < self.tree.idom.len() && self.tree.contains(block.as_u32())
    }

    /// The reachable blocks in the CFG's reverse postorder (a dominator
    /// comes before the blocks it dominates).
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }
}

/// The dominance frontier of every reachable block: the blocks where its
/// dominance ends, i.e. where definitions in it meet other definitions.
#[derive(Clone, Debug, Default)]
pub struct DominanceFrontiers {
    frontier: SecondaryMap<Block, Vec<Block>>,
}

impl DominanceFrontiers {
    pub fn compute(cfg: &ControlFlowGraph, domtree: &DominatorTree) -> DominanceFrontiers {
        let mut out = DominanceFrontiers::default();
        let Some(entry) = cfg.entry() else {
            return out;
        };
        let g = cfg.reachable_graph();
        let mut idom = vec![NONE; g.len()];
        idom[entry.index()] = entry.as_u32();
        for &b in cfg.rpo() {
            if let Some(d) = domtree.idom(b) {
                idom[b.index()] = d.as_u32();
            }
        }
        let rpo: Vec<u32> = cfg.rpo().iter().map(|b| b.as_u32()).collect();
        let df = graph::frontiers(&g, &idom, &rpo);
        for &b in cfg.rpo() {
            out.frontier[b] = df[b.index()].iter().map(|&n| Block::from_u32(n)).collect();
        }
        out
    }

    /// The dominance frontier of `block`, in RPO.
    pub fn frontier(&self, block: Block) -> &[Block] {
        &self.frontier[block]
    }

    /// The iterated dominance frontier of a set of blocks (where SSA
    /// construction would place block parameters for definitions in
    /// `blocks`), sorted by `cfg`'s RPO.
    pub fn iterated(&self, cfg: &ControlFlowGraph, blocks: &[Block]) -> Vec<Block> {
        let mut in_result: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut result = Vec::new();
        let mut work: Vec<Block> = blocks.to_vec();
        while let Some(b) = work.pop() {
            for &f in &self.frontier[b] {
                if !in_result[f] {
                    in_result[f] = true;
                    result.push(f);
                    work.push(f);
                }
            }
        }
        result.sort_by_key(|&b| cfg.rpo_number(b));
        result
    }
}
