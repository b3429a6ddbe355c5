//! `lower_switch`: a `switch` on a value that varies across a gang becomes
//! `brif`s (Beignet lowers every switch to if-chains; a switch on a uniform
//! value stays, since the code generator makes it one jump-table branch for
//! the whole gang).
//!
//! The cases are first grouped into *clusters*: runs of consecutive values
//! that go to the same block with the same arguments, each tested at once
//! (`x == lo`, or `x - lo <= hi - lo` unsigned for a run).
//!
//! **A few clusters** (at most [`CHAIN_LIMIT`]) become a chain of `brif`s.
//! Clusters that go to the same block with the same arguments share one
//! condition, the `bor` of their tests, so the chain has one link per
//! distinct target: each link sends its lanes along one edge. The tests
//! stay in the switch's block; link `i` tests target `i`'s condition and
//! otherwise goes on to link `i + 1`; the last link's "otherwise" is the
//! default.
//!
//! **More clusters** become a search tree over the sorted clusters: each
//! node splits its clusters into up to [`CHAIN_LIMIT`] groups and tests,
//! link after link, whether the operand is below the next group's first
//! value (unsigned), the leaves are such chains of at most [`CHAIN_LIMIT`]
//! clusters. One long chain would make the work of the later passes grow
//! with the square of the cases: each link's divergent branch reaches all
//! later links (sync dependence explores them), and each link's condition,
//! computed in the switch's block, would be carried through every block
//! in between once linearized. In the tree a test sits next to its branch,
//! a branch reaches only the rest of its node's range, and a lane passes
//! `log n` nodes of at most [`CHAIN_LIMIT`] links each.
//!
//! Needs the uniformity of the function for the gang it is compiled for;
//! changes the CFG. The blocks a lowering adds follow the switch's block in
//! the layout.

use cranelift_entity::SecondaryMap;
use lockstep_ir::{
    BinaryOp, Block, BlockCall, FuncBuilder, Function, Inst, InstData, IntCC, Type, Value,
};

use crate::analysis::Uniformity;

/// The most clusters a switch (or a leaf of its search tree) tests in one
/// chain.
pub const CHAIN_LIMIT: usize = 8;

/// Lowers every `switch` of `func` whose operand varies across a gang.
pub fn lower_switch(func: &mut Function, uniformity: &Uniformity) {
    let varying: Vec<(Block, Inst)> = func
        .layout
        .iter()
        .filter(|&&b| uniformity.is_reachable(b))
        .filter_map(|&b| {
            let term = func.terminator(b)?;
            match &func.insts[term] {
                InstData::Switch { arg, .. } if !uniformity.operand_shape(*arg, b).is_uniform() => {
                    Some((b, term))
                }
                _ => None,
            }
        })
        .collect();
    if varying.is_empty() {
        return;
    }
    // The blocks each lowering adds, to follow its switch's block.
    let mut added: SecondaryMap<Block, Vec<Block>> = SecondaryMap::new();
    for (block, term) in varying {
        let InstData::Switch {
            arg,
            default,
            cases,
        } = func.insts[term].clone()
        else {
            unreachable!("collected switches only");
        };
        let srcloc = func.srclocs[term];
        func.remove_inst(term);
        let clusters = clusters(cases);
        let ty = func.value_type(arg);
        let mut lowering = Lowering {
            b: FuncBuilder::new(func),
            arg,
            ty,
            default,
            added: Vec::new(),
        };
        lowering.b.set_srcloc(srcloc);
        lowering.tree(block, &clusters);
        added[block] = lowering.added;
    }
    let mut layout = Vec::with_capacity(func.layout.len());
    for &b in &func.layout {
        layout.push(b);
        layout.append(&mut added[b]);
    }
    func.layout = layout;
}

/// Consecutive case values `lo..=hi` that go to `dest`; `first` is the
/// position of the first of them among the switch's cases.
#[derive(Clone, Debug)]
struct Cluster {
    lo: u64,
    hi: u64,
    dest: BlockCall,
    first: usize,
}

