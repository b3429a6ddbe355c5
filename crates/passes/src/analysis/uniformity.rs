//! Uniformity and shapes: for every value, whether the lanes of a gang hold
//! the same value (uniform), an arithmetic sequence (consecutive), or
//! anything (varying); for every branch, whether the lanes may disagree.
//!
//! The SIMD code generator keeps uniform values scalar, turns memory
//! accesses through consecutive addresses into vector loads and stores, and
//! needs gathers, scatters and masks only for varying ones; the linearizer
//! keeps uniform branches as real branches. This is the vectorization
//! analysis of Karrenberg & Hack ("Whole-function vectorization", CGO 2011)
//! with the sync dependence of Moll & Hack (PLDI 2018) for divergence that
//! flows through control (see [`super::sync`]).
//!
//! # Lanes
//!
//! A gang runs W work-items of one work-group: lane `l` of gang `g` is the
//! work-item with local linear id `g*W + l`. The analysis is specialized on
//! the concrete local size (as kernels are at launch), which decides the
//! shape of the work-item queries. With `n = g*W + l`, `local_id(d)` is
//! `(n / P_d) % size_d` where `P_d` is the product of the sizes of the lower
//! dimensions, so:
//!
//! * it is *uniform* when `size_d == 1`, or when W divides `P_d` (a gang
//!   never straddles two values of the dimension), e.g. `local_id(1)` when
//!   `local_size[0] % W == 0`;
//! * it is *consecutive(1)* when `P_d == 1` (the lower dimensions all have
//!   size one) and either W divides `size_d` (a gang never wraps to the next
//!   row) or the higher dimensions all have size one (there is no next
//!   row), e.g. `local_id(0)` when `local_size[0] % W == 0`;
//! * otherwise it is *varying* (local size (8,8) with W=16: both ids).
//!
//! `global_id(d)` has the shape of `local_id(d)` (it adds a uniform base);
//! `local_linear_id` is consecutive(1); `global_linear_id` has the shape of
//! `local_id(0)` when `local_id(1)` and `local_id(2)` are uniform, else it is
//! varying (its stride in y is the global width, unknown here). Group ids,
//! sizes, offsets, `work_dim` and kernel arguments are uniform; the
//! parameters of a helper function (analysed on its own) are varying, since
//! a caller may pass anything. (The masked lanes of a partial last gang run
//! past the group's end; their values do not matter.)
//!
//! # Shapes of instructions
//!
//! * constants and `global_addr` are uniform; `stack_addr` is varying (every
//!   work-item has its own private memory);
//! * `iadd`, `isub`, `ptradd`: uniform ± consecutive(s) is consecutive(±s),
//!   consecutive(a) ± consecutive(b) is consecutive(a ± b); a pointer stride
//!   is in bytes. `imul` by a uniform *constant* k and `ishl` by a constant
//!   k scale the stride by k and 2^k; `ineg` and `bnot` negate it. A stride
//!   of 0 is uniform;
//! * `zext`/`sext` of a consecutive `i32`/`i64` stay consecutive: we assume
//!   that indices do not wrap around inside one gang (as every vectorizer
//!   does for address arithmetic); of narrower types they are varying.
//!   `trunc`, `ptrtoint`, `inttoptr`, `addrspacecast` and integer bitcasts
//!   keep the shape;
//! * `select` with a uniform condition joins its two operands;
//! * a `load` is uniform iff its address is uniform, its address space is
//!   `global`, `constant` or `local`, and it is not volatile: the gang
//!   performs it as one scalar access whose value it broadcasts, so all
//!   lanes see the same value. Private and generic addresses may name a
//!   different object per work-item; volatile loads must be performed per
//!   work-item;
//! * a subgroup collective (a gang is a subgroup, and the lanes that run
//!   it are the work-items that take part) is uniform for `any`, `all`,
//!   `ballot` and the reductions; a `broadcast` is uniform when its value
//!   or its lane is, a `shuffle` when its value is; scans and clustered
//!   reductions are varying. `sub_group_local_id` is consecutive(1), the
//!   other subgroup queries are uniform;
//! * atomics, `printf` and calls are varying (calls are inlined before this
//!   runs; we stay conservative). Anything else with a non-uniform operand is
//!   varying, and so is any non-uniform `i1` or float value (consecutive
//!   shapes are for integers of 8 bits or more and pointers).
//!
//! # Divergence through control
//!
//! A `brif` or `switch` is *divergent* when its condition is not uniform.
//! Then, by sync dependence:
//!
//! * at each *join point* of the branch, the block parameters become varying
//!   — unless every incoming edge that lanes of the branch can arrive by
//!   passes the same value (the parameter is then that value in every
//!   lane). This is the classic `x = a; if (divergent) x = b; use(x)` with
//!   uniform `a` and `b`;
//! * each loop it makes *divergent* (lanes may leave it in different
//!   iterations) causes *temporal divergence*: a value defined inside the
//!   loop may differ between the iterations in which lanes leave, so every
//!   use of it *outside* the loop — in an instruction of a block outside the
//!   loop, or as an argument on an edge leaving the loop (which is how block
//!   parameters of the exit blocks receive it) — sees a varying value, even
//!   when the value is uniform inside the loop. The value keeps its own
//!   shape (a loop counter stays uniform among the lanes still in the
//!   loop); [`Uniformity::operand_shape`] gives the shape a use sees, and
//!   [`Uniformity::varying_outside`] names the loop. We do not look for
//!   loop-invariant values left inside a divergent loop: their uses outside
//!   are varying too (conservative; hoisting them out of the loop fixes
//!   that). The exit blocks' parameters are *not* all made varying: one
//!   that only ever receives a value defined before the loop keeps its
//!   shape, unless the exit block is a join point (several exiting edges
//!   passing different values).
//!
//! A divergent exit does not make the branches or header parameters of the
//! loop divergent by itself: the lanes still in the loop agree on them (the
//! lanes that left wait at the exit until the loop is done). A header
//! parameter becomes varying only if the header is a join point (two sides
//! of a divergent branch in the body reach different latches without
//! meeting first, or the header's own divergent branch comes back to it
//! along two paths) or an incoming value is varying; a branch in the loop
//! is divergent only if its condition is — which may follow from a header
//! parameter that is varying for those reasons, making the loop divergent
//! in turn. The fixed point below settles all of it.
//!
//! The analysis is an optimistic fixed point: values start unknown, blocks
//! are visited in RPO until nothing changes; shapes only rise (unknown →
//! uniform or one stride → varying) and divergence flags only turn on.
//! Blocks unreachable from the entry never run; their values are reported
//! varying and their branches uniform.

