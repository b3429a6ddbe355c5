//! The control-flow graph of a function: successors, predecessors, the
//! blocks reachable from the entry and their reverse postorder.
//!
//! Every other analysis starts here. The function's terminators are the
//! truth; this is a snapshot of them in dense maps so that predecessor
//! queries are cheap and every analysis agrees on one RPO (the depth-first
//! order visits successors in terminator order, so results are
//! deterministic). Blocks that the entry cannot reach are part of the layout
//! but not of the RPO; analyses skip them and ignore their outgoing edges.

use cranelift_entity::SecondaryMap;
use lockstep_ir::{Block, Function};

use super::graph::Graph;

/// Successors, predecessors and reachability of the blocks of one function.
#[derive(Clone, Debug, Default)]
pub struct ControlFlowGraph {
    entry: Option<Block>,
    layout: Vec<Block>,
    succs: SecondaryMap<Block, Vec<Block>>,
    preds: SecondaryMap<Block, Vec<Block>>,
    rpo: Vec<Block>,
    /// Position in `rpo`; `u32::MAX` for unreachable blocks.
    rpo_number: SecondaryMap<Block, u32>,
    num_blocks: usize,
}

impl ControlFlowGraph {
    pub fn compute(func: &Function) -> ControlFlowGraph {
        let mut cfg = ControlFlowGraph {
            entry: func.entry_block(),
            layout: func.layout.clone(),
            num_blocks: func.blocks.len(),
            rpo_number: SecondaryMap::with_default(u32::MAX),
            ..ControlFlowGraph::default()
        };
        for &block in &func.layout {
            let mut succs = Vec::new();
            for s in func.successors(block) {
                if !succs.contains(&s) {
                    succs.push(s);
                }
            }
            for &s in &succs {
                cfg.preds[s].push(block);
            }
            cfg.succs[block] = succs;
        }
        if let Some(entry) = cfg.entry {
            let graph = cfg.graph();
            for (i, n) in graph.rpo(entry.as_u32()).into_iter().enumerate() {
                let b = Block::from_u32(n);
                cfg.rpo.push(b);
                cfg.rpo_number[b] = i as u32;
            }
        }
        cfg
    }

    /// The entry block (`None` for a function without blocks).
    pub fn entry(&self) -> Option<Block> {
        self.entry
    }

    /// All blocks of the layout, in layout order (reachable or not).
    pub fn blocks(&self) -> &[Block] {
        &self.layout
    }

    /// The distinct successors of `block`, in terminator order.
    pub fn succs(&self, block: Block) -> &[Block] {
        &self.succs[block]
    }

    /// The distinct predecessors of `block` in layout order, including
    /// unreachable ones.
    pub fn preds(&self, block: Block) -> &[Block] {
        &self.preds[block]
    }

    /// The predecessors of `block` that are reachable from the entry.
    pub fn reachable_preds(&self, block: Block) -> impl Iterator<Item = Block> + '_ {
        self.preds[block]
            .iter()
            .copied()
            .filter(|&p| self.is_reachable(p))
    }

    /// The blocks reachable from the entry, in reverse postorder.
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// `block`'s position in [`ControlFlowGraph::rpo`], if it is reachable.
    pub fn rpo_number(&self, block: Block) -> Option<u32> {
        let n = self.rpo_number[block];
        (n != u32::MAX).then_some(n)
    }

    pub fn is_reachable(&self, block: Block) -> bool {
        self.rpo_number[block] != u32::MAX
    }

    /// The blocks of the layout that the entry cannot reach, in layout order.
    pub fn unreachable_blocks(&self) -> impl Iterator<Item = Block> + '_ {
        self.layout
            .iter()
            .copied()
            .filter(|&b| !self.is_reachable(b))
    }

    /// The number of block ids of the function (the size of dense maps).
    pub(crate) fn num_block_ids(&self) -> usize {
        self.num_blocks
    }

    /// The CFG as a dense graph over block indices (edges of every layout
    /// block; nodes for all block ids).
    pub(crate) fn graph(&self) -> Graph {
        let mut g = Graph::with_nodes(self.num_blocks);
        for &b in &self.layout {
            for &s in &self.succs[b] {
                g.add_edge(b.as_u32(), s.as_u32());
            }
        }
        g
    }

    /// Like [`ControlFlowGraph::graph`], but only with the edges out of
    /// reachable blocks.
    pub(crate) fn reachable_graph(&self) -> Graph {
        let mut g = Graph::with_nodes(self.num_blocks);
        for &b in &self.rpo {
            for &s in &self.succs[b] {
                g.add_edge(b.as_u32(), s.as_u32());
            }
        }
        g
    }
}
