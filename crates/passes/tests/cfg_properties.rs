//! Property tests of the CFG analyses on thousands of random functions:
//! random blocks ending in `brif`, `jump`, `switch`, `return` or
//! `unreachable` (so with multiple returns, infinite loops, irreducible
//! cycles, self-loops and unreachable blocks), checked against naive
//! definitions:
//!
//! * dominators: `d` dominates `b` iff removing `d` makes `b` unreachable
//!   from the entry; dominance frontiers by their definition;
//! * post-dominators: `a` post-dominates `b` iff removing `a` cuts `b` off
//!   the virtual exit, in the CFG plus the virtual exit edges (and those
//!   edges are exactly the blocks without successors plus one block of each
//!   terminal strongly connected component that cannot reach them);
//!   post-dominance frontiers by their definition;
//! * loop forest: the loops at each level are exactly the cyclic SCCs (by
//!   mutual reachability) of the parent's blocks with the parent's back edges
//!   removed, their entries exactly the blocks entered from outside; headers
//!   of reducible loops dominate their blocks; every back edge belongs to a
//!   loop entered at its target; the CFG is reducible iff every retreating
//!   edge of the DFS is a back edge;
//! * sync dependence: a block is a join point of a branch iff a max-flow
//!   (with unit vertex capacities) finds two disjoint paths to it, and a
//!   branch makes its loop divergent iff two disjoint paths lead from it to
//!   different ends of an iteration.

#![allow(clippy::needless_range_loop)] // blocks are numbered 0..n here

use std::collections::HashSet;

use cranelift_entity::EntityRef;
use lockstep_ir::{Block, BlockCall, FuncBuilder, Function, InstData, Signature, Type};
use lockstep_passes::{
    ControlFlowGraph, DominanceFrontiers, DominatorTree, LoopForest, PostDominatorTree,
};
use lockstep_passes::{Loop, SyncDependence};
use proptest::prelude::*;

/// A terminator in the random CFG: targets are indices into the non-entry
/// blocks (the entry may not be branched to).
#[derive(Clone, Debug)]
enum Term {
    Return,
    Unreachable,
    Jump(usize),
    Brif(usize, usize),
    Switch(usize, Vec<usize>),
}

fn term_strategy() -> impl Strategy<Value = Term> {
    prop_oneof![
        1 => Just(Term::Return),
        1 => Just(Term::Unreachable),
        4 => any::<usize>().prop_map(Term::Jump),
        6 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Term::Brif(a, b)),
        2 => (any::<usize>(), prop::collection::vec(any::<usize>(), 1..4))
            .prop_map(|(d, c)| Term::Switch(d, c)),
    ]
}

fn cfg_strategy() -> impl Strategy<Value = Vec<Term>> {
    prop::collection::vec(term_strategy(), 1..16)
}

/// Builds `function @f(i1, i32)` with one block per terminator.
fn build(terms: &[Term]) -> Function {
    let mut func = Function::new(
        "f",
        Signature {
            params: vec![Type::I1, Type::I32],
            ret: None,
        },
    );
    let blocks: Vec<Block> = terms.iter().map(|_| func.append_new_block()).collect();
    let cond = func.append_block_param(blocks[0], Type::I1);
    let sel = func.append_block_param(blocks[0], Type::I32);
    let n = blocks.len();
    let target = |t: usize| {
        let call = |b| BlockCall {
            block: b,
            args: vec![],
        };
        if n == 1 {
            None
        } else {
            Some(call(blocks[1 + t % (n - 1)]))
        }
    };
    let mut b = FuncBuilder::new(&mut func);
    for (i, term) in terms.iter().enumerate() {
        b.switch_to_block(blocks[i]);
        match (term, n) {
            (Term::Return, _) | (_, 1) => {
                b.ret(None);
            }
            (Term::Unreachable, _) => {
                b.ins(InstData::Unreachable, None);
            }
            (Term::Jump(t), _) => {
                b.ins(
                    InstData::Jump {
                        dest: target(*t).unwrap(),
                    },
                    None,
                );
            }
            (Term::Brif(x, y), _) => {
                b.brif(cond, target(*x).unwrap(), target(*y).unwrap());
            }
            (Term::Switch(d, cases), _) => {
                let cases = cases
                    .iter()
                    .enumerate()
                    .map(|(k, &t)| (k as u64, target(t).unwrap()))
                    .collect();
                b.ins(
                    InstData::Switch {
                        arg: sel,
                        default: target(*d).unwrap(),
                        cases,
                    },
                    None,
                );
            }
        }
    }
    lockstep_ir::verify_function(None, &func).expect("random function verifies");
    func
}