use std::collections::HashSet;
use std::fmt;

use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::SecondaryMap;
use lockstep_ir::{
    AddrSpace, BinaryOp, Block, Collective, ConvertOp, Function, GangOp, InstData, Type, UnaryOp,
    Value, ValueDef, WorkItemQuery,
};

use super::cfg::ControlFlowGraph;
use super::loops::{Loop, LoopForest};
use super::sync::SyncDependence;

/// The launch parameters the analysis is specialized on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UniformityConfig {
    /// The work-group size in each dimension; 0 where it is not known
    /// (work-groups of a launch whose last group is smaller differ).
    pub local_size: [u32; 3],
    /// The SIMD width W: work-items per gang (0 is treated as 1).
    pub width: u32,
}

impl Default for UniformityConfig {
    /// Local size (16, 1, 1), width 16: one gang per work-group, 1-D.
    fn default() -> UniformityConfig {
        UniformityConfig {
            local_size: [16, 1, 1],
            width: 16,
        }
    }
}

impl fmt::Display for UniformityConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.local_size;
        write!(f, "local_size={x},{y},{z} width={}", self.width)
    }
}

/// How a value varies across the lanes of a gang.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Shape {
    /// The same value in every lane.
    Uniform,
    /// Lane `l` holds `base + l * stride` (for pointers, `stride` is in
    /// bytes). The stride is never 0 (that is `Uniform`).
    Consecutive { stride: i64 },
    /// Anything.
    #[default]
    Varying,
}

impl Shape {
    /// `Consecutive { stride }`, or `Uniform` for stride 0.
    pub fn consecutive(stride: i64) -> Shape {
        if stride == 0 {
            Shape::Uniform
        } else {
            Shape::Consecutive { stride }
        }
    }

    pub fn is_uniform(self) -> bool {
        self == Shape::Uniform
    }

    pub fn is_varying(self) -> bool {
        self == Shape::Varying
    }

    /// The stride: 0 for uniform, `None` for varying.
    pub fn stride(self) -> Option<i64> {
        match self {
            Shape::Uniform => Some(0),
            Shape::Consecutive { stride } => Some(stride),
            Shape::Varying => None,
        }
    }