/// The clusters of `cases`, sorted by value.
fn clusters(cases: Vec<(u64, BlockCall)>) -> Vec<Cluster> {
    let mut sorted: Vec<(u64, usize, BlockCall)> = cases
        .into_iter()
        .enumerate()
        .map(|(i, (value, dest))| (value, i, dest))
        .collect();
    sorted.sort_unstable_by_key(|&(value, i, _)| (value, i));
    let mut out: Vec<Cluster> = Vec::with_capacity(sorted.len());
    for (value, i, dest) in sorted {
        match out.last_mut() {
            Some(c) if c.dest == dest && c.hi.checked_add(1) == Some(value) => {
                c.hi = value;
                c.first = c.first.min(i);
            }
            _ => out.push(Cluster {
                lo: value,
                hi: value,
                dest,
                first: i,
            }),
        }
    }
    out
}

struct Lowering<'f> {
    b: FuncBuilder<'f>,
    /// The switch's operand and its type.
    arg: Value,
    ty: Type,
    default: BlockCall,
    /// The blocks made so far, in layout order.
    added: Vec<Block>,
}

impl Lowering<'_> {
    fn new_block(&mut self) -> Block {
        let block = self.b.func.create_block();
        self.added.push(block);
        block
    }

    /// Ends `block` with the search for `clusters` (sorted by value): a
    /// chain for a few; else the clusters split into up to
    /// [`CHAIN_LIMIT`] groups of consecutive ones, and a chain of links
    /// that each test whether the operand is below the next group's first
    /// value (then it searches this group) or goes on to the next link (the
    /// last group needs no test).
    fn tree(&mut self, block: Block, clusters: &[Cluster]) {
        let n = clusters.len();
        if n <= CHAIN_LIMIT {
            self.chain(block, clusters);
            return;
        }
        let groups = n.div_ceil(CHAIN_LIMIT).min(CHAIN_LIMIT);
        let mut link = block;
        let mut rest = clusters;
        for g in 0..groups - 1 {
            let size = n / groups + usize::from(g < n % groups);
            let (group, tail) = rest.split_at(size);
            self.b.switch_to_block(link);
            let bound = self.b.iconst(self.ty, tail[0].lo as i64);
            let below = self.b.icmp(IntCC::Ult, self.arg, bound);
            let search = self.new_block();
            let next = self.b.func.create_block();
            self.b.brif(below, call(search), call(next));
            self.tree(search, group);
            self.added.push(next);
            (link, rest) = (next, tail);
        }
        self.tree(link, rest);
    }

    /// Ends `block` with a chain testing `clusters`: one link per distinct
    /// target, in the order the switch first names them; the default last.
    fn chain(&mut self, block: Block, clusters: &[Cluster]) {
        let mut clusters = clusters.to_vec();
        clusters.sort_unstable_by_key(|c| c.first);
        self.b.switch_to_block(block);
        // One condition per distinct target, in order of first appearance.
        let mut targets: Vec<(BlockCall, Value)> = Vec::new();
        for c in clusters {
            let hit = self.test(&c);
            match targets.iter_mut().find(|(dest, _)| *dest == c.dest) {
                Some((_, cond)) => *cond = self.b.binary(BinaryOp::Bor, *cond, hit),
                None => targets.push((c.dest, hit)),
            }
        }
        let Some(count) = targets.len().checked_sub(1) else {
            self.b.jump(self.default.block, self.default.args.clone());
            return;
        };
        let links: Vec<Block> = std::iter::once(block)
            .chain((0..count).map(|_| self.new_block()))
            .collect();
        let mut otherwise = self.default.clone();
        // From the last link back to the first, so each knows its "otherwise".
        for (&link, (dest, cond)) in links.iter().zip(targets).rev() {
            self.b.switch_to_block(link);
            self.b.brif(cond, dest, otherwise);
            otherwise = call(link);
        }
    }

    /// True where the operand is one of `c`'s values.
    fn test(&mut self, c: &Cluster) -> Value {
        if c.lo == c.hi {
            let k = self.b.iconst(self.ty, c.lo as i64);
            return self.b.icmp(IntCC::Eq, self.arg, k);
        }
        let offset = if c.lo == 0 {
            self.arg
        } else {
            let lo = self.b.iconst(self.ty, c.lo as i64);
            self.b.binary(BinaryOp::Isub, self.arg, lo)
        };
        let span = self.b.iconst(self.ty, (c.hi - c.lo) as i64);
        self.b.icmp(IntCC::Ule, offset, span)
    }
}

fn call(block: Block) -> BlockCall {
    BlockCall {
        block,
        args: Vec::new(),
    }
}