/// Blocks reachable from `from` without entering `removed` (`from` itself
/// counts unless it is removed).
fn reach(
    succs: &dyn Fn(usize) -> Vec<usize>,
    n: usize,
    from: usize,
    removed: Option<usize>,
) -> Vec<bool> {
    let mut seen = vec![false; n];
    if Some(from) == removed {
        return seen;
    }
    let mut stack = vec![from];
    seen[from] = true;
    while let Some(u) = stack.pop() {
        for v in succs(u) {
            if !seen[v] && Some(v) != removed {
                seen[v] = true;
                stack.push(v);
            }
        }
    }
    seen
}

fn blk(i: usize) -> Block {
    Block::new(i)
}

fn check_dominators(func: &Function, cfg: &ControlFlowGraph) {
    let n = func.blocks.len();
    let dt = DominatorTree::compute(cfg);
    let succs = |u: usize| cfg.succs(blk(u)).iter().map(|b| b.index()).collect();
    let reachable = reach(&succs, n, 0, None);
    for b in 0..n {
        assert_eq!(
            reachable[b],
            cfg.is_reachable(blk(b)),
            "reachability of block{b}"
        );
    }
    for d in 0..n {
        let without_d = reach(&succs, n, 0, Some(d));
        for b in 0..n {
            let naive = reachable[d] && reachable[b] && (d == b || !without_d[b]);
            assert_eq!(
                dt.dominates(blk(d), blk(b)),
                naive,
                "block{d} dominates block{b}"
            );
        }
    }
    // y is in DF(x) iff x dominates a predecessor of y but does not
    // strictly dominate y.
    let df = DominanceFrontiers::compute(cfg, &dt);
    for x in 0..n {
        for y in 0..n {
            let naive = reachable[x]
                && reachable[y]
                && cfg.reachable_preds(blk(y)).any(|p| dt.dominates(blk(x), p))
                && !dt.strictly_dominates(blk(x), blk(y));
            assert_eq!(
                df.frontier(blk(x)).contains(&blk(y)),
                naive,
                "block{y} in DF(block{x})"
            );
        }
    }
    // idom(b) is the strict dominator of b dominated by all the others.
    for b in 0..n {
        if !reachable[b] || b == 0 {
            assert_eq!(dt.idom(blk(b)), None);
            continue;
        }
        let idom = dt
            .idom(blk(b))
            .expect("reachable non-entry blocks have an idom");
        assert!(dt.strictly_dominates(idom, blk(b)));
        for d in 0..n {
            if dt.strictly_dominates(blk(d), blk(b)) {
                assert!(dt.dominates(blk(d), idom));
            }
        }
    }
}