    /// The least shape that describes a value that is either `self` or
    /// `other` (the same alternative in all lanes).
    pub fn join(self, other: Shape) -> Shape {
        if self == other {
            self
        } else {
            Shape::Varying
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Uniform => f.write_str("uniform"),
            Shape::Consecutive { stride } => write!(f, "consecutive({stride})"),
            Shape::Varying => f.write_str("varying"),
        }
    }
}

/// The shape of `local_id(dim)` (and `global_id(dim)`) under `config`; see
/// the module docs.
pub fn local_id_shape(config: &UniformityConfig, dim: usize) -> Shape {
    // 0: not known, so neither 1 nor a multiple of anything.
    let size = config.local_size.map(u64::from);
    let width = u64::from(config.width.max(1));
    if dim > 2 || size[dim] == 1 {
        return Shape::Uniform;
    }
    let known_below = size[..dim].iter().all(|&s| s != 0);
    let below: u64 = size[..dim].iter().product();
    if known_below && below.is_multiple_of(width) {
        return Shape::Uniform;
    }
    let multiple = size[dim] != 0 && size[dim].is_multiple_of(width);
    if below == 1 && known_below && (multiple || size[dim + 1..].iter().all(|&s| s == 1)) {
        return Shape::consecutive(1);
    }
    Shape::Varying
}

/// The shape of a work-item query's result under `config`.
pub fn work_item_shape(config: &UniformityConfig, query: WorkItemQuery, dim: u8) -> Shape {
    match query {
        WorkItemQuery::LocalId | WorkItemQuery::GlobalId => local_id_shape(config, dim as usize),
        WorkItemQuery::LocalLinearId | WorkItemQuery::SubGroupLocalId => {
            if config.width.max(1) == 1 {
                Shape::Uniform
            } else {
                Shape::consecutive(1)
            }
        }
        WorkItemQuery::GlobalLinearId => {
            if local_id_shape(config, 1).is_uniform() && local_id_shape(config, 2).is_uniform() {
                local_id_shape(config, 0)
            } else {
                Shape::Varying
            }
        }
        WorkItemQuery::GroupId
        | WorkItemQuery::GlobalSize
        | WorkItemQuery::LocalSize
        | WorkItemQuery::EnqueuedLocalSize
        | WorkItemQuery::NumGroups
        | WorkItemQuery::GlobalOffset
        | WorkItemQuery::WorkDim
        | WorkItemQuery::SubGroupSize
        | WorkItemQuery::MaxSubGroupSize
        | WorkItemQuery::NumSubGroups
        | WorkItemQuery::EnqueuedNumSubGroups
        | WorkItemQuery::SubGroupId => Shape::Uniform,
    }
}

/// The shape of a subgroup collective's result (the analysis is for a
/// gang, which is a subgroup): the same in every lane that takes part,
/// except for scans and clustered reductions, a broadcast from a lane
/// that differs between lanes, and a shuffle of a value that differs.
fn sub_group_shape(
    op: GangOp,
    args: &[Value],
    get: impl Fn(Value) -> Option<Shape>,
) -> Option<Shape> {
    Some(match op {
        GangOp::Broadcast => {
            if get(args[0])?.is_uniform() || get(args[1])?.is_uniform() {
                Shape::Uniform
            } else {
                Shape::Varying
            }
        }
        GangOp::Shuffle => {
            if get(args[0])?.is_uniform() {
                Shape::Uniform
            } else {
                Shape::Varying
            }
        }
        _ if op
            .collective()
            .is_some_and(|(k, _)| k != Collective::Reduce)
            || args.len() > 1 =>
        {
            Shape::Varying
        }
        _ => Shape::Uniform,
    })
}

/// Shapes of all values and divergence of all branches of one function.
#[derive(Clone, Debug)]
pub struct Uniformity {
    config: UniformityConfig,
    cfg: ControlFlowGraph,
    loops: LoopForest,
    shapes: SecondaryMap<Value, Shape>,
    def_block: SecondaryMap<Value, PackedOption<Block>>,
    divergent: SecondaryMap<Block, bool>,
    joins: SecondaryMap<Block, Vec<Block>>,
    joined_branches: SecondaryMap<Block, Vec<Block>>,
    divergent_loops: SecondaryMap<Loop, bool>,
    varying_outside: SecondaryMap<Value, PackedOption<Loop>>,
    /// Values defined by `undef`: any shape will do, so joins skip them.
    undef: SecondaryMap<Value, bool>,
    /// Lane refill: the lanes of a gang are not in step (each holds its
    /// own work-item, taken when its last one finished).
    out_of_step: bool,
}

