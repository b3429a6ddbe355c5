//! `linearize`: divergent control flow becomes masks; the kernel becomes
//! gang-level IR (`gang W`, phase `linearized`) that runs W work-items per
//! gang, one per lane, with every branch uniform.
//!
//! Needs the uniformity analysis for the specialization (width, local
//! size) and a function in the `split` phase (one `return`, switches only on
//! uniform values, suspend points instead of barriers). Values take the
//! analysis's shapes: uniform ones stay scalar (`T`), the others become
//! per-lane (`<T>`).
//!
//! **Without a divergent branch** the CFG stays as it is: every lane that
//! holds a work-item runs every block, so only the side effects of per-lane
//! values (memory accesses, atomics, `printf`) are predicated, on
//! `active_lanes`.
//!
//! **With one** (per-block masks, the scheme the code generator used): the
//! blocks run in a loop-contiguous topological order, each behind a *guard*
//! that tests its mask, the lanes waiting for it (`any`); its body runs with
//! its side effects predicated on that mask, then *routes* its lanes: they
//! leave the block's mask and join its successors' (`band` with the branch
//! condition), and the successors' parameters take the branch arguments in
//! those lanes (`select`). After a loop's last block, the gang goes back to
//! the loop's first block while lanes wait at its entries (any of its
//! blocks, for an irreducible loop). Each lane keeps the value of a
//! variable from its own last definition where that matters: a value
//! defined in a divergent loop and used outside it is blended into a
//! per-lane copy (`select` on the defining block's mask) at its definition.
//! A small block of plain arithmetic in a (reducible) loop has no guard: it
//! runs whether or not a lane waits for it, which costs less than the test
//! and keeps the loop body in one piece for LLVM. A loop entered only at
//! its first block is skipped as a whole by that block's guard, and its
//! back edge, taken only while lanes wait there, goes past the guard. The
//! first edge into a join whose edges all come from earlier blocks (after
//! an `if` or a `switch`) gives the join's parameters its arguments in
//! every lane; the later edges blend theirs in.
//!
//! **Block-IP** ([`Scheme::BlockIp`], Beignet's scheme, the form lane
//! refill builds on): each lane holds the position, in the same order, of
//! the block it waits for (its *instruction pointer*; one past the last
//! block once it returned). A block runs with the lanes whose pointer
//! names it, routes them by setting their pointers to its successors, and
//! the gang goes on to the first block any lane waits for (`reduce_umin`
//! of the pointers, then a `switch`: the block's successors, the next
//! block and the end first, every block in one shared dispatch block
//! otherwise). Lanes of a loop with a divergent branch may be in different
//! iterations at once, so a per-lane value defined in such a loop is kept
//! per lane (blended at its definition) for every use in another block.
//!
//! A suspend point stops the whole gang, which OpenCL requires to arrive
//! with every work-item (all work-items of a group reach each barrier): it
//! names its mask as the lanes `arriving` (the code generator stops a gang
//! where some active lane is missing, with a barrier-divergence error) and
//! passes its arguments to a new resume block, where the gang restarts
//! with all its active lanes.
//!
//! Masks, block parameters and values crossing blocks are variables, put
//! into SSA form as the blocks are filled (Braun et al., "Simple and
//! Efficient Construction of Static Single Assignment Form", CC 2013);
//! parameters that receive only one value are removed afterwards. A
//! variable read where it was never set (the path that skips its defining
//! block because no lane needed it) is `undef`, so the uniformity analysis
//! keeps the shape the value has where it is used (a consecutive address
//! stays consecutive).

use std::collections::HashMap;

use cranelift_entity::SecondaryMap;
use lockstep_ir::{
    BinaryOp, Block, BlockCall, ConvertOp, Function, GangOp, Inst, InstData, IntCC, Phase, Type,
    UnaryOp, Value, ValueDef,
};

use crate::analysis::{loop_contiguous_order, DominatorTree, Loop, Uniformity};

/// How divergent control flow becomes masks.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// A mask per block; blocks in a fixed order, loops repeated while
    /// lanes wait at their entries.
    #[default]
    Masks,
    /// A block pointer per lane; the gang runs the first block any lane
    /// waits for.
    BlockIp,
}

impl Scheme {
    pub const ALL: [Scheme; 2] = [Scheme::Masks, Scheme::BlockIp];

    /// The name `--linearize` takes.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Masks => "masks",
            Scheme::BlockIp => "block-ip",
        }
    }
}

impl std::fmt::Display for Scheme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Scheme {
    type Err = String;
    fn from_str(s: &str) -> Result<Scheme, String> {
        Scheme::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| format!("unknown linearization '{s}' (expected masks or block-ip)"))
    }
}

/// Rewrites `func` (phase `split`) as gang-level IR for the width and
/// local size `uni` was computed for, divergent control flow by `scheme`.
pub fn linearize(func: &mut Function, uni: &Uniformity, scheme: Scheme) {
    let divergent = func.layout.iter().any(|&b| uni.is_divergent(b));
    let mut out = if divergent {
        Linearizer::new(func, uni, scheme).run()
    } else {
        uniform_gang(func, uni)
    };
    out.phase = Phase::Linearized;
    out.gang = Some(uni.config().width);
    out.refill = func.refill;
    *func = out;
}

/// The most instructions (besides its terminator) a block in a loop may
/// have to run without a guard (see `Linearizer::runs_unguarded`).
const UNGUARDED_MAX_INSTS: usize = 8;

fn is_integer_division(op: BinaryOp) -> bool {
    matches!(
        op,
        BinaryOp::Udiv | BinaryOp::Sdiv | BinaryOp::Urem | BinaryOp::Srem
    )
}

/// True if `data` is arithmetic that costs a few cycles at most, cannot
/// trap and touches no memory: what a block may hold to run unguarded
/// (integer divisions never trap in the IR, but may be costly).
fn is_plain_arithmetic(data: &InstData) -> bool {
    match data {
        InstData::Iconst { .. }
        | InstData::Fconst { .. }
        | InstData::Undef
        | InstData::Icmp { .. }
        | InstData::Fcmp { .. }
        | InstData::Select { .. }
        | InstData::PtrAdd { .. }
        | InstData::Ternary { .. }
        | InstData::WorkItem { .. } => true,
        InstData::Convert { op, .. } => !matches!(op, ConvertOp::IntToPtr),
        InstData::Unary { op, .. } => matches!(
            op,
            UnaryOp::Ineg
                | UnaryOp::Bnot
                | UnaryOp::Iabs
                | UnaryOp::Fneg
                | UnaryOp::Fabs
                | UnaryOp::Popcount
                | UnaryOp::Clz
                | UnaryOp::Ctz
        ),
        InstData::Binary { op, .. } => {
            !is_integer_division(*op)
                && !matches!(
                    op,
                    BinaryOp::Fdiv
                        | BinaryOp::Frem
                        | BinaryOp::Pow
                        | BinaryOp::Atan2
                        | BinaryOp::Hypot
                        | BinaryOp::Remainder
                )
        }
        _ => false,
    }
}

/// True if `data` acts on memory (or prints) in each lane separately.
fn is_effect(data: &InstData) -> bool {
    matches!(
        data,
        InstData::Load { .. }
            | InstData::Store { .. }
            | InstData::MemCopy { .. }
            | InstData::MemSet { .. }
            | InstData::AtomicRmw { .. }
            | InstData::AtomicCas { .. }
            | InstData::AtomicLoad { .. }
            | InstData::AtomicStore { .. }
            | InstData::Printf { .. }
            | InstData::DeviceEnqueue { .. }
            | InstData::NextItem
    )
}

/// True if the instruction `data` needs a mask: a side effect that acts
/// per lane (its operands or result per-lane, or an atomic or `printf`).
/// A side effect of uniform operands acts once, or identically in every
/// lane, wherever its block runs.
fn needs_mask(data: &InstData, per_lane: bool) -> bool {
    is_effect(data) && (per_lane || data.acts_per_lane())
}

/// True if `v` of the source function is per-lane in gang-level IR: the
/// analysis says it varies, or an atomic or `printf` gives it.
fn varying_in_source(func: &Function, uni: &Uniformity, v: Value) -> bool {
    if !uni.shape(v).is_uniform() {
        return true;
    }
    match func.values[v].def {
        ValueDef::Result(inst) => func.insts[inst].acts_per_lane(),
        _ => false,
    }
}