/// Mutual-reachability SCCs of `nodes` using only the edges `succs` gives.
fn naive_sccs(n: usize, nodes: &[usize], succs: &dyn Fn(usize) -> Vec<usize>) -> Vec<Vec<usize>> {
    let inside: HashSet<usize> = nodes.iter().copied().collect();
    let within = |u: usize| -> Vec<usize> {
        succs(u)
            .into_iter()
            .filter(|v| inside.contains(v))
            .collect()
    };
    let reach_from: Vec<Vec<bool>> = (0..n)
        .map(|u| {
            if inside.contains(&u) {
                // Blocks reachable by at least one edge (so a block reaches
                // itself only through a cycle).
                let mut seen = vec![false; n];
                let mut stack: Vec<usize> = within(u);
                while let Some(x) = stack.pop() {
                    if !seen[x] {
                        seen[x] = true;
                        stack.extend(within(x));
                    }
                }
                seen
            } else {
                vec![false; n]
            }
        })
        .collect();
    let mut done = HashSet::new();
    let mut out = Vec::new();
    for &u in nodes {
        if done.contains(&u) || !reach_from[u][u] {
            continue;
        }
        let comp: Vec<usize> = nodes
            .iter()
            .copied()
            .filter(|&v| v == u || (reach_from[u][v] && reach_from[v][u]))
            .collect();
        done.extend(comp.iter().copied());
        out.push(comp);
    }
    out
}

fn check_postdominators(func: &Function, cfg: &ControlFlowGraph) {
    let n = func.blocks.len();
    let exit = n;
    let pdt = PostDominatorTree::compute(cfg);
    let reachable: Vec<bool> = (0..n).map(|b| cfg.is_reachable(blk(b))).collect();
    // The virtual exit edges: blocks without successors, plus one block of
    // every terminal SCC of the blocks that cannot reach those.
    let exit_preds: HashSet<usize> = pdt.exit_preds().iter().map(|b| b.index()).collect();
    let no_succ: HashSet<usize> = (0..n)
        .filter(|&b| reachable[b] && cfg.succs(blk(b)).is_empty())
        .collect();
    assert!(no_succ.is_subset(&exit_preds));
    let real_succs = |u: usize| -> Vec<usize> {
        if u == exit || !reachable[u] {
            vec![]
        } else {
            cfg.succs(blk(u)).iter().map(|b| b.index()).collect()
        }
    };
    let reaches_real_exit: Vec<bool> = (0..n)
        .map(|b| {
            let r = reach(&real_succs, n + 1, b, None);
            no_succ.iter().any(|&x| r[x])
        })
        .collect();
    let stuck: Vec<usize> = (0..n)
        .filter(|&b| reachable[b] && !reaches_real_exit[b])
        .collect();
    let mut terminal = 0;
    for comp in naive_sccs(n, &stuck, &real_succs).into_iter().chain(
        // Single blocks without a cycle are SCCs too.
        stuck.iter().map(|&b| vec![b]),
    ) {
        let set: HashSet<usize> = comp.iter().copied().collect();
        let is_terminal = comp
            .iter()
            .all(|&b| real_succs(b).iter().all(|s| set.contains(s)));
        if is_terminal && !comp.is_empty() {
            let chosen: Vec<&usize> = comp.iter().filter(|b| exit_preds.contains(b)).collect();
            assert_eq!(
                chosen.len(),
                1,
                "one virtual exit edge per terminal SCC {comp:?}"
            );
            terminal += 1;
        }
    }
    let _ = terminal;
    assert_eq!(
        exit_preds.len(),
        no_succ.len() + pdt.infinite_loop_exits().len()
    );
    let succs = |u: usize| -> Vec<usize> {
        let mut s = real_succs(u);
        if u < n && exit_preds.contains(&u) {
            s.push(exit);
        }
        s
    };
    for b in 0..n {
        if !reachable[b] {
            continue;
        }
        assert!(
            reach(&succs, n + 1, b, None)[exit],
            "block{b} reaches the exit"
        );
    }
    for a in 0..n {
        for b in 0..n {
            let naive =
                reachable[a] && reachable[b] && (a == b || !reach(&succs, n + 1, b, Some(a))[exit]);
            assert_eq!(
                pdt.post_dominates(blk(a), blk(b)),
                naive,
                "block{a} post-dominates block{b}"
            );
        }
        // y is in the post-dominance frontier of a iff a post-dominates a
        // successor of y (in the augmented CFG) but not strictly y.
        for y in 0..n {
            let naive = reachable[a]
                && reachable[y]
                && cfg
                    .succs(blk(y))
                    .iter()
                    .any(|&s| pdt.post_dominates(blk(a), s))
                && !pdt.strictly_post_dominates(blk(a), blk(y));
            assert_eq!(
                pdt.frontier(blk(a)).contains(&blk(y)),
                naive,
                "block{y} in PDF(block{a})"
            );
        }
        if reachable[a] {
            // ipdom: the strict post-dominator post-dominated by all others.
            match pdt.ipdom(blk(a)) {
                Some(p) => {
                    assert!(pdt.strictly_post_dominates(p, blk(a)));
                    for d in 0..n {
                        if pdt.strictly_post_dominates(blk(d), blk(a)) {
                            assert!(pdt.post_dominates(blk(d), p));
                        }
                    }
                }
                None => {
                    for d in 0..n {
                        assert!(!pdt.strictly_post_dominates(blk(d), blk(a)));
                    }
                }
            }
        }
    }
}