/// Where an operand is used: in an instruction of a block, or as a branch
/// argument on an edge.
#[derive(Copy, Clone)]
enum UseAt {
    Block(Block),
    Edge(Block, Block),
}

impl Uniformity {
    /// Computes the CFG and loop forest, then the analysis.
    pub fn for_function(func: &Function, config: &UniformityConfig) -> Uniformity {
        let cfg = ControlFlowGraph::compute(func);
        let loops = LoopForest::compute(&cfg);
        Uniformity::compute(func, &cfg, &loops, config)
    }

    pub fn compute(
        func: &Function,
        cfg: &ControlFlowGraph,
        loops: &LoopForest,
        config: &UniformityConfig,
    ) -> Uniformity {
        let mut u = Uniformity {
            config: *config,
            cfg: cfg.clone(),
            loops: loops.clone(),
            shapes: SecondaryMap::new(),
            def_block: SecondaryMap::new(),
            divergent: SecondaryMap::new(),
            joins: SecondaryMap::new(),
            joined_branches: SecondaryMap::new(),
            divergent_loops: SecondaryMap::new(),
            varying_outside: SecondaryMap::new(),
            undef: SecondaryMap::new(),
            out_of_step: func.refill,
        };
        for (v, data) in func.values.iter() {
            if let ValueDef::Result(i) = data.def {
                u.undef[v] = matches!(func.insts[i], InstData::Undef);
            }
            u.def_block[v] = match data.def {
                ValueDef::Param(b, _) => b.into(),
                ValueDef::Result(i) => func.inst_block[i].into(),
                ValueDef::Unused => None.into(),
            };
        }
        u.solve(func);
        u.find_temporal_uses(func);
        u
    }

    fn solve(&mut self, func: &Function) {
        let sync = SyncDependence::new(func, &self.cfg, &self.loops);
        // None: not known yet (the optimistic start).
        let mut known: SecondaryMap<Value, Option<Shape>> = SecondaryMap::new();
        // (join point, predecessor) for each predecessor lanes of the join
        // point's divergent branches arrive from.
        let mut join_preds: HashSet<(Block, Block)> = HashSet::new();
        let entry = self.cfg.entry();
        let rpo = self.cfg.rpo().to_vec();
        // Incoming (pred, args) of every reachable block, from reachable preds.
        let mut incoming: SecondaryMap<Block, Vec<(Block, Vec<Value>)>> = SecondaryMap::new();
        let mut undef_settled = false;
        for &b in &rpo {
            if let Some(t) = func.terminator(b) {
                for dest in func.insts[t].branch_dests() {
                    incoming[dest.block].push((b, dest.args.clone()));
                }
            }
        }
        loop {
            let mut changed = false;
            for &b in &rpo {
                for (i, &p) in func.blocks[b].params.iter().enumerate() {
                    let new = if Some(b) == entry {
                        Some(if func.is_kernel() {
                            Shape::Uniform
                        } else {
                            Shape::Varying
                        })
                    } else {
                        self.param_shape(&known, &incoming[b], &join_preds, b, i, undef_settled)
                    };
                    if new.is_some() && known[p] != new {
                        known[p] = new;
                        changed = true;
                    }
                }
                for &inst in &func.blocks[b].insts {
                    let data = &func.insts[inst];
                    if let Some(r) = func.results[inst] {
                        let new = self.inst_shape(func, &known, data, func.value_type(r), b);
                        if new.is_some() && known[r] != new {
                            known[r] = new;
                            changed = true;
                        }
                    }
                    let cond = match data {
                        InstData::Brif { cond, .. } => Some(*cond),
                        InstData::Switch { arg, .. } => Some(*arg),
                        _ => None,
                    };
                    if let Some(c) = cond {
                        let diverges = matches!(
                            self.use_shape(&known, c, UseAt::Block(b)),
                            Some(s) if !s.is_uniform()
                        );
                        if diverges && !self.divergent[b] {
                            self.divergent[b] = true;
                            changed = true;
                            let joins = sync.joins(b);
                            for (&j, preds) in joins.blocks.iter().zip(&joins.preds) {
                                self.joined_branches[j].push(b);
                                join_preds.extend(preds.iter().map(|&p| (j, p)));
                            }
                            for lp in sync.divergent_loops(b, &joins.blocks) {
                                self.divergent_loops[lp] = true;
                            }
                            self.joins[b] = joins.blocks;
                        }
                    }
                }
            }
            if !changed {
                if undef_settled {
                    break;
                }
                // What only undefined values reach is uniform: from here
                // on (see `param_shape`).
                undef_settled = true;
            }
        }
        for (v, _) in func.values.iter() {
            self.shapes[v] = known[v].unwrap_or(Shape::Varying);
        }
        for b in self.cfg.blocks().to_vec() {
            self.joined_branches[b].sort_by_key(|&x| self.cfg.rpo_number(x));
        }
    }