/// Marks per-lane values and predicates per-lane side effects on
/// `active_lanes`: the whole linearization of a kernel whose branches are
/// all uniform.
fn uniform_gang(func: &Function, uni: &Uniformity) -> Function {
    let mut out = func.clone();
    for (v, _) in func.values.iter() {
        out.varying[v] = varying_in_source(func, uni, v);
    }
    // An operation on a per-lane operand gives a per-lane result, even
    // where the analysis finds that the lanes agree (`gid - lid`), and a
    // block parameter receiving a per-lane argument is per-lane.
    loop {
        let mut changed = false;
        for (_, inst) in func.insts_in_layout() {
            let data = &func.insts[inst];
            let mut per_lane = Vec::new();
            if let Some(r) = func.results[inst] {
                let collective = matches!(data, InstData::SubGroup { .. });
                if !collective && data.args().into_iter().any(|a| out.varying[a]) {
                    per_lane.push(r);
                }
            }
            for dest in data.branch_dests() {
                let params = &func.blocks[dest.block].params;
                for (&a, &p) in dest.args.iter().zip(params) {
                    if out.varying[a] {
                        per_lane.push(p);
                    }
                }
            }
            for v in per_lane {
                changed |= !out.varying[v];
                out.varying[v] = true;
            }
        }
        if !changed {
            break;
        }
    }
    for &block in &func.layout {
        let mut active = None;
        let insts = out.blocks[block].insts.clone();
        for inst in insts {
            let data = &out.insts[inst];
            let per_lane = data.args().into_iter().any(|a| out.varying[a])
                || out.results[inst].is_some_and(|r| out.varying[r]);
            let sub_group = matches!(data, InstData::SubGroup { .. });
            if !needs_mask(data, per_lane) && !sub_group {
                continue;
            }
            // New instructions go right before `inst`.
            let emit = |out: &mut Function, data: InstData, ty: Type| {
                let varying = data.args().into_iter().any(|a| out.varying[a])
                    || matches!(
                        data,
                        InstData::Gang {
                            op: GangOp::ActiveLanes,
                            ..
                        }
                    );
                let i = out.create_inst(data, Some(ty));
                let at = out.blocks[block]
                    .insts
                    .iter()
                    .position(|&x| x == inst)
                    .expect("inst is in its block");
                out.insert_inst(block, at, i);
                out.srclocs[i] = out.srclocs[inst];
                let v = out.results[i].expect("has a result");
                out.varying[v] = varying;
                v
            };
            let mask = match active {
                Some(m) => m,
                None => {
                    let data = InstData::Gang {
                        op: GangOp::ActiveLanes,
                        args: vec![],
                    };
                    *active.insert(emit(&mut out, data, Type::I1))
                }
            };
            let data = std::mem::replace(&mut out.insts[inst], InstData::Unreachable);
            out.insts[inst] = match data {
                InstData::SubGroup { op, args } => {
                    let per_lane = out.results[inst].is_some_and(|r| out.varying[r]);
                    let mut add = |data: InstData, ty: Type| emit(&mut out, data, ty);
                    lower_sub_group(op, &args, per_lane, mask, &mut add)
                }
                data => InstData::Predicated {
                    mask,
                    inst: Box::new(data),
                },
            };
        }
    }
    out
}

/// The gang operation the subgroup collective `sub_group op args` becomes
/// for the lanes of `mask` (the work-items that take part): a mask operand
/// of `mask` and the operation's own predicate; a `broadcast` or `shuffle`
/// as the shape of its result says (`per_lane`: a `broadcast` from a lane
/// that differs between lanes is a `shuffle`, a `shuffle` of a value the
/// same in every lane a `broadcast`). `add` adds an instruction before it
/// and gives its result.
fn lower_sub_group(
    op: GangOp,
    args: &[Value],
    per_lane: bool,
    mask: Value,
    add: &mut dyn FnMut(InstData, Type) -> Value,
) -> InstData {
    let gang = |op: GangOp, args: Vec<Value>| InstData::Gang { op, args };
    match op {
        GangOp::Any | GangOp::Ballot => {
            let m = add(
                InstData::Binary {
                    op: BinaryOp::Band,
                    args: [args[0], mask],
                },
                Type::I1,
            );
            gang(op, vec![m])
        }
        GangOp::All => {
            let outside = add(
                InstData::Unary {
                    op: UnaryOp::Bnot,
                    arg: mask,
                },
                Type::I1,
            );
            let m = add(
                InstData::Binary {
                    op: BinaryOp::Bor,
                    args: [args[0], outside],
                },
                Type::I1,
            );
            gang(op, vec![m])
        }
        GangOp::Broadcast | GangOp::Shuffle if per_lane => gang(GangOp::Shuffle, args.to_vec()),
        GangOp::Shuffle => {
            let lane = add(InstData::Iconst { imm: 0 }, Type::I32);
            gang(GangOp::Broadcast, vec![args[0], lane])
        }
        GangOp::Broadcast => gang(op, args.to_vec()),
        _ => {
            let mut gang_args = vec![args[0], mask];
            gang_args.extend_from_slice(&args[1..]);
            gang(op, gang_args)
        }
    }
}

/// The most instructions a value may take to compute again.
const MAX_REMATERIALIZE: usize = 8;

/// True if `v` gives the same value wherever it runs and costs a few
/// instructions: a cheap pure computation (`split_barriers`' rule) on
/// constants, work-item queries, addresses and the function's parameters,
/// such as `(int)get_local_id(0)` or `a + 4 * get_global_id(0)`. Used in
/// another block, it is computed there again rather than carried through
/// the linearized blocks (where a resume would leave it unset and a routing
/// select could hide its shape).
fn rematerializable(func: &Function, v: Value) -> bool {
    fn cost(func: &Function, v: Value, budget: usize) -> Option<usize> {
        let ValueDef::Result(inst) = func.values[v].def else {
            return is_function_param(func, v).then_some(0);
        };
        let data = &func.insts[inst];
        if budget == 0 || !crate::transform::split_barriers::is_cheap_and_pure(data) {
            return None;
        }
        let mut used = 1;
        for a in data.args() {
            used += cost(func, a, budget - used)?;
            if used > budget {
                return None;
            }
        }
        Some(used)
    }
    matches!(func.values[v].def, ValueDef::Result(_)) && cost(func, v, MAX_REMATERIALIZE).is_some()
}

/// True if `v` is a parameter of the function (of its entry block).
fn is_function_param(func: &Function, v: Value) -> bool {
    func.params().contains(&v)
}

/// Removes the pure instructions whose results nothing uses (the empty
/// masks a block leaves behind when no edge leads back to it, say).
fn remove_dead_values(func: &mut Function) {
    loop {
        let mut used: SecondaryMap<Value, bool> = SecondaryMap::new();
        for (_, inst) in func.insts_in_layout() {
            func.insts[inst].visit_args(|a| used[a] = true);
        }
        let dead: Vec<Inst> = func
            .insts_in_layout()
            .map(|(_, inst)| inst)
            .filter(|&inst| {
                func.results[inst].is_some_and(|r| !used[r])
                    && matches!(
                        func.insts[inst],
                        InstData::Iconst { .. }
                            | InstData::Fconst { .. }
                            | InstData::Unary { .. }
                            | InstData::Binary { .. }
                            | InstData::Icmp { .. }
                            | InstData::Select { .. }
                            | InstData::Gang { .. }
                    )
            })
            .collect();
        if dead.is_empty() {
            return;
        }
        for inst in dead {
            func.remove_inst(inst);
        }
    }
}

/// A variable of the linearization: put into SSA form as blocks are filled.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Var {
    /// The lanes waiting at an (original) block.
    Mask(Block),
    /// Parameter `n` of an (original) block, in the lanes that reach it.
    Param(Block, usize),
    /// A value defined in one block and used in others.
    Plain(Value),
    /// A value defined in a divergent loop, as each lane last defined it
    /// (for uses outside that loop; block-IP: for uses in other blocks).
    Blend(Value),
    /// Block-IP: the position of the block each lane waits for.
    Ip,
}

/// When an edge is taken, for the uniform parameters of its target.
#[derive(Copy, Clone, Debug)]
enum Taken {
    /// Whenever the block runs (a `jump`).
    Always,
    /// When this uniform condition holds.
    When(Value),
    /// When some lane takes it (a per-lane condition).
    InSomeLanes,
}

/// How a variable is typed in the output.
#[derive(Copy, Clone, Debug)]
struct VarType {
    ty: Type,
    varying: bool,
}

struct Linearizer<'a> {
    src: &'a Function,
    uni: &'a Uniformity,
    scheme: Scheme,
    out: Function,
    /// The original blocks in linearization order.
    order: Vec<Block>,
    position: SecondaryMap<Block, usize>,
    /// Original blocks that are the target of a suspend point.
    resumes: SecondaryMap<Block, bool>,
    /// Per original block: its guard (none for the entry and resume
    /// blocks), its body, and the resume entry of a resume block.
    guard: SecondaryMap<Block, Option<Block>>,
    body: SecondaryMap<Block, Option<Block>>,
    resume_entry: SecondaryMap<Block, Option<Block>>,
    /// Per position in the order: the loop ends after that block
    /// (innermost first), each `(loop, its block)`.
    loop_ends: Vec<Vec<(Loop, Block)>>,
    /// The final block: every lane is done.
    end: Block,
    /// Block-IP: the block that goes to the first block any lane waits
    /// for, when it is none of the likely ones.
    dispatch: Option<Block>,
    /// Block-IP: original blocks inside a loop with a divergent branch,
    /// where lanes may be in different iterations.
    interleaved: SecondaryMap<Block, bool>,
    /// Lane refill: the loop over work-items (the one holding `next_item`).
    item_loop: Option<Loop>,
    /// Lane refill with masks: the loops the gang may leave early, with the
    /// position of their first block.
    left_loop_starts: Vec<(Loop, usize)>,
    /// Output blocks without predecessors (entry, resume entries): where
    /// variables start as zero.
    roots: SecondaryMap<Block, bool>,
    preds: SecondaryMap<Block, Vec<Block>>,
    unfilled_preds: SecondaryMap<Block, usize>,
    sealed: SecondaryMap<Block, bool>,
    incomplete: SecondaryMap<Block, Vec<(Var, Value)>>,
    defs: HashMap<(Var, Block), Value>,
    /// Each output block's place in the layout, which is the order blocks
    /// are filled in.
    seq: SecondaryMap<Block, u32>,
    /// Output blocks on a cycle of the output CFG (in a loop, or any block
    /// with block-IP, whose dispatch reaches every block).
    cyclic: SecondaryMap<Block, bool>,
    /// The entry body when it is the only root (no resume entries): it
    /// dominates every block.
    only_root: Option<Block>,
    /// For each variable, the place (`seq`) of the first block that set it.
    first_def: HashMap<Var, u32>,
    zeros: HashMap<(Block, Type), Value>,
    undefs: HashMap<(Block, Type), Value>,
    /// The values in `zeros` and `undefs`, for the folds.
    zero_values: SecondaryMap<Value, bool>,
    undef_values: SecondaryMap<Value, bool>,
    /// Rematerialized values: (original, output block) → copy.
    copies: HashMap<(Value, Block), Value>,
    /// Original values mapped to output values, for uses in the same block.
    local: SecondaryMap<Value, Option<Value>>,
    /// The block (original) each original value is defined in.
    def_block: SecondaryMap<Value, Option<Block>>,
    /// Incoming edges of each original block (a `brif` to it on both sides
    /// counts twice).
    in_edges: SecondaryMap<Block, usize>,
    /// Values used outside their block, and whether they need a blend.
    crosses: SecondaryMap<Value, bool>,
    blends: SecondaryMap<Value, bool>,
    /// Per-block masks: the earlier original block whose lanes a block's
    /// are, every time both run ([`Linearizer::same_lanes_as`]). Its mask
    /// is the one read for the earlier block, and no branch routes lanes
    /// into it.
    same_lanes: SecondaryMap<Block, Option<Block>>,
    /// The other way round: the blocks with each block's lanes.
    sharing: SecondaryMap<Block, Vec<Block>>,
    /// Per original block that a loop's back edge enters past its guard
    /// (see [`Linearizer::back_edge_target`]): where its guard sends the
    /// gang when no lane waits for it, past the loop.
    loop_skip: SecondaryMap<Block, Option<Block>>,
}