fn check_loops(func: &Function, cfg: &ControlFlowGraph) {
    let n = func.blocks.len();
    let dt = DominatorTree::compute(cfg);
    let forest = LoopForest::compute(cfg);
    let reachable: Vec<usize> = (0..n).filter(|&b| cfg.is_reachable(blk(b))).collect();
    // Level by level: the loops nested in `parent` (or at the top) are the
    // cyclic SCCs of its blocks without the edges into its entries.
    let mut levels: Vec<(Option<Loop>, Vec<usize>, Vec<usize>)> = vec![(None, reachable, vec![])];
    while let Some((parent, blocks, cut)) = levels.pop() {
        let succs = |u: usize| -> Vec<usize> {
            cfg.succs(blk(u))
                .iter()
                .map(|b| b.index())
                .filter(|v| !cut.contains(v))
                .collect()
        };
        let mut expected: Vec<Vec<usize>> = naive_sccs(n, &blocks, &succs);
        for c in &mut expected {
            c.sort();
        }
        expected.sort();
        let children: Vec<Loop> = match parent {
            Some(p) => forest.children(p).to_vec(),
            None => forest.roots().to_vec(),
        };
        let mut actual: Vec<Vec<usize>> = children
            .iter()
            .map(|&l| {
                let mut c: Vec<usize> = forest.blocks(l).iter().map(|b| b.index()).collect();
                c.sort();
                c
            })
            .collect();
        actual.sort();
        assert_eq!(actual, expected, "loops nested in {parent:?}");
        for &l in &children {
            let set: HashSet<usize> = forest.blocks(l).iter().map(|b| b.index()).collect();
            let mut entries: Vec<usize> = set
                .iter()
                .copied()
                .filter(|&b| {
                    cfg.reachable_preds(blk(b))
                        .any(|p| !set.contains(&p.index()))
                })
                .collect();
            entries.sort();
            let mut got: Vec<usize> = forest.entries(l).iter().map(|b| b.index()).collect();
            got.sort();
            assert_eq!(got, entries, "entries of {l}");
            assert_eq!(forest.header(l), forest.entries(l)[0]);
            assert_eq!(forest.is_reducible(l), entries.len() == 1);
            if forest.is_reducible(l) {
                for &b in forest.blocks(l) {
                    assert!(
                        dt.dominates(forest.header(l), b),
                        "header of {l} dominates {b}"
                    );
                }
            }
            let expected_depth = parent.map_or(1, |p| forest.depth(p) + 1);
            assert_eq!(forest.depth(l), expected_depth);
            for &b in forest.exit_blocks(l) {
                assert!(!set.contains(&b.index()));
            }
            for &b in forest.blocks(l) {
                assert!(forest.contains(l, b));
                let leaves = cfg.succs(b).iter().any(|s| !set.contains(&s.index()));
                assert_eq!(forest.exiting_blocks(l).contains(&b), leaves);
                let latch = cfg.succs(b).iter().any(|s| forest.entries(l).contains(s));
                assert_eq!(forest.latches(l).contains(&b), latch);
            }
            levels.push((Some(l), set.iter().copied().collect(), entries.to_vec()));
        }
    }
    // Every back edge belongs to a loop entered at its target.
    let mut all_reducible_by_dfs = true;
    for &u in cfg.rpo() {
        for &v in cfg.succs(u) {
            let retreating = cfg.rpo_number(v) <= cfg.rpo_number(u);
            if dt.dominates(v, u) {
                assert!(
                    forest
                        .loops()
                        .any(|l| forest.contains(l, u) && forest.entries(l).contains(&v)),
                    "back edge {u} -> {v} is in a loop"
                );
            } else if retreating {
                all_reducible_by_dfs = false;
            }
        }
    }
    assert_eq!(forest.is_cfg_reducible(), all_reducible_by_dfs);
    for b in 0..n {
        let containing = forest
            .loops()
            .filter(|&l| forest.contains(l, blk(b)))
            .count();
        assert_eq!(forest.loop_depth(blk(b)) as usize, containing);
    }
}