    /// The innermost divergent loop containing the definition of `v`.
    fn innermost_divergent_loop(&self, v: Value) -> Option<Loop> {
        let def = self.def_block[v].expand()?;
        let mut cur = self.loops.innermost_loop(def);
        while let Some(l) = cur {
            if self.divergent_loops[l] {
                return Some(l);
            }
            cur = self.loops.parent(l);
        }
        None
    }

    /// The divergent loop whose exit `v` crosses to reach a use at `at`.
    fn crossed_loop(&self, v: Value, at: UseAt) -> Option<Loop> {
        let lp = self.innermost_divergent_loop(v)?;
        let inside = match at {
            UseAt::Block(b) => self.loops.contains(lp, b),
            UseAt::Edge(from, to) => self.loops.contains(lp, from) && self.loops.contains(lp, to),
        };
        (!inside).then_some(lp)
    }

    fn use_shape(
        &self,
        known: &SecondaryMap<Value, Option<Shape>>,
        v: Value,
        at: UseAt,
    ) -> Option<Shape> {
        let s = known[v]?;
        if self.crossed_loop(v, at).is_some() {
            Some(Shape::Varying)
        } else {
            Some(s)
        }
    }

    fn param_shape(
        &self,
        known: &SecondaryMap<Value, Option<Shape>>,
        incoming: &[(Block, Vec<Value>)],
        join_preds: &HashSet<(Block, Block)>,
        block: Block,
        index: usize,
        undef_settled: bool,
    ) -> Option<Shape> {
        let mut result: Option<Shape> = None;
        let mut undefined = false;
        for (pred, args) in incoming {
            if self.undef[args[index]] {
                undefined = true;
                continue;
            }
            if let Some(s) = self.use_shape(known, args[index], UseAt::Edge(*pred, block)) {
                result = Some(result.map_or(s, |r| r.join(s)));
            }
        }
        // An undefined value takes whatever shape the other edges give (it
        // may be any value, theirs too): until they say nothing more, it
        // leaves the parameter unknown. Taking it as uniform at once would
        // make `undef` joined with a consecutive value varying for good (a
        // loop's induction variable whose first value is undefined on one
        // path, as linearizing an outer loop leaves it). Parameters only
        // undefined values reach are uniform, once everything else settled.
        if result.is_none() && undefined && undef_settled {
            result = Some(Shape::Uniform);
        }
        // With lane refill, lanes run out of step: lanes may arrive over
        // different edges at once, in different iterations of a loop, so a
        // parameter that receives more than one value is varying.
        if self.out_of_step {
            let mut values = incoming
                .iter()
                .map(|(_, args)| args[index])
                .filter(|&a| !self.undef[a]);
            if let Some(first) = values.next() {
                if values.any(|a| a != first) && result.is_some() {
                    return Some(Shape::Varying);
                }
            }
        }
        // At a join point, lanes of a divergent branch arrive together over
        // the edges from `join_preds`: unless those all pass the same value,
        // the lanes disagree.
        let mut from_branch = incoming
            .iter()
            .filter(|(pred, _)| join_preds.contains(&(block, *pred)))
            .map(|(_, args)| args[index]);
        let first = from_branch.next();
        let all_same = from_branch.all(|v| Some(v) == first);
        if !all_same && result.is_some() {
            return Some(Shape::Varying);
        }
        result
    }