impl<'a> Linearizer<'a> {
    fn new(src: &'a Function, uni: &'a Uniformity, scheme: Scheme) -> Linearizer<'a> {
        let mut order = loop_contiguous_order(src, uni.cfg(), uni.loops());
        // The exit goes last: when the gang gets there, every lane has
        // returned or will never return.
        if let Some(i) = order.iter().position(|&b| {
            src.terminator(b)
                .is_some_and(|t| matches!(src.insts[t], InstData::Return { .. }))
        }) {
            let exit = order.remove(i);
            order.push(exit);
        }
        let mut out = Function {
            name: src.name.clone(),
            signature: src.signature.clone(),
            kernel: src.kernel.clone(),
            stack_slots: src.stack_slots.clone(),
            ..Function::default()
        };
        let end = out.create_block();
        let dispatch = (scheme == Scheme::BlockIp).then(|| out.create_block());
        let mut lin = Linearizer {
            src,
            uni,
            scheme,
            out,
            order,
            position: SecondaryMap::new(),
            resumes: SecondaryMap::new(),
            guard: SecondaryMap::new(),
            body: SecondaryMap::new(),
            resume_entry: SecondaryMap::new(),
            loop_ends: Vec::new(),
            end,
            dispatch,
            interleaved: SecondaryMap::new(),
            item_loop: None,
            left_loop_starts: Vec::new(),
            roots: SecondaryMap::new(),
            preds: SecondaryMap::new(),
            unfilled_preds: SecondaryMap::new(),
            sealed: SecondaryMap::new(),
            incomplete: SecondaryMap::new(),
            defs: HashMap::new(),
            seq: SecondaryMap::new(),
            cyclic: SecondaryMap::new(),
            first_def: HashMap::new(),
            only_root: None,
            zeros: HashMap::new(),
            undefs: HashMap::new(),
            zero_values: SecondaryMap::new(),
            undef_values: SecondaryMap::new(),
            copies: HashMap::new(),
            local: SecondaryMap::new(),
            def_block: SecondaryMap::new(),
            crosses: SecondaryMap::new(),
            blends: SecondaryMap::new(),
            in_edges: SecondaryMap::new(),
            same_lanes: SecondaryMap::new(),
            sharing: SecondaryMap::new(),
            loop_skip: SecondaryMap::new(),
        };
        lin.plan();
        lin
    }

    /// Creates the output blocks and records their predecessors.
    fn plan(&mut self) {
        let src = self.src;
        for (i, &b) in self.order.iter().enumerate() {
            self.position[b] = i;
        }
        for &b in &self.order {
            for s in src.successors(b) {
                self.in_edges[s] += 1;
            }
            if let Some(t) = src.terminator(b) {
                if let InstData::Suspend { dest, .. } = &src.insts[t] {
                    self.resumes[dest.block] = true;
                }
            }
        }
        // Loop ends: after the last block of each loop in the order.
        let loops = self.uni.loops();
        if src.refill {
            let claim = self.order.iter().copied().find(|&b| {
                src.blocks[b]
                    .insts
                    .iter()
                    .any(|&inst| matches!(src.insts[inst], InstData::NextItem))
            });
            self.item_loop = claim.and_then(|b| loops.innermost_loop(b));
            self.left_loop_starts = loops
                .loops()
                .filter(|&lp| self.may_leave_early(lp))
                .filter_map(|lp| {
                    let start = loops
                        .blocks(lp)
                        .iter()
                        .filter(|&&b| self.uni.is_reachable(b))
                        .map(|&b| self.position[b])
                        .min()?;
                    Some((lp, start))
                })
                .collect();
        }
        self.loop_ends = vec![Vec::new(); self.order.len()];
        if self.out_of_step() {
            for lp in loops.loops() {
                if loops.blocks(lp).iter().any(|&b| self.uni.is_divergent(b)) {
                    for &b in loops.blocks(lp) {
                        self.interleaved[b] = true;
                    }
                }
            }
        }
        let mut ending: Vec<(Loop, usize, usize)> = loops
            .loops()
            .filter_map(|lp| {
                let positions = loops
                    .blocks(lp)
                    .iter()
                    .filter(|&&b| self.uni.is_reachable(b))
                    .map(|&b| self.position[b]);
                let last = positions.clone().max()?;
                let first = positions.min()?;
                Some((lp, first, last))
            })
            .collect();
        // Innermost (latest start) first among loops ending at one block.
        ending.sort_by_key(|&(lp, first, last)| (last, std::cmp::Reverse(first), lp));
        if self.scheme == Scheme::BlockIp {
            ending.clear();
        }
        for (lp, _, last) in ending {
            let block = self.out.create_block();
            self.loop_ends[last].push((lp, block));
        }
        let entry = self.order[0];
        for &b in &self.order {
            if b != entry && !self.resumes[b] && self.scheme == Scheme::Masks {
                self.guard[b] = Some(self.out.create_block());
            }
            if self.resumes[b] {
                let r = self.out.create_block();
                self.resume_entry[b] = Some(r);
                self.roots[r] = true;
            }
            self.body[b] = Some(self.out.create_block());
        }
        let body_entry = self.body[entry].expect("entry body");
        self.roots[body_entry] = true;
        if !self.order.iter().any(|&b| self.resumes[b]) {
            self.only_root = Some(body_entry);
        }
        // Layout: the entry body first, then in order.
        let mut layout = vec![body_entry];
        for (i, &b) in self.order.iter().enumerate() {
            if let Some(r) = self.resume_entry[b] {
                layout.push(r);
            }
            if let Some(g) = self.guard[b] {
                layout.push(g);
            }
            if b != entry {
                layout.push(self.body[b].expect("body"));
            }
            layout.extend(self.loop_ends[i].iter().map(|&(_, e)| e));
        }
        layout.extend(self.dispatch);
        layout.push(self.end);
        for (i, &block) in layout.iter().enumerate() {
            self.seq[block] = i as u32;
            self.cyclic[block] = self.scheme == Scheme::BlockIp;
        }
        for (i, &b) in self.order.iter().enumerate() {
            if loops.innermost_loop(b).is_some() {
                let blocks = [self.resume_entry[b], self.guard[b], self.body[b]];
                for block in blocks.into_iter().flatten() {
                    self.cyclic[block] = true;
                }
            }
            for &(_, e) in &self.loop_ends[i] {
                self.cyclic[e] = true;
            }
        }
        self.out.layout = layout;
        // Loops entered only at their first block, with masks and without
        // lane refill (whose loops may keep lanes waiting inside while the
        // gang runs on): no lane is in such a loop unless one waits at its
        // first block, so the guard of that block skips the whole loop, and
        // the back edge, taken only when a lane waits there, skips the
        // guard. The loop is then one LLVM loop with one entry.
        if self.scheme == Scheme::Masks && !src.refill {
            for last in 0..self.order.len() {
                for k in 0..self.loop_ends[last].len() {
                    let lp = self.loop_ends[last][k].0;
                    let b = self.order[self.loop_first_position(lp)];
                    let loops = self.uni.loops();
                    if loops.is_reducible(lp) && loops.entries(lp) == [b] && self.guard[b].is_some()
                    {
                        self.loop_skip[b] = Some(self.loop_exit(last, k));
                    }
                }
            }
        }
        // Predecessors, as the terminators will have them.
        for (i, b) in self.order.clone().into_iter().enumerate() {
            let body = self.body[b].expect("body");
            if let Some(g) = self.guard[b] {
                self.add_pred(body, g);
                if !self.runs_unguarded(b) {
                    self.add_pred(self.guard_skip(i), g);
                }
            }
            if let Some(r) = self.resume_entry[b] {
                self.add_pred(body, r);
            }
            match src.terminator(b).map(|t| &src.insts[t]) {
                Some(InstData::Suspend { dest, .. }) => {
                    let r = self.resume_entry[dest.block].expect("resume entry");
                    self.add_pred(r, body);
                }
                Some(InstData::Unreachable) | Some(InstData::Return { .. }) | None => {}
                Some(_) if self.scheme == Scheme::BlockIp => {
                    for target in self.likely_targets(i) {
                        self.add_pred(target, body);
                    }
                    self.add_pred(self.dispatch(), body);
                }
                Some(_) => self.add_pred(self.after(i), body),
            }
            if matches!(
                src.terminator(b).map(|t| &src.insts[t]),
                Some(InstData::Return { .. })
            ) {
                self.add_pred(self.end, body);
            }
            let ends = self.loop_ends[i].clone();
            for (k, &(lp, e)) in ends.iter().enumerate() {
                self.add_pred(self.back_edge_target(lp), e);
                self.add_pred(self.loop_exit(i, k), e);
            }
        }
        if self.scheme == Scheme::BlockIp {
            for target in self.dispatch_targets() {
                self.add_pred(target, self.dispatch());
            }
            self.add_pred(self.end, self.dispatch());
        }
        // Values used outside their block; blends.
        for &b in &self.order.clone() {
            if b != self.order[0] {
                for &p in &src.blocks[b].params {
                    self.def_block[p] = Some(b);
                }
            }
            for &inst in &src.blocks[b].insts {
                if let Some(r) = src.results[inst] {
                    self.def_block[r] = Some(b);
                }
            }
        }
        if self.scheme == Scheme::Masks && !src.refill {
            let domtree = DominatorTree::compute(self.uni.cfg());
            for &b in domtree.rpo() {
                if let Some(d) = self.same_lanes_as(&domtree, b) {
                    let root = self.same_lanes[d].unwrap_or(d);
                    self.same_lanes[b] = Some(root);
                    self.sharing[root].push(b);
                }
            }
        }
        for b in self.order.clone() {
            for &inst in &src.blocks[b].insts {
                for a in src.insts[inst].args() {
                    if rematerializable(src, a) {
                        continue;
                    }
                    let Some(d) = self.def_block[a] else { continue };
                    if d != b {
                        self.crosses[a] = true;
                        if self.divergent_loop_between(d, b)
                            || self.left_loop_between(d, b)
                            || (self.interleaved[d] && self.is_varying_src(a))
                        {
                            self.blends[a] = true;
                        }
                    }
                }
            }
        }
    }

    /// The block whose lanes `b`'s are, with per-block masks: its immediate
    /// dominator `d`, if every lane that runs `d` runs `b` next (before `d`
    /// again): they are in the same innermost loop (a reducible one, of
    /// which `b` is not the header), and every path from `d` meets `b`
    /// before it leaves that loop, takes its back edge, ends or suspends at
    /// a barrier. Then `b`'s mask is `d`'s, with no `or` of the lanes each
    /// branch routes to `b`: the join after an `if` or `switch` runs with
    /// the mask before it, which LLVM sees is the gang's when that one is
    /// (a store after an `if` is a plain store, not a masked one, which
    /// costs a dozen plain ones on AVX2), and in a loop whose exits are
    /// uniform the mask no longer goes around the loop through the join's
    /// `or`.
    fn same_lanes_as(&self, domtree: &DominatorTree, b: Block) -> Option<Block> {
        let src = self.src;
        let loops = self.uni.loops();
        let d = domtree.idom(b)?;
        let lp = loops.innermost_loop(b);
        if lp != loops.innermost_loop(d)
            || self.resumes[b]
            || self.resumes[d]
            || lp.is_some_and(|lp| !loops.is_reducible(lp) || loops.entries(lp).contains(&b))
            || !self.uni.is_reachable(b)
        {
            return None;
        }
        let mut seen: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut stack = vec![d];
        seen[d] = true;
        while let Some(x) = stack.pop() {
            let succs = src.successors(x);
            // A path that ends, or suspends: the lanes that resume get a
            // mask of their own (`d`'s is not kept across the suspend).
            let suspends = src
                .terminator(x)
                .is_some_and(|t| matches!(src.insts[t], InstData::Suspend { .. }));
            if succs.is_empty() || suspends {
                return None;
            }
            for s in succs {
                if s == b || seen[s] {
                    continue;
                }
                let leaves = lp.is_some_and(|lp| !loops.contains(lp, s) || loops.header(lp) == s);
                if leaves {
                    return None;
                }
                seen[s] = true;
                stack.push(s);
            }
        }
        Some(d)
    }

    /// Gives the blocks with the lanes of original block `b` its mask `m`
    /// (read in output block `block`, before `b` runs).
    fn share_lanes(&mut self, b: Block, block: Block, m: Value) {
        for other in self.sharing[b].clone() {
            self.write(Var::Mask(other), block, m);
        }
    }

    /// Per-block masks: true if original block `b` runs whether or not a
    /// lane waits for it (if-converted), rather than behind a guard that
    /// skips it when none does. So for a small block of plain arithmetic
    /// in a loop (a `switch` case of an interpreter, one arm of Collatz's
    /// `x even ? x / 2 : 3x + 1`): there the any-lane test and its branch,
    /// often mispredicted, cost more than the few instructions they skip,
    /// and every guard splits the loop body, so that its masks and blended
    /// values cross LLVM blocks as phis instead of staying in registers
    /// (without AVX-512's mask registers each crossing packs and unpacks
    /// the masks). Such a block has no side effects, loads, calls or
    /// divisions: running it with no lane active has no effect but its
    /// cost.
    fn runs_unguarded(&self, b: Block) -> bool {
        let src = self.src;
        let body = || {
            src.blocks[b]
                .insts
                .iter()
                .map(|&i| &src.insts[i])
                .filter(|d| !d.is_terminator())
        };
        // The code generator divides 32-bit lanes by a uniform divisor
        // with a multiplication by its reciprocal.
        let cheap_division = |data: &InstData| match data {
            InstData::Binary { op, args } if is_integer_division(*op) => {
                self.uni.operand_shape(args[1], b).is_uniform()
                    && !self.uni.operand_shape(args[0], b).is_uniform()
                    && src.value_type(args[0]).bits() == 32
            }
            _ => false,
        };
        // Not in an irreducible loop (a `goto` into a loop): lanes may wait
        // at any of its blocks from one pass to the next, and a block run
        // for none of them can overwrite values lanes waiting elsewhere in
        // the loop still use (the fuzzer found such kernels).
        let loops = self.uni.loops();
        let mut in_loop = false;
        let mut cur = loops.innermost_loop(b);
        while let Some(lp) = cur {
            if !loops.is_reducible(lp) {
                return false;
            }
            in_loop = true;
            cur = loops.data(lp).parent.expand();
        }
        in_loop
            && body().count() <= UNGUARDED_MAX_INSTS
            && body().all(|d| is_plain_arithmetic(d) || cheap_division(d))
    }

    /// True if lanes of a loop with a divergent branch may be in different
    /// iterations, or blocks, of it at once: with block-IP.
    fn out_of_step(&self) -> bool {
        self.scheme == Scheme::BlockIp
    }

    /// Lane refill: true if loop `lp` is the loop over work-items (it
    /// holds `next_item`).
    fn is_item_loop(&self, lp: Loop) -> bool {
        self.item_loop == Some(lp)
    }

    /// Lane refill: how many lanes waiting after a loop make the gang leave
    /// it early. A quarter of the gang: a lower count leaves too often (each
    /// time the gang runs the code around the loop for few lanes), a higher
    /// one runs the loop half empty (Collatz chains and a skewed SpMV,
    /// measured at 2 to 11 of 16 lanes: 4 to 6 best).
    fn refill_threshold(&self) -> u64 {
        (self.uni.config().width / 4).max(1) as u64
    }

    /// Lane refill with per-block masks: the loops the gang may leave with
    /// lanes still waiting at their entries (every loop in the loop over
    /// work-items, see [`Self::unless_enough_left`]).
    fn may_leave_early(&self, lp: Loop) -> bool {
        self.src.refill && self.scheme == Scheme::Masks && !self.is_item_loop(lp)
    }

    /// Lane refill with masks: true if `to` is in a loop the gang may leave
    /// early and `from` is not: lanes arriving there may find others
    /// waiting at its entries.
    fn enters_left_loop(&self, from: Block, to: Block) -> bool {
        let loops = self.uni.loops();
        let mut cur = loops.innermost_loop(to);
        while let Some(lp) = cur {
            if self.may_leave_early(lp) && !loops.contains(lp, from) {
                return true;
            }
            cur = loops.data(lp).parent.expand();
        }
        false
    }

    /// Lane refill with masks: true if a loop the gang may leave early
    /// starts after `def` and at or before `use_block` in the order: a lane
    /// that ran `def` may wait in or after that loop while the gang goes
    /// round again and runs `def` for other lanes.
    fn left_loop_between(&self, def: Block, use_block: Block) -> bool {
        let (d, u) = (self.position[def], self.position[use_block]);
        self.left_loop_starts
            .iter()
            .any(|&(lp, start)| d < start && start <= u && !self.uni.loops().contains(lp, def))
    }

    fn add_pred(&mut self, block: Block, pred: Block) {
        self.preds[block].push(pred);
        self.unfilled_preds[block] += 1;
    }

    fn dispatch(&self) -> Block {
        self.dispatch.expect("block-IP has a dispatch block")
    }

    /// Block-IP: the position of the lanes that returned, past every block.
    fn done_position(&self) -> usize {
        self.order.len()
    }

    /// Block-IP: true if the gang may go to the block at `position` from
    /// its dispatch: a block other than the entry (which no edge enters)
    /// and the resume blocks (lanes get there only by resuming), or the end.
    fn dispatchable(&self, position: usize) -> bool {
        match self.order.get(position) {
            None => position == self.done_position(),
            Some(&b) => position != 0 && !self.resumes[b],
        }
    }

    /// Block-IP: the output block the gang goes to for `position`.
    fn block_at(&self, position: usize) -> Block {
        match self.order.get(position) {
            Some(&b) => self.body[b].expect("body"),
            None => self.end,
        }
    }

    /// Block-IP: the positions the block at position `i` tests first when
    /// it hands over: its successors, the next block and the end, the likely
    /// first blocks any lane waits for.
    fn likely_positions(&self, i: usize) -> Vec<usize> {
        let b = self.order[i];
        let mut positions: Vec<usize> = self
            .src
            .successors(b)
            .into_iter()
            .map(|s| self.position[s])
            .chain([i + 1, self.done_position()])
            .filter(|&p| self.dispatchable(p))
            .collect();
        positions.sort_unstable();
        positions.dedup();
        positions
    }

    fn likely_targets(&self, i: usize) -> Vec<Block> {
        self.likely_positions(i)
            .into_iter()
            .map(|p| self.block_at(p))
            .collect()
    }

    /// Block-IP: the blocks the dispatch block goes to (the end last).
    fn dispatch_targets(&self) -> Vec<Block> {
        (1..self.order.len())
            .filter(|&p| self.dispatchable(p))
            .map(|p| self.block_at(p))
            .collect()
    }

    /// Where the gang goes after the block at position `i` of the order
    /// (and the loops ending there).
    fn after(&self, i: usize) -> Block {
        match self.loop_ends[i].first() {
            Some(&(_, e)) => e,
            None => self.chain_entry(i + 1),
        }
    }

    /// Where the gang enters the block at position `i` coming from the one
    /// before: its guard, past it if it is a resume block (lanes only get
    /// there by resuming), or the end.
    fn chain_entry(&self, i: usize) -> Block {
        match self.order.get(i) {
            None => self.end,
            Some(&b) => match self.guard[b] {
                Some(g) => g,
                None => self.after(i),
            },
        }
    }

    /// Where a loop's back edge goes: the chain entry of its first block,
    /// or that block's body when the block is the loop's only entry. Then
    /// the gang goes back only when some lane waits there (the loop end's
    /// test), so the guard's test would always pass; skipping it keeps the
    /// loop's first block and the blocks after it in one LLVM block (the
    /// loops `loop_skip` holds: not with lane refill, which may leave
    /// lanes waiting anywhere in a loop).
    fn back_edge_target(&self, lp: Loop) -> Block {
        let first = self.loop_first_position(lp);
        let b = self.order[first];
        match self.loop_skip[b] {
            Some(_) => self.body[b].expect("body"),
            None => self.chain_entry(first),
        }
    }

    /// Where the gang goes after the `k`th loop ending at position `last`
    /// of the order: the next loop end there, else the next block.
    fn loop_exit(&self, last: usize, k: usize) -> Block {
        match self.loop_ends[last].get(k + 1) {
            Some(&(_, next)) => next,
            None => self.chain_entry(last + 1),
        }
    }

    /// Where the guard of the block at position `i` sends the gang when no
    /// lane waits for the block.
    fn guard_skip(&self, i: usize) -> Block {
        self.loop_skip[self.order[i]].unwrap_or_else(|| self.after(i))
    }

    /// The position of loop `lp`'s first block in the order.
    fn loop_first_position(&self, lp: Loop) -> usize {
        self.uni
            .loops()
            .blocks(lp)
            .iter()
            .filter(|&&b| self.uni.is_reachable(b))
            .map(|&b| self.position[b])
            .min()
            .expect("a loop has blocks")
    }

    /// True if a divergent loop contains `def` but not `use_block`: lanes
    /// may have left it in different iterations.
    fn divergent_loop_between(&self, def: Block, use_block: Block) -> bool {
        let loops = self.uni.loops();
        let mut cur = loops.innermost_loop(def);
        while let Some(lp) = cur {
            if !loops.contains(lp, use_block) && self.uni.is_divergent_loop(lp) {
                return true;
            }
            cur = loops.data(lp).parent.expand();
        }
        false
    }

    fn var_type(&self, var: Var) -> VarType {
        let src = self.src;
        match var {
            Var::Mask(_) => VarType {
                ty: Type::I1,
                varying: true,
            },
            Var::Param(b, n) => {
                let p = src.blocks[b].params[n];
                VarType {
                    ty: src.value_type(p),
                    varying: self.is_varying_src(p),
                }
            }
            Var::Plain(v) => VarType {
                ty: src.value_type(v),
                varying: self.is_varying_src(v),
            },
            Var::Blend(v) => VarType {
                ty: src.value_type(v),
                varying: true,
            },
            Var::Ip => VarType {
                ty: Type::I32,
                varying: true,
            },
        }
    }

    fn is_varying_src(&self, v: Value) -> bool {
        varying_in_source(self.src, self.uni, v)
    }

    fn run(mut self) -> Function {
        let src = self.src;
        let entry = self.order[0];
        // The entry body keeps the kernel's parameters.
        let body_entry = self.body[entry].expect("entry body");
        for &p in src.params() {
            let np = self.out.append_block_param(body_entry, src.value_type(p));
            self.local[p] = Some(np);
        }
        for i in 0..self.order.len() {
            let b = self.order[i];
            let mask = if b == entry {
                let m = self.gang(body_entry, GangOp::ActiveLanes, vec![], Type::I1, true);
                self.share_lanes(b, body_entry, m);
                if self.scheme == Scheme::BlockIp {
                    let done = self.position_const(body_entry, self.done_position());
                    self.write(Var::Ip, body_entry, done);
                }
                self.fill_done(body_entry);
                m
            } else if let Some(r) = self.resume_entry[b] {
                self.fill_resume_entry(b, r)
            } else if self.scheme == Scheme::BlockIp {
                let body = self.body[b].expect("body");
                self.seal_if_ready(body);
                let ip = self.read(Var::Ip, body);
                let here = self.position_const(body, i);
                let data = InstData::Icmp {
                    cond: IntCC::Eq,
                    args: [ip, here],
                };
                self.value(body, data, Type::I1)
            } else {
                let g = self.guard[b].expect("guard");
                let m = self.read(Var::Mask(b), g);
                self.share_lanes(b, g, m);
                let body = self.body[b].expect("body");
                if self.runs_unguarded(b) {
                    self.jump(g, body, vec![]);
                } else {
                    let any = self.gang(g, GangOp::Any, vec![m], Type::I1, false);
                    let skip = self.guard_skip(i);
                    self.brif(g, any, body, skip);
                }
                self.fill_done(g);
                if self.loop_skip[b].is_some() {
                    // The lanes from the guard and from the back edge.
                    let m = self.read(Var::Mask(b), body);
                    self.share_lanes(b, body, m);
                    m
                } else {
                    m
                }
            };
            self.fill_body(i, b, mask);
            let ends = self.loop_ends[i].clone();
            for (k, &(lp, e)) in ends.iter().enumerate() {
                self.fill_loop_end(i, k, lp, e);
            }
        }
        if self.scheme == Scheme::BlockIp {
            self.fill_dispatch();
        }
        let ret = self.out.create_inst(InstData::Return { arg: None }, None);
        self.out.append_inst(self.end, ret);
        self.fill_done(self.end);
        debug_assert!(self.incomplete.values().all(|v| v.is_empty()));
        crate::transform::ssa::remove_redundant_params(&mut self.out);
        remove_dead_values(&mut self.out);
        self.out
    }

    /// The resume entry of resume block `b`: parameters for the suspend's
    /// arguments and its mask; every other variable starts empty.
    fn fill_resume_entry(&mut self, b: Block, r: Block) -> Value {
        let src = self.src;
        for n in 0..src.blocks[b].params.len() {
            let t = self.var_type(Var::Param(b, n));
            let p = self.out.append_block_param(r, t.ty);
            self.out.varying[p] = t.varying;
            self.write(Var::Param(b, n), r, p);
        }
        // Every active lane arrived (the suspend point checks it): they all
        // resume.
        let m = self.gang(r, GangOp::ActiveLanes, vec![], Type::I1, true);
        match self.scheme {
            Scheme::Masks => {
                self.write(Var::Mask(b), r, m);
                self.share_lanes(b, r, m);
            }
            Scheme::BlockIp => {
                let here = self.position_const(r, self.position[b]);
                let done = self.position_const(r, self.done_position());
                let ip = self.select(r, m, here, done);
                self.write(Var::Ip, r, ip);
            }
        }
        let body = self.body[b].expect("body");
        self.jump(r, body, vec![]);
        self.fill_done(r);
        m
    }

    fn fill_body(&mut self, i: usize, b: Block, mask: Value) {
        let src = self.src;
        let body = self.body[b].expect("body");
        self.seal_if_ready(body);
        // The block's parameters, as the lanes waiting here received them.
        if i != 0 {
            for (n, &p) in src.blocks[b].params.iter().enumerate() {
                let v = self.read(Var::Param(b, n), body);
                self.define(p, body, v, mask);
            }
        }
        let term = src.terminator(b);
        for &inst in &src.blocks[b].insts {
            if Some(inst) == term {
                break;
            }
            self.copy_inst(inst, b, body, mask);
        }
        if self.scheme == Scheme::Masks {
            // The lanes leave the block (routing adds them where they go).
            let zero = self.zero(body, Type::I1);
            self.write(Var::Mask(b), body, zero);
        }
        let Some(term) = term else {
            let u = self.out.create_inst(InstData::Unreachable, None);
            self.out.append_inst(body, u);
            self.fill_done(body);
            return;
        };
        let loc = src.srclocs[term];
        match &src.insts[term] {
            InstData::Jump { dest } => {
                self.route(b, body, dest, mask, Taken::Always);
                self.hand_over(i, body);
            }
            InstData::Brif {
                cond,
                then_dest,
                else_dest,
            } => {
                let c = self.operand(*cond, b, body);
                let not_c = self.not(body, c);
                self.branch_routes(b, body, mask, &[(c, then_dest), (not_c, else_dest)]);
                self.hand_over(i, body);
            }
            InstData::Switch {
                arg,
                default,
                cases,
            } => {
                let a = self.operand(*arg, b, body);
                let ty = src.value_type(*arg);
                let mut routes = Vec::new();
                let mut none = None;
                for (k, dest) in cases {
                    let kv = self.value(body, InstData::Iconst { imm: *k }, ty);
                    let c = self.value(
                        body,
                        InstData::Icmp {
                            cond: IntCC::Eq,
                            args: [a, kv],
                        },
                        Type::I1,
                    );
                    let not_c = self.not(body, c);
                    none = Some(match none {
                        None => not_c,
                        Some(n) => self.binary(body, BinaryOp::Band, n, not_c),
                    });
                    routes.push((c, dest));
                }
                let d =
                    none.unwrap_or_else(|| self.value(body, InstData::Iconst { imm: 1 }, Type::I1));
                routes.push((d, default));
                self.branch_routes(b, body, mask, &routes);
                self.hand_over(i, body);
            }
            InstData::Return { .. } => {
                self.jump(body, self.end, vec![]);
            }
            InstData::Suspend {
                flags, scope, dest, ..
            } => {
                let args: Vec<Value> = dest
                    .args
                    .iter()
                    .map(|&a| self.operand(a, b, body))
                    .collect();
                let r = self.resume_entry[dest.block].expect("resume entry");
                let s = self.out.create_inst(
                    InstData::Suspend {
                        flags: *flags,
                        scope: *scope,
                        dest: BlockCall { block: r, args },
                        arriving: Some(mask),
                    },
                    None,
                );
                self.out.append_inst(body, s);
                self.out.srclocs[s] = loc;
            }
            InstData::Unreachable => {
                let u = self.out.create_inst(InstData::Unreachable, None);
                self.out.append_inst(body, u);
            }
            other => unreachable!("not a terminator: {}", other.mnemonic()),
        }
        if let Some(&last) = self.out.blocks[body].insts.last() {
            self.out.srclocs[last] = self.out.srclocs[last].or(loc);
        }
        self.fill_done(body);
    }

    /// Routes the lanes of `mask` along the edges of a `brif` or `switch`
    /// leaving original block `from`, each taken in the lanes where its
    /// condition holds.
    fn branch_routes(
        &mut self,
        from: Block,
        body: Block,
        mask: Value,
        routes: &[(Value, &BlockCall)],
    ) {
        for &(c, dest) in routes {
            let lanes = self.binary(body, BinaryOp::Band, mask, c);
            let taken = if self.out.varying[c] {
                Taken::InSomeLanes
            } else {
                Taken::When(c)
            };
            self.route(from, body, dest, lanes, taken);
        }
    }

    /// Adds `lanes` to the mask of `dest`'s block and gives its parameters
    /// the arguments in those lanes (a uniform parameter takes them if the
    /// edge is taken at all).
    fn route(&mut self, from: Block, body: Block, dest: &BlockCall, lanes: Value, taken: Taken) {
        let target = dest.block;
        let first_lanes = self.arrive_first(from, target);
        match self.scheme {
            // A block with another's lanes has that block's mask.
            Scheme::Masks if self.same_lanes[target].is_some() => {}
            // The first lanes to arrive find the mask empty: no need to read
            // it (a read walks back to where it was last set, around the
            // loop for a block in a loop).
            Scheme::Masks if first_lanes => self.write(Var::Mask(target), body, lanes),
            Scheme::Masks => {
                let old = self.read(Var::Mask(target), body);
                let joined = self.binary(body, BinaryOp::Bor, old, lanes);
                self.write(Var::Mask(target), body, joined);
            }
            Scheme::BlockIp => {
                let old = self.read(Var::Ip, body);
                let there = self.position_const(body, self.position[target]);
                let ip = self.select(body, lanes, there, old);
                self.write(Var::Ip, body, ip);
            }
        }
        let mut taken = taken;
        for (n, &a) in dest.args.iter().enumerate() {
            let var = Var::Param(target, n);
            let arg = self.operand(a, from, body);
            let new = if first_lanes {
                arg
            } else if self.var_type(var).varying {
                let old = self.read(var, body);
                self.select(body, lanes, arg, old)
            } else {
                let cond = match taken {
                    Taken::Always => None,
                    Taken::When(c) => Some(c),
                    Taken::InSomeLanes => {
                        let any = self.gang(body, GangOp::Any, vec![lanes], Type::I1, false);
                        taken = Taken::When(any);
                        Some(any)
                    }
                };
                match cond {
                    None => arg,
                    Some(c) => {
                        let old = self.read(var, body);
                        self.select(body, c, arg, old)
                    }
                }
            };
            self.write(var, body, new);
        }
    }

    /// True if no lane waits at `target` when `from` routes lanes to it, so
    /// its parameters can take the arguments in every lane: `target` has
    /// this one incoming edge, or is the header of a reducible loop entered
    /// by one edge and continued by one back edge (the header ran, emptying
    /// its mask, since either was last taken); and lanes cannot pile up
    /// there by leaving a divergent loop in different iterations.
    fn arrive_first(&self, from: Block, target: Block) -> bool {
        if self.divergent_loop_between(from, target) || self.enters_left_loop(from, target) {
            return false;
        }
        let edges = self.in_edges[target];
        if self.out_of_step() {
            // Lanes in different iterations of a loop may wait anywhere in it.
            return edges == 1 && !self.interleaved[from];
        }
        if edges == 1 || self.first_forward_edge(from, target) {
            return true;
        }
        let loops = self.uni.loops();
        let Some(lp) = loops.innermost_loop(target) else {
            return false;
        };
        if edges != 2 || loops.header(lp) != target || !loops.is_reducible(lp) {
            return false;
        }
        let back = self
            .uni
            .cfg()
            .preds(target)
            .iter()
            .filter(|&&p| loops.contains(lp, p));
        let back_edges: usize = back
            .map(|&p| {
                self.src
                    .successors(p)
                    .iter()
                    .filter(|&&s| s == target)
                    .count()
            })
            .sum();
        back_edges == 1
    }

    /// Per-block masks: true if the edge from `from` is the first to bring
    /// lanes to `target` since `target` last ran, because every edge into
    /// `target` comes from a block before it in the order and `from` is
    /// the first of those blocks, with one edge there (the join after a
    /// `switch` or an `if`, whose parameters would otherwise keep blending
    /// their values of the loop's previous iteration).
    fn first_forward_edge(&self, from: Block, target: Block) -> bool {
        let preds: Vec<Block> = self
            .uni
            .cfg()
            .preds(target)
            .iter()
            .copied()
            .filter(|&p| self.uni.is_reachable(p))
            .collect();
        let at = |b: Block| self.position[b];
        preds.iter().all(|&p| at(p) < at(target))
            && preds.iter().all(|&p| at(from) <= at(p))
            && self
                .src
                .successors(from)
                .iter()
                .filter(|&&s| s == target)
                .count()
                == 1
    }

    /// Ends the body of the block at position `i`: the gang goes on to the
    /// next block (and the loop ends after it), or, block-IP, to the first
    /// block any lane waits for.
    fn hand_over(&mut self, i: usize, body: Block) {
        match self.scheme {
            Scheme::Masks => {
                let after = self.after(i);
                self.jump(body, after, vec![]);
            }
            Scheme::BlockIp => {
                let mut first = self.first_waiting(body);
                if let Some(last) = self.refill_loop_end(i) {
                    first = self.leave_loop_early(body, first, last);
                }
                let cases = self
                    .likely_positions(i)
                    .into_iter()
                    .map(|p| (p as u64, self.block_at(p)))
                    .collect();
                self.switch(body, first, self.dispatch(), cases);
            }
        }
    }

    /// Lane refill: if the block at position `i` goes back to the start of
    /// a loop (other than the loop over work-items), the position of that
    /// loop's last block.
    fn refill_loop_end(&self, i: usize) -> Option<usize> {
        let src = self.src;
        if !src.refill {
            return None;
        }
        let b = self.order[i];
        let loops = self.uni.loops();
        src.successors(b)
            .into_iter()
            .filter(|&s| self.position[s] <= i)
            .find_map(|s| {
                let mut cur = loops.innermost_loop(s);
                while let Some(lp) = cur {
                    if loops.contains(lp, b) {
                        return (!self.is_item_loop(lp)).then_some(lp);
                    }
                    cur = loops.data(lp).parent.expand();
                }
                None
            })
            .map(|lp| {
                loops
                    .blocks(lp)
                    .iter()
                    .map(|&x| self.position[x])
                    .max()
                    .expect("a loop has blocks")
            })
    }

    /// Lane refill, at the back edge of a loop ending at position `last`:
    /// once enough lanes wait after the loop ([`Self::refill_threshold`]),
    /// the gang leaves it for them (they go on to take new work-items and
    /// come back) instead of iterating with the lanes left; else it goes on
    /// to `first` as usual.
    fn leave_loop_early(&mut self, block: Block, first: Value, last: usize) -> Value {
        let ip = self.read(Var::Ip, block);
        let last = self.position_const(block, last);
        let done = self.position_const(block, self.done_position());
        let after = self.value(
            block,
            InstData::Icmp {
                cond: IntCC::Ugt,
                args: [ip, last],
            },
            Type::I1,
        );
        let not_done = self.value(
            block,
            InstData::Icmp {
                cond: IntCC::Ult,
                args: [ip, done],
            },
            Type::I1,
        );
        let active = self.gang(block, GangOp::ActiveLanes, vec![], Type::I1, true);
        let waiting = self.binary(block, BinaryOp::Band, after, not_done);
        let waiting = self.binary(block, BinaryOp::Band, waiting, active);
        let leave = self.enough_waiting(block, waiting);
        let first_after = self.gang(
            block,
            GangOp::ReduceUmin,
            vec![ip, waiting],
            Type::I32,
            false,
        );
        self.select(block, leave, first_after, first)
    }

    /// Block-IP: the dispatch block, to any block lanes may wait for.
    fn fill_dispatch(&mut self) {
        let d = self.dispatch();
        self.seal_if_ready(d);
        let first = self.first_waiting(d);
        let cases = (1..self.order.len())
            .filter(|&p| self.dispatchable(p))
            .map(|p| (p as u64, self.block_at(p)))
            .collect();
        self.switch(d, first, self.end, cases);
        self.fill_done(d);
    }

    /// Block-IP: the smallest position any lane waits for, at the end of
    /// `block`.
    fn first_waiting(&mut self, block: Block) -> Value {
        let ip = self.read(Var::Ip, block);
        let active = self.gang(block, GangOp::ActiveLanes, vec![], Type::I1, true);
        self.gang(
            block,
            GangOp::ReduceUmin,
            vec![ip, active],
            Type::I32,
            false,
        )
    }

    /// Block-IP: a position, as the uniform `i32` lanes keep.
    fn position_const(&mut self, block: Block, position: usize) -> Value {
        self.value(
            block,
            InstData::Iconst {
                imm: position as u64,
            },
            Type::I32,
        )
    }

    fn fill_loop_end(&mut self, i: usize, k: usize, lp: Loop, e: Block) {
        self.seal_if_ready(e);
        let loops = self.uni.loops();
        // Lanes wait at a loop's entries; at any of its blocks if it is
        // irreducible, or, with lane refill, the loop over work-items (lanes
        // may be left inside a loop nested in it, see below).
        let item_loop = self.src.refill && self.is_item_loop(lp);
        let waiting: Vec<Block> = if loops.is_reducible(lp) && !item_loop {
            loops.entries(lp).to_vec()
        } else {
            loops.blocks(lp).to_vec()
        };
        let mut any_mask: Option<Value> = None;
        for b in waiting {
            if !self.uni.is_reachable(b) {
                continue;
            }
            let m = self.read(Var::Mask(b), e);
            any_mask = Some(match any_mask {
                None => m,
                Some(x) => self.binary(e, BinaryOp::Bor, x, m),
            });
        }
        let m = any_mask.unwrap_or_else(|| self.zero(e, Type::I1));
        let mut again = self.gang(e, GangOp::Any, vec![m], Type::I1, false);
        if self.src.refill && !item_loop {
            again = self.unless_enough_left(e, lp, again);
        }
        let exit = self.loop_exit(i, k);
        let back = self.back_edge_target(lp);
        self.brif(e, again, back, exit);
        self.fill_done(e);
    }

    /// Lane refill, at the end of loop `lp` (a loop in the loop over
    /// work-items) where the gang would go `again`: once enough lanes wait
    /// after the loop ([`Self::refill_threshold`]), it goes on with them
    /// (they take new work-items and come back to the loop, where the lanes
    /// left behind still wait) instead of iterating with the lanes left.
    fn unless_enough_left(&mut self, e: Block, lp: Loop, again: Value) -> Value {
        let src = self.src;
        let loops = self.uni.loops();
        let mut exits: Vec<Block> = loops
            .blocks(lp)
            .iter()
            .flat_map(|&b| src.successors(b))
            .filter(|&s| !loops.contains(lp, s) && self.uni.is_reachable(s))
            .collect();
        exits.sort_unstable();
        exits.dedup();
        let mut left: Option<Value> = None;
        for b in exits {
            let m = self.read(Var::Mask(b), e);
            left = Some(match left {
                None => m,
                Some(x) => self.binary(e, BinaryOp::Bor, x, m),
            });
        }
        let Some(left) = left else { return again };
        let leave = self.enough_waiting(e, left);
        let stay = self.not(e, leave);
        self.binary(e, BinaryOp::Band, again, stay)
    }

    /// Lane refill: whether the lanes of `waiting` are enough to leave a
    /// loop for ([`Self::refill_threshold`]), in `block`.
    fn enough_waiting(&mut self, block: Block, waiting: Value) -> Value {
        let count = self.gang(block, GangOp::Count, vec![waiting], Type::I32, false);
        let enough = self.value(
            block,
            InstData::Iconst {
                imm: self.refill_threshold(),
            },
            Type::I32,
        );
        self.value(
            block,
            InstData::Icmp {
                cond: IntCC::Uge,
                args: [count, enough],
            },
            Type::I1,
        )
    }

    // ---- instructions ----

    /// The output value for the use of `v` in original block `at` (filling
    /// output block `block`).
    fn operand(&mut self, v: Value, at: Block, block: Block) -> Value {
        if let Some(d) = self.def_block[v] {
            if d != at && rematerializable(self.src, v) {
                return self.rematerialize(v, block);
            }
            if d != at {
                let var = if self.reads_blend(v, d, at) {
                    Var::Blend(v)
                } else {
                    Var::Plain(v)
                };
                return self.read(var, block);
            }
        }
        self.local[v].expect("defined before its use")
    }

    /// True if the use of `v` (defined in original block `def`) in `at`
    /// reads each lane's own last definition: after a divergent loop that
    /// defines it; block-IP, anywhere outside its block for a per-lane value
    /// of a loop whose lanes may be in different iterations.
    fn reads_blend(&self, v: Value, def: Block, at: Block) -> bool {
        self.blends[v]
            && (self.blended_everywhere(v)
                || self.divergent_loop_between(def, at)
                || self.left_loop_between(def, at))
    }

    /// Block-IP: a per-lane value of a loop with a divergent branch, which
    /// every use in another block reads blended.
    fn blended_everywhere(&self, v: Value) -> bool {
        self.out_of_step()
            && self.def_block[v].is_some_and(|d| self.interleaved[d])
            && self.is_varying_src(v)
    }

    /// A copy of `v`'s computation (see [`rematerializable`]) in `block`,
    /// made once per block, operands first.
    fn rematerialize(&mut self, v: Value, block: Block) -> Value {
        if let Some(&copy) = self.copies.get(&(v, block)) {
            return copy;
        }
        let src = self.src;
        let ValueDef::Result(inst) = src.values[v].def else {
            unreachable!("only instruction results are rematerialized");
        };
        let mut data = src.insts[inst].clone();
        let mapped: Vec<(Value, Value)> = data
            .args()
            .into_iter()
            .map(|a| {
                let new = if is_function_param(src, a) {
                    self.local[a].expect("the function's parameters are mapped first")
                } else {
                    self.rematerialize(a, block)
                };
                (a, new)
            })
            .collect();
        data.map_args(|a| {
            mapped
                .iter()
                .find(|&&(old, _)| old == a)
                .map_or(a, |&(_, new)| new)
        });
        let new = self.out.create_inst(data, Some(src.value_type(v)));
        self.out.append_inst(block, new);
        self.out.srclocs[new] = src.srclocs[inst];
        let copy = self.out.results[new].expect("has a result");
        self.out.varying[copy] = self.is_varying_src(v);
        self.copies.insert((v, block), copy);
        copy
    }

    /// Records the output value `new` of original `v` (defined in original
    /// block `b`, output block `block`, lanes `mask`).
    fn define(&mut self, v: Value, block: Block, new: Value, mask: Value) {
        self.local[v] = Some(new);
        if self.crosses[v] && !(self.blends[v] && self.blended_everywhere(v)) {
            self.write(Var::Plain(v), block, new);
        }
        if self.blends[v] {
            let old = self.read(Var::Blend(v), block);
            let blended = self.select(block, mask, new, old);
            self.write(Var::Blend(v), block, blended);
        }
    }

    fn copy_inst(&mut self, inst: Inst, b: Block, block: Block, mask: Value) {
        let src = self.src;
        let mut data = src.insts[inst].clone();
        data.map_args(|a| self.operand(a, b, block));
        if let InstData::SubGroup { op, args } = data {
            let r = src.results[inst].expect("a subgroup collective has a result");
            let per_lane = self.is_varying_src(r);
            let mut add = |data: InstData, ty: Type| {
                let v = self.value(block, data, ty);
                if let ValueDef::Result(i) = self.out.values[v].def {
                    self.out.srclocs[i] = src.srclocs[inst];
                }
                v
            };
            data = lower_sub_group(op, &args, per_lane, mask, &mut add);
            // Its shape is the analysis's, whatever the mask's.
            let new = self.out.create_inst(data, Some(src.value_type(r)));
            self.out.append_inst(block, new);
            self.out.srclocs[new] = src.srclocs[inst];
            let nr = self.out.results[new].expect("has a result");
            self.out.varying[nr] = per_lane;
            self.define(r, block, nr, mask);
            return;
        }
        let mut any_varying = false;
        data.visit_args(|a| any_varying |= self.out.varying[a]);
        let result = src.results[inst];
        let result_varying = result.is_some_and(|r| self.is_varying_src(r)) || any_varying;
        if needs_mask(&data, result_varying) {
            data = InstData::Predicated {
                mask,
                inst: Box::new(data),
            };
        }
        let new = self
            .out
            .create_inst(data, result.map(|r| src.value_type(r)));
        self.out.append_inst(block, new);
        self.out.srclocs[new] = src.srclocs[inst];
        if let (Some(r), Some(nr)) = (result, self.out.results[new]) {
            self.out.varying[nr] = result_varying;
            self.define(r, block, nr, mask);
        }
    }

    fn value(&mut self, block: Block, data: InstData, ty: Type) -> Value {
        let varying = data.args().into_iter().any(|a| self.out.varying[a]);
        let inst = self.out.create_inst(data, Some(ty));
        self.out.append_inst(block, inst);
        let v = self.out.results[inst].expect("has a result");
        self.out.varying[v] = varying;
        v
    }

    fn binary(&mut self, block: Block, op: BinaryOp, a: Value, b: Value) -> Value {
        // Masks start empty: or-ing into or and-ing with an empty one is
        // common enough to fold here.
        match (op, self.is_zero(a), self.is_zero(b)) {
            (BinaryOp::Bor, true, _) => return b,
            (BinaryOp::Bor, _, true) | (BinaryOp::Band, true, _) => return a,
            (BinaryOp::Band, _, true) => return b,
            _ => {}
        }
        let ty = self.out.value_type(a);
        self.value(block, InstData::Binary { op, args: [a, b] }, ty)
    }

    fn not(&mut self, block: Block, c: Value) -> Value {
        let data = InstData::Unary {
            op: UnaryOp::Bnot,
            arg: c,
        };
        self.value(block, data, Type::I1)
    }

    fn select(&mut self, block: Block, c: Value, a: Value, b: Value) -> Value {
        // An undefined side: the other will do.
        if self.undef_values[b] {
            return a;
        }
        if self.undef_values[a] || a == b {
            return b;
        }
        let ty = self.out.value_type(a);
        self.value(block, InstData::Select { args: [c, a, b] }, ty)
    }

    fn gang(
        &mut self,
        block: Block,
        op: GangOp,
        args: Vec<Value>,
        ty: Type,
        varying: bool,
    ) -> Value {
        let inst = self.out.create_inst(InstData::Gang { op, args }, Some(ty));
        self.out.append_inst(block, inst);
        let v = self.out.results[inst].expect("has a result");
        self.out.varying[v] = varying;
        v
    }

    fn jump(&mut self, block: Block, to: Block, args: Vec<Value>) {
        let j = self.out.create_inst(
            InstData::Jump {
                dest: BlockCall { block: to, args },
            },
            None,
        );
        self.out.append_inst(block, j);
    }

    fn brif(&mut self, block: Block, c: Value, then: Block, otherwise: Block) {
        let j = self.out.create_inst(
            InstData::Brif {
                cond: c,
                then_dest: BlockCall {
                    block: then,
                    args: vec![],
                },
                else_dest: BlockCall {
                    block: otherwise,
                    args: vec![],
                },
            },
            None,
        );
        self.out.append_inst(block, j);
    }

    fn switch(&mut self, block: Block, arg: Value, default: Block, cases: Vec<(u64, Block)>) {
        let call = |block| BlockCall {
            block,
            args: vec![],
        };
        let data = InstData::Switch {
            arg,
            default: call(default),
            cases: cases.into_iter().map(|(k, b)| (k, call(b))).collect(),
        };
        let inst = self.out.create_inst(data, None);
        self.out.append_inst(block, inst);
    }

    /// An `undef` of `ty` at the start of `block` (a root, or a block no
    /// definition reaches).
    fn undef(&mut self, block: Block, ty: Type) -> Value {
        if let Some(&u) = self.undefs.get(&(block, ty)) {
            return u;
        }
        let inst = self.out.create_inst(InstData::Undef, Some(ty));
        self.out.insert_inst(block, 0, inst);
        let u = self.out.results[inst].expect("has a result");
        self.undefs.insert((block, ty), u);
        self.undef_values[u] = true;
        u
    }

    fn is_zero(&self, v: Value) -> bool {
        self.zero_values[v]
    }

    /// A uniform zero of `ty` at the start of root `block`.
    fn zero(&mut self, block: Block, ty: Type) -> Value {
        let root = self.root_of(block);
        if let Some(&z) = self.zeros.get(&(root, ty)) {
            return z;
        }
        let data = if ty.is_float() {
            InstData::Fconst { bits: 0 }
        } else {
            InstData::Iconst { imm: 0 }
        };
        let inst = self.out.create_inst(data, Some(ty));
        self.out.insert_inst(root, 0, inst);
        let z = self.out.results[inst].expect("has a result");
        self.zeros.insert((root, ty), z);
        self.zero_values[z] = true;
        z
    }

    /// The root whose constants reach `block`: `block` itself if it is one,
    /// else its block's zero is made where the variable is read (a root
    /// found by walking up single predecessors, or the block itself).
    fn root_of(&self, block: Block) -> Block {
        let mut b = block;
        loop {
            if self.roots[b] {
                return b;
            }
            match self.preds[b].as_slice() {
                [p] => b = *p,
                _ => return block,
            }
        }
    }

    // ---- SSA construction (Braun et al.) ----

    /// Sets `var` to `v` in `block` (the block being filled).
    fn write(&mut self, var: Var, block: Block, v: Value) {
        let seq = self.seq[block];
        self.first_def
            .entry(var)
            .and_modify(|s| *s = (*s).min(seq))
            .or_insert(seq);
        self.remember(var, block, v);
    }

    /// Records that `var` is `v` at the end of `block` (so far).
    fn remember(&mut self, var: Var, block: Block, v: Value) {
        self.defs.insert((var, block), v);
    }

    /// True if `var` is unset at the end of `block` because no block on a
    /// path to it has set it: none before it in the layout has (blocks
    /// are filled in layout order, so no block yet to be filled comes
    /// before it), and no path comes back to it from later blocks (it is
    /// in no loop: a path from a later block back to an earlier one takes
    /// the back edge of a loop containing every block between them, the
    /// blocks of a loop being contiguous in the order). Reading the
    /// variable there need not walk back to the entry through every block
    /// that skips its definition.
    fn unset_before(&self, var: Var, block: Block) -> bool {
        !self.cyclic[block]
            && self
                .first_def
                .get(&var)
                .is_none_or(|&s| s > self.seq[block])
    }

    fn read(&mut self, var: Var, block: Block) -> Value {
        if let Some(&v) = self.defs.get(&(var, block)) {
            return v;
        }
        stacker::maybe_grow(64 * 1024, 1024 * 1024, || self.read_recursive(var, block))
    }

    fn read_recursive(&mut self, var: Var, block: Block) -> Value {
        let v = if self.roots[block] {
            self.unset(var, block)
        } else if self.unset_before(var, block) {
            // Unset on every path from the entry (the only root, when no
            // resume entry makes others) or from wherever lanes come from.
            let at = self.only_root.unwrap_or(block);
            self.unset(var, at)
        } else if !self.sealed[block] {
            let p = self.new_param(var, block);
            self.incomplete[block].push((var, p));
            p
        } else if self.preds[block].len() == 1 {
            let pred = self.preds[block][0];
            self.read(var, pred)
        } else {
            let p = self.new_param(var, block);
            self.remember(var, block, p);
            self.add_param_args(var, block);
            p
        };
        self.remember(var, block, v);
        v
    }

    /// The value of `var` where nothing set it, made in `block`: masks
    /// start empty; anything else is `undef`.
    fn unset(&mut self, var: Var, block: Block) -> Value {
        let t = self.var_type(var);
        match var {
            Var::Mask(_) => self.zero(block, t.ty),
            _ => self.undef(block, t.ty),
        }
    }

    fn new_param(&mut self, var: Var, block: Block) -> Value {
        let t = self.var_type(var);
        let p = self.out.append_block_param(block, t.ty);
        self.out.varying[p] = t.varying;
        p
    }

    /// Passes the value of `var` at the end of each predecessor of `block`
    /// to the parameter made for it (parameters get their arguments in the
    /// order they were made, so each edge's arguments line up).
    fn add_param_args(&mut self, var: Var, block: Block) {
        let preds = self.preds[block].clone();
        let mut done: Vec<Block> = Vec::new();
        for pred in preds {
            if done.contains(&pred) {
                continue;
            }
            done.push(pred);
            let v = self.read(var, pred);
            let term = self.out.terminator(pred).expect("a filled predecessor");
            for dest in self.out.insts[term].branch_dests_mut() {
                if dest.block == block {
                    dest.args.push(v);
                }
            }
        }
    }

    /// `block` has its terminator: seal the successors whose predecessors
    /// are all filled.
    fn fill_done(&mut self, block: Block) {
        let succs = self.out.successors(block);
        let mut seen = Vec::new();
        for s in succs {
            if seen.contains(&s) {
                continue;
            }
            seen.push(s);
            let n = self.preds[s].iter().filter(|&&p| p == block).count();
            self.unfilled_preds[s] -= n;
            self.seal_if_ready(s);
        }
    }

    fn seal_if_ready(&mut self, block: Block) {
        if self.sealed[block] || self.unfilled_preds[block] != 0 {
            return;
        }
        self.sealed[block] = true;
        let pending = std::mem::take(&mut self.incomplete[block]);
        for (var, _) in pending {
            // Each parameter was appended when first read, in this order:
            // its arguments go in the same position on every edge.
            self.add_param_args(var, block);
        }
    }
}