/// Max-flow (capped at 2) from `source` to `sink` in a graph with unit
/// vertex capacities (node `i` is split into `2i` in and `2i+1` out) and the
/// given edge capacities.
fn two_disjoint_paths(
    nodes: usize,
    edges: &[(usize, usize, i32)],
    source: usize,
    sink: usize,
) -> bool {
    let m = 2 * nodes;
    let mut cap = vec![vec![0i32; m]; m];
    for i in 0..nodes {
        cap[2 * i][2 * i + 1] = 1;
    }
    for &(u, v, c) in edges {
        cap[2 * u + 1][2 * v] += c;
    }
    let (s, t) = (2 * source + 1, 2 * sink);
    let mut flow = 0;
    while flow < 2 {
        let mut prev = vec![usize::MAX; m];
        prev[s] = s;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(x) = queue.pop_front() {
            for y in 0..m {
                if cap[x][y] > 0 && prev[y] == usize::MAX {
                    prev[y] = x;
                    queue.push_back(y);
                }
            }
        }
        if prev[t] == usize::MAX {
            break;
        }
        let mut y = t;
        while y != s {
            let x = prev[y];
            cap[x][y] -= 1;
            cap[y][x] += 1;
            y = x;
        }
        flow += 1;
    }
    flow >= 2
}