    fn inst_shape(
        &self,
        func: &Function,
        known: &SecondaryMap<Value, Option<Shape>>,
        data: &InstData,
        ty: Type,
        block: Block,
    ) -> Option<Shape> {
        let get = |v: Value| self.use_shape(known, v, UseAt::Block(block));
        let all_uniform = |vs: &[Value]| -> Option<Shape> {
            let mut out = Shape::Uniform;
            for &v in vs {
                if !get(v)?.is_uniform() {
                    out = Shape::Varying;
                }
            }
            Some(out)
        };
        let shape = match data {
            InstData::Undef => Shape::Uniform,
            InstData::Predicated { inst, .. } => {
                return self.inst_shape(func, known, inst, ty, block);
            }
            InstData::Gang { op, args } => match op {
                GangOp::LaneId => Shape::consecutive(1),
                _ if op.gives_per_lane(args.len()) => Shape::Varying,
                _ => Shape::Uniform,
            },
            InstData::SubGroup { op, args } => sub_group_shape(*op, args, get)?,
            InstData::Iconst { .. } | InstData::Fconst { .. } | InstData::GlobalAddr { .. } => {
                Shape::Uniform
            }
            InstData::StackAddr { .. } | InstData::NextItem => Shape::Varying,
            // The event passed in.
            InstData::AsyncCopied { args, .. } => get(args[5])?,
            InstData::WorkItem { query, dim } => work_item_shape(&self.config, *query, *dim),
            InstData::Unary { op, arg } => match (op, get(*arg)?) {
                (_, Shape::Uniform) => Shape::Uniform,
                (UnaryOp::Freeze, shape) => shape,
                (UnaryOp::Ineg | UnaryOp::Bnot, Shape::Consecutive { stride }) => stride
                    .checked_neg()
                    .map_or(Shape::Varying, Shape::consecutive),
                _ => Shape::Varying,
            },
            InstData::Binary { op, args: [a, b] } => {
                let (sa, sb) = (get(*a)?, get(*b)?);
                match op {
                    BinaryOp::Iadd => add(sa, sb, false),
                    BinaryOp::Isub => add(sa, sb, true),
                    BinaryOp::Imul => match (sa, sb) {
                        (Shape::Uniform, Shape::Uniform) => Shape::Uniform,
                        (Shape::Consecutive { stride }, Shape::Uniform) => {
                            scale(stride, int_constant(func, *b))
                        }
                        (Shape::Uniform, Shape::Consecutive { stride }) => {
                            scale(stride, int_constant(func, *a))
                        }
                        _ => Shape::Varying,
                    },
                    // `x & (2^k - 1)` with k >= 32 is how LLVM writes
                    // `zext(trunc x)`: a consecutive index keeps its shape
                    // (the same no-wrap assumption as for `zext`).
                    BinaryOp::Band => match (sa, sb) {
                        (Shape::Uniform, Shape::Uniform) => Shape::Uniform,
                        (Shape::Consecutive { stride }, Shape::Uniform)
                            if low_mask_bits(int_constant(func, *b)) >= 32 =>
                        {
                            Shape::Consecutive { stride }
                        }
                        (Shape::Uniform, Shape::Consecutive { stride })
                            if low_mask_bits(int_constant(func, *a)) >= 32 =>
                        {
                            Shape::Consecutive { stride }
                        }
                        _ => Shape::Varying,
                    },
                    BinaryOp::Ishl => match (sa, sb) {
                        (Shape::Uniform, Shape::Uniform) => Shape::Uniform,
                        (Shape::Consecutive { stride }, Shape::Uniform) => {
                            let k = int_constant(func, *b)
                                .filter(|&k| (0..i64::from(ty.bits())).contains(&k) && k < 63);
                            scale(stride, k.map(|k| 1i64 << k))
                        }
                        _ => Shape::Varying,
                    },
                    // `(x << 32) >> 32` is how LLVM writes `sext(trunc x)`
                    // (`int i = get_global_id(0)`): a shift right by k of a
                    // stride that 2^k divides keeps the shape, under the same
                    // no-wrap assumption as for `sext`.
                    BinaryOp::Sshr | BinaryOp::Ushr => match (sa, sb) {
                        (Shape::Uniform, Shape::Uniform) => Shape::Uniform,
                        (Shape::Consecutive { stride }, Shape::Uniform) => {
                            let k = int_constant(func, *b)
                                .filter(|&k| (0..i64::from(ty.bits())).contains(&k) && k < 63);
                            match k {
                                Some(k) if stride % (1i64 << k) == 0 => {
                                    Shape::consecutive(stride / (1i64 << k))
                                }
                                _ => Shape::Varying,
                            }
                        }
                        _ => Shape::Varying,
                    },
                    _ => all_uniform(&[*a, *b])?,
                }
            }
            InstData::PtrAdd { args: [p, off] } => add(get(*p)?, get(*off)?, false),
            InstData::Ternary { args, .. } => all_uniform(args)?,
            InstData::Icmp { args, .. } | InstData::Fcmp { args, .. } => all_uniform(args)?,
            // Where one side is undefined, the other will do.
            InstData::Select { args: [_, a, b] } if self.undef[*a] => get(*b)?,
            InstData::Select { args: [_, a, b] } if self.undef[*b] => get(*a)?,
            InstData::Select { args: [c, a, b] } => {
                let (sc, sa, sb) = (get(*c)?, get(*a)?, get(*b)?);
                if a == b {
                    sa
                } else if sc.is_uniform() {
                    sa.join(sb)
                } else {
                    Shape::Varying
                }
            }
            InstData::Convert { op, arg, .. } => {
                let s = get(*arg)?;
                let from = func.value_type(*arg);
                let int_like = |t: Type| t.is_int() || t.is_ptr();
                match (op, s) {
                    (_, Shape::Uniform) => Shape::Uniform,
                    (ConvertOp::Zext | ConvertOp::Sext, _) => {
                        if matches!(from, Type::I32 | Type::I64) {
                            s
                        } else {
                            Shape::Varying
                        }
                    }
                    (
                        ConvertOp::Trunc
                        | ConvertOp::PtrToInt
                        | ConvertOp::IntToPtr
                        | ConvertOp::AddrSpaceCast
                        | ConvertOp::Bitcast,
                        _,
                    ) if int_like(from) && int_like(ty) => s,
                    _ => Shape::Varying,
                }
            }
            InstData::Load { ptr, volatile, .. } => {
                let space = func.value_type(*ptr).addr_space();
                let shared = matches!(
                    space,
                    Some(AddrSpace::Global | AddrSpace::Constant | AddrSpace::Local)
                );
                if get(*ptr)?.is_uniform() && shared && !volatile {
                    Shape::Uniform
                } else {
                    Shape::Varying
                }
            }
            InstData::AtomicRmw { .. }
            | InstData::AtomicCas { .. }
            | InstData::AtomicLoad { .. }
            | InstData::Printf { .. }
            | InstData::DeviceEnqueue { .. }
            | InstData::Call { .. } => Shape::Varying,
            // No results.
            InstData::Store { .. }
            | InstData::MemCopy { .. }
            | InstData::MemSet { .. }
            | InstData::AtomicStore { .. }
            | InstData::Fence { .. }
            | InstData::Barrier { .. }
            | InstData::AsyncWait { .. }
            | InstData::Jump { .. }
            | InstData::Suspend { .. }
            | InstData::Brif { .. }
            | InstData::Switch { .. }
            | InstData::Return { .. }
            | InstData::Unreachable => Shape::Varying,
        };
        Some(fit(shape, ty))
    }

    /// Records, for every value with a use outside a divergent loop it is
    /// defined in, that loop.
    fn find_temporal_uses(&mut self, func: &Function) {
        let mut found: Vec<(Value, Loop)> = Vec::new();
        for &b in self.cfg.rpo() {
            for &inst in &func.blocks[b].insts {
                let data = &func.insts[inst];
                let mut note = |v: Value, at: UseAt| {
                    if let Some(lp) = self.crossed_loop(v, at) {
                        found.push((v, lp));
                    }
                };
                match data {
                    InstData::Jump { .. }
                    | InstData::Suspend { .. }
                    | InstData::Brif { .. }
                    | InstData::Switch { .. } => {
                        match data {
                            InstData::Brif { cond, .. } => note(*cond, UseAt::Block(b)),
                            InstData::Switch { arg, .. } => note(*arg, UseAt::Block(b)),
                            _ => {}
                        }
                        for dest in data.branch_dests() {
                            for &a in &dest.args {
                                note(a, UseAt::Edge(b, dest.block));
                            }
                        }
                    }
                    _ => data.visit_args(|v| note(v, UseAt::Block(b))),
                }
            }
        }
        for (v, lp) in found {
            self.varying_outside[v] = lp.into();
        }
    }

    pub fn config(&self) -> &UniformityConfig {
        &self.config
    }

    /// The CFG the analysis ran on.
    pub fn cfg(&self) -> &ControlFlowGraph {
        &self.cfg
    }

    /// The loop forest the analysis ran on (its `Loop` ids are the ones
    /// [`Uniformity::is_divergent_loop`] takes).
    pub fn loops(&self) -> &LoopForest {
        &self.loops
    }