fn check_sync(func: &Function, cfg: &ControlFlowGraph) {
    let n = func.blocks.len();
    let forest = LoopForest::compute(cfg);
    let sync = SyncDependence::new(func, cfg, &forest);
    for &b in cfg.rpo() {
        let succs = func.successors(b);
        let joins = sync.joins(b);
        // Stopping where the paths from the branch meet gives what the
        // whole graph gives, join points and their predecessors alike.
        assert_eq!(joins, sync.joins_exhaustive(b), "joins of {b}");
        if succs.len() < 2 {
            assert!(joins.blocks.is_empty());
            continue;
        }
        // The same graph as the definition: edges into `b` go to a sink
        // copy (node n), edges re-entering a loop around `b` are cut.
        let enclosing = forest.loops_containing(b);
        let reenters = |u: Block, s: Block| {
            enclosing
                .iter()
                .any(|&l| forest.entries(l).contains(&s) && !forest.contains(l, u))
        };
        let b_in = n;
        let node = |s: Block| if s == b { b_in } else { s.index() };
        let mut edges = Vec::new();
        for &u in cfg.rpo() {
            if u == b {
                continue;
            }
            for &s in cfg.succs(u) {
                if !reenters(u, s) {
                    edges.push((u.index(), node(s), 1));
                }
            }
        }
        for s in &succs {
            edges.push((b.index(), node(*s), 1));
        }
        for x in 0..=n {
            if x == b.index() {
                continue;
            }
            let expected = two_disjoint_paths(n + 1, &edges, b.index(), x);
            // Node `b_in` stands for `b` as a join point of itself.
            let block = if x == b_in { b } else { blk(x) };
            assert_eq!(
                joins.blocks.contains(&block),
                expected,
                "{block} join of {b}"
            );
        }
        // Divergent loops around `b`: disjoint paths to two ends of one
        // iteration of the loop.
        let divergent = sync.divergent_loops(b, &joins.blocks);
        for &l in &enclosing {
            let (exit_node, end) = (n, n + 1);
            let entries = forest.entries(l);
            let cont = |i: usize| n + 2 + i;
            let mut edges = Vec::new();
            for &u in forest.blocks(l) {
                for &s in cfg.succs(u) {
                    let to = if !forest.contains(l, s) {
                        exit_node
                    } else if let Some(i) = entries.iter().position(|&e| e == s) {
                        cont(i)
                    } else {
                        s.index()
                    };
                    edges.push((u.index(), to, 1));
                }
            }
            edges.push((exit_node, end, 1));
            for i in 0..entries.len() {
                edges.push((cont(i), end, 1));
            }
            let expected = two_disjoint_paths(n + 2 + entries.len(), &edges, b.index(), end);
            assert_eq!(divergent.contains(&l), expected, "{b} makes {l} divergent");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn dominators_match_naive(terms in cfg_strategy()) {
        let func = build(&terms);
        let cfg = ControlFlowGraph::compute(&func);
        check_dominators(&func, &cfg);
    }

    #[test]
    fn postdominators_match_naive(terms in cfg_strategy()) {
        let func = build(&terms);
        let cfg = ControlFlowGraph::compute(&func);
        check_postdominators(&func, &cfg);
    }

    #[test]
    fn loop_forest_is_consistent(terms in cfg_strategy()) {
        let func = build(&terms);
        let cfg = ControlFlowGraph::compute(&func);
        check_loops(&func, &cfg);
    }

    #[test]
    fn join_points_are_disjoint_path_meets(terms in cfg_strategy()) {
        let func = build(&terms);
        let cfg = ControlFlowGraph::compute(&func);
        check_sync(&func, &cfg);
    }
}

/// How a random block computes its branch condition.
#[derive(Clone, Debug)]
struct Body {
    term: Term,
    /// Block parameters (0 or 1 `i32`).
    params: usize,
    /// Condition source: 0 uniform argument, 1 local id, 2 own value.
    cond: u8,
    /// Branch argument source per target: 0 argument, 1 local id, 2 own value.
    arg: u8,
}

fn body_strategy() -> impl Strategy<Value = Body> {
    (term_strategy(), 0usize..2, 0u8..3, 0u8..3).prop_map(|(term, params, cond, arg)| Body {
        term,
        params,
        cond,
        arg,
    })
}

/// A kernel over a random CFG whose blocks pass values (uniform, consecutive
/// or their own) to each other's parameters and branch on uniform or
/// varying conditions.
fn build_kernel(bodies: &[Body]) -> lockstep_ir::Module {
    use lockstep_ir::{IntCC, KernelInfo, Module, WorkItemQuery};
    let mut func = Function::new(
        "k",
        Signature {
            params: vec![Type::I32],
            ret: None,
        },
    );
    func.kernel = Some(KernelInfo {
        args: vec![Default::default()],
        ..KernelInfo::default()
    });
    let blocks: Vec<Block> = bodies.iter().map(|_| func.append_new_block()).collect();
    let arg = func.append_block_param(blocks[0], Type::I32);
    let mut params = vec![Vec::new(); blocks.len()];
    for (i, body) in bodies.iter().enumerate().skip(1) {
        for _ in 0..body.params {
            params[i].push(func.append_block_param(blocks[i], Type::I32));
        }
    }
    let n = blocks.len();
    let mut b = FuncBuilder::new(&mut func);
    b.switch_to_block(blocks[0]);
    let lid64 = b.work_item(WorkItemQuery::LocalId, 0);
    let lid = b.convert(lockstep_ir::ConvertOp::Trunc, Type::I32, lid64);
    for (i, body) in bodies.iter().enumerate() {
        b.switch_to_block(blocks[i]);
        let base = params[i].first().copied().unwrap_or(arg);
        let own = b.binary(lockstep_ir::BinaryOp::Iadd, base, arg);
        let pick = |k: u8| match k {
            0 => arg,
            1 => lid,
            _ => own,
        };
        let cond = b.icmp(IntCC::Slt, pick(body.cond), arg);
        let call = |t: usize| {
            let block = blocks[1 + t % (n - 1)];
            let args = params[1 + t % (n - 1)]
                .iter()
                .map(|_| pick(body.arg))
                .collect();
            BlockCall { block, args }
        };
        match (&body.term, n) {
            (Term::Return, _) | (_, 1) => {
                b.ret(None);
            }
            (Term::Unreachable, _) => {
                b.ins(InstData::Unreachable, None);
            }
            (Term::Jump(t), _) => {
                b.ins(InstData::Jump { dest: call(*t) }, None);
            }
            (Term::Brif(x, y), _) => {
                let (tx, ty) = (call(*x), call(*y));
                b.brif(cond, tx, ty);
            }
            (Term::Switch(d, cases), _) => {
                let cases = cases
                    .iter()
                    .enumerate()
                    .map(|(k, &t)| (k as u64, call(t)))
                    .collect();
                b.ins(
                    InstData::Switch {
                        arg: pick(body.cond),
                        default: call(*d),
                        cases,
                    },
                    None,
                );
            }
        }
    }
    let mut module = Module::new();
    module.functions.push(func);
    lockstep_ir::verify_module(&module).expect("random kernel verifies");
    module
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    /// Uniformity terminates on any CFG and its facts are consistent: a
    /// branch is divergent iff its condition is not uniform, a divergent
    /// branch's join points are its disjoint-path join points, parameters
    /// of non-join blocks join their incoming shapes, and the listing and
    /// dot views print.
    #[test]
    fn uniformity_is_consistent(bodies in prop::collection::vec(body_strategy(), 1..12)) {
        use lockstep_passes::{Shape, Uniformity, UniformityConfig};
        let module = build_kernel(&bodies);
        let (id, func) = module.functions.iter().next().unwrap();
        let info = Uniformity::for_function(func, &UniformityConfig::default());
        let cfg = ControlFlowGraph::compute(func);
        let forest = LoopForest::compute(&cfg);
        let sync = SyncDependence::new(func, &cfg, &forest);
        for &b in cfg.rpo() {
            let term = func.terminator(b).unwrap();
            let cond = match &func.insts[term] {
                InstData::Brif { cond, .. } => Some(*cond),
                InstData::Switch { arg, .. } => Some(*arg),
                _ => None,
            };
            match cond {
                Some(c) => {
                    prop_assert_eq!(info.is_divergent(b), !info.operand_shape(c, b).is_uniform());
                }
                None => prop_assert!(!info.is_divergent(b)),
            }
            if info.is_divergent(b) {
                prop_assert_eq!(info.join_points(b), &sync.join_points(b)[..]);
            } else {
                prop_assert!(info.join_points(b).is_empty());
            }
            if b != cfg.entry().unwrap() && !info.is_join(b) {
                for (i, &p) in func.blocks[b].params.iter().enumerate() {
                    let mut joined: Option<Shape> = None;
                    for pred in cfg.reachable_preds(b) {
                        let t = func.terminator(pred).unwrap();
                        for dest in func.insts[t].branch_dests() {
                            if dest.block == b {
                                let s = info.edge_operand_shape(dest.args[i], pred, b);
                                joined = Some(joined.map_or(s, |j| j.join(s)));
                            }
                        }
                    }
                    prop_assert_eq!(Some(info.shape(p)), joined);
                }
            }
        }
        let listing = lockstep_passes::uniformity_listing(&module, id, &info);
        prop_assert!(listing.lines().count() >= cfg.blocks().len());
        let dot = lockstep_passes::cfg_dot(&module, id, &info);
        prop_assert!(dot.ends_with("}\n"), "dot ends with a brace");
    }
}