    /// The shape of `v` where it is defined (and at every use inside the
    /// loops it is defined in).
    pub fn shape(&self, v: Value) -> Shape {
        self.shapes[v]
    }

    /// True if `v` is defined by `undef` (whose shape joins and selects
    /// ignore: code generation must give such a select its other side).
    pub fn is_undef(&self, v: Value) -> bool {
        self.undef[v]
    }

    pub fn is_uniform(&self, v: Value) -> bool {
        self.shapes[v].is_uniform()
    }

    /// The shape an instruction in `block` sees when it uses `v`: varying if
    /// `v` comes out of a divergent loop that `block` is outside of.
    pub fn operand_shape(&self, v: Value, block: Block) -> Shape {
        if self.crossed_loop(v, UseAt::Block(block)).is_some() {
            Shape::Varying
        } else {
            self.shapes[v]
        }
    }

    /// The shape of `v` passed as a branch argument on the edge `from → to`.
    pub fn edge_operand_shape(&self, v: Value, from: Block, to: Block) -> Shape {
        if self.crossed_loop(v, UseAt::Edge(from, to)).is_some() {
            Shape::Varying
        } else {
            self.shapes[v]
        }
    }

    /// If `v` is used outside a divergent loop it is defined in, that loop
    /// (the innermost divergent one): those uses see a varying value.
    pub fn varying_outside(&self, v: Value) -> Option<Loop> {
        self.varying_outside[v].expand()
    }

    /// True if the terminator of `block` is a divergent `brif` or `switch`.
    pub fn is_divergent(&self, block: Block) -> bool {
        self.divergent[block]
    }

    /// The join points of the divergent branch ending `block` (empty if it
    /// is uniform), in RPO.
    pub fn join_points(&self, block: Block) -> &[Block] {
        &self.joins[block]
    }

    /// The blocks ending in divergent branches that `block` is a join point
    /// of, in RPO.
    pub fn joined_branches(&self, block: Block) -> &[Block] {
        &self.joined_branches[block]
    }

    /// True if `block` is a join point of some divergent branch.
    pub fn is_join(&self, block: Block) -> bool {
        !self.joined_branches[block].is_empty()
    }

    /// True if lanes may leave `lp` in different iterations (or stand at
    /// different entries of an irreducible `lp`).
    pub fn is_divergent_loop(&self, lp: Loop) -> bool {
        self.divergent_loops[lp]
    }

    pub fn is_reachable(&self, block: Block) -> bool {
        self.cfg.is_reachable(block)
    }
}

/// `a + b` (or `a - b`) of two shapes.
fn add(a: Shape, b: Shape, subtract: bool) -> Shape {
    match (a.stride(), b.stride()) {
        (Some(x), Some(y)) => {
            let s = if subtract {
                x.checked_sub(y)
            } else {
                x.checked_add(y)
            };
            s.map_or(Shape::Varying, Shape::consecutive)
        }
        _ => Shape::Varying,
    }
}

/// A consecutive `stride` times the constant `k`, if `k` is known.
fn scale(stride: i64, k: Option<i64>) -> Shape {
    k.and_then(|k| stride.checked_mul(k))
        .map_or(Shape::Varying, Shape::consecutive)
}

/// The value of an integer constant, sign-extended from its type.
fn int_constant(func: &Function, v: Value) -> Option<i64> {
    let ValueDef::Result(inst) = func.values[v].def else {
        return None;
    };
    let InstData::Iconst { imm } = func.insts[inst] else {
        return None;
    };
    let bits = func.value_type(v).bits();
    if bits == 0 || bits > 64 {
        return None;
    }
    let shift = 64 - bits;
    Some(((imm << shift) as i64) >> shift)
}

/// Consecutive shapes only for integers of 8 bits or more and pointers.
fn fit(shape: Shape, ty: Type) -> Shape {
    match shape {
        Shape::Consecutive { .. } if ty == Type::I1 || ty.is_float() => Shape::Varying,
        s => s,
    }
}

/// `k` if `mask` is the constant `2^k - 1` (k ≥ 1), else 0.
fn low_mask_bits(mask: Option<i64>) -> u32 {
    match mask {
        Some(m) if m != 0 && (m as u64).wrapping_add(1) & (m as u64) == 0 => {
            (m as u64).count_ones()
        }
        _ => 0,
    }
}
