//! Which gang width suits a kernel: the host's natural width (one vector
//! register of 32-bit lanes), or twice that when the kernel's time goes to
//! a loop whose iterations wait on each other.
//!
//! In a loop like Mandelbrot's `z = z² + c`, each iteration needs the
//! previous one's result: the loop runs at the speed of that chain of
//! dependent floating-point operations, and the vector units idle between
//! them. A gang twice as wide runs as two independent halves whose chains
//! overlap, finishing the same work in less time (Mandelbrot on AVX-512:
//! 15 ms at width 16, 12 ms at 32). A loop whose iterations are independent
//! (N-body's sum over bodies) already keeps the units busy and gains
//! nothing; a wide gang then only costs registers.
//!
//! The estimate, for each innermost loop: the latency of the longest chain
//! from a loop-carried floating-point value (a parameter of the loop header)
//! back to its next value, against the cycles the loop body's instructions
//! take at two per cycle. Loops whose chain is the longer are latency-bound.
//! Only small loops (whose values fit in the registers twice over) qualify,
//! and kernels with barriers or subgroups keep the natural width (a kernel
//! with barriers is also tried at twice the width, where its gangs stay
//! within a row of the work-group: every gang stops and resumes at each
//! barrier, and half as many gangs would). A kernel
//! with a divergent loop that the estimate does not call latency-bound is
//! proposed at twice the width as well: the runtime times both forms on
//! its first launches and keeps the faster (the estimate leaves out the
//! mask tests and branches each iteration of a divergent loop pays once per
//! gang, and chains through integers and masks).
//!
//! **One lane per gang.** Some kernels run faster as plain scalar code, one
//! work-item after the other with real branches, as a CPU runs C: a state
//! machine whose lanes take different paths every step (a text parser, a
//! bytecode interpreter), or a loop over per-work-item data of very
//! different lengths that mostly gathers (a sparse matrix-vector
//! product). The gang pays for every path any lane takes and for each
//! gathered element; one lane pays only for its own path, and its loads are
//! plain ones. Which is faster depends on the data, so the estimate here
//! only proposes a kernel whose divergence is inside a loop; the runtime
//! times both on its first launches and keeps the faster
//! (`lockstep_runtime`'s variant trials).

use lockstep_ir::{BinaryOp, Function, InstData, Type, UnaryOp, Value};

use super::{ControlFlowGraph, LoopForest, Uniformity, UniformityConfig};

/// The most instructions a loop may have for its kernel to run twice as
/// wide: its values must still fit in the vector registers.
pub const MAX_LOOP_INSTS: usize = 48;

/// The most loop-carried values a loop may have for its kernel to run
/// twice as wide.
pub const MAX_CARRIED: usize = 8;

/// Why a kernel runs at the width it does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GangWidth {
    pub width: u32,
    /// A sentence for the report.
    pub reason: String,
    /// Why one lane per gang may be faster (see the module docs), if it
    /// may: the runtime then times both.
    pub one_lane: Option<String>,
    /// Why twice the chosen width may be faster (see the module docs), if
    /// it may: the runtime then times both.
    pub wider: Option<String>,
    /// The wider form pays only when its gangs stay within one row of the
    /// work-group (a one-dimensional group, or a row length that is a
    /// multiple of the wider width): lanes that wrap to the next row turn
    /// the kernel's row accesses into gathers. The runtime tries it only
    /// then.
    pub wider_within_rows: bool,
}

/// The gang width for `func` on a host whose natural width is
/// `host_width` (at most 32, the widest gang).
pub fn gang_width(func: &Function, host_width: u32) -> GangWidth {
    let one_lane = one_lane_candidate(func, host_width);
    let natural = |reason: &str| GangWidth {
        width: host_width,
        reason: format!("{host_width}, the host's ({reason})"),
        one_lane: one_lane.clone(),
        wider: None,
        wider_within_rows: false,
    };
    if host_width * 2 > 32 {
        return natural("the widest gang");
    }
    // Its subgroups are its gangs: their size is the host's, as the
    // platform reports it before any launch.
    if func.uses_sub_groups() {
        return natural("the kernel uses subgroups");
    }
    // Each gang stops and resumes at every barrier: half as many gangs pay
    // that half as often (transpose's 16x16 tiles on AVX2: 16 ms at width
    // 8, 7 ms at 16, one thread), which only a measurement weighs against
    // the wider gang's register pressure.
    if func.has_barrier() {
        return GangWidth {
            wider: Some(format!(
                "{}: each gang stops and resumes at every barrier, and half as many gangs would",
                host_width * 2
            )),
            wider_within_rows: true,
            ..natural("the kernel has barriers")
        };
    }
    let cfg = ControlFlowGraph::compute(func);
    let loops = LoopForest::compute(&cfg);
    for lp in loops.loops() {
        if !loops.children(lp).is_empty() || !loops.is_reducible(lp) {
            continue;
        }
        let blocks = loops.blocks(lp);
        let insts: usize = blocks.iter().map(|&b| func.blocks[b].insts.len()).sum();
        let header = loops.header(lp);
        let carried = &func.blocks[header].params;
        if insts > MAX_LOOP_INSTS || carried.len() > MAX_CARRIED {
            continue;
        }
        let chain = recurrence_latency(func, &cfg, &loops, lp);
        // Two instructions a cycle.
        let work: u32 = blocks
            .iter()
            .flat_map(|&b| &func.blocks[b].insts)
            .map(|&i| inst_work(&func.insts[i]))
            .sum();
        let throughput = work.div_ceil(2);
        if chain > throughput {
            return GangWidth {
                one_lane,
                wider: None,
                wider_within_rows: false,
                width: host_width * 2,
                reason: format!(
                    "{}, twice the host's: the loop at {header} is latency-bound (a chain of {chain} cycles from one iteration's floating-point values to the next, against {throughput} cycles for its {insts} instructions)",
                    host_width * 2
                ),
            };
        }
    }
    // A divergent loop the estimate above does not call latency-bound
    // may still gain: its mask tests and branches are shared by twice the
    // lanes, and chains through masks and integers (which it leaves out)
    // overlap. Only a measurement tells (Collatz chains and ambient
    // occlusion on AVX-512: 1.2x faster at 32; nbody's uniform loop: no
    // change).
    let wider = if one_lane.is_some() {
        Some(format!(
            "{}: a divergent loop's per-iteration mask tests and branches serve twice the lanes",
            host_width * 2
        ))
    } else if loops.loops().next().is_none() && !needs_lanes_together(func) {
        let (chain, work) = straight_line_cost(func, &cfg);
        let throughput = work.div_ceil(2);
        let why = format!(
            "the kernel is one long chain of dependent operations ({chain} cycles, against {throughput} for its work)"
        );
        if chain >= MIN_STRAIGHT_CHAIN && 2 * chain >= 3 * throughput {
            return GangWidth {
                width: host_width * 2,
                reason: format!("{}, twice the host's: {why}", host_width * 2),
                ..natural("")
            };
        }
        (chain >= MIN_STRAIGHT_CHAIN && chain > throughput)
            .then(|| format!("{}: {why}", host_width * 2))
    } else {
        None
    };
    GangWidth {
        wider,
        ..natural("no latency-bound loop")
    }
}

/// The shortest dependence chain, in cycles, for which a kernel without
/// loops is tried at twice the width: shorter ones overlap with the next
/// gang's in the core's out-of-order window. A chain half as long again as
/// the kernel's work runs at twice the width without a trial: its gain
/// (Black-Scholes on AVX-512: 12.3 ms at width 16, 10.0 ms at 32; AVX2:
/// 18.9 at 8, 17.8 at 16) shows compressed when the two forms share the
/// memory bus in a trial, which then kept the narrower form in about half
/// of the programs.
pub const MIN_STRAIGHT_CHAIN: u32 = 100;

/// Whether `func` has barriers, subgroup or gang operations: its lanes
/// work together, as a gang of its width.
fn needs_lanes_together(func: &Function) -> bool {
    func.uses_sub_groups()
        || func.insts_in_layout().any(|(_, i)| {
            matches!(
                func.insts[i],
                InstData::Barrier { .. }
                    | InstData::Suspend { .. }
                    | InstData::Gang { .. }
                    | InstData::SubGroup { .. }
            )
        })
}

/// For a kernel without loops: the latency of its longest dependence chain
/// and its work (in instructions, a math function counted as the
/// instructions of its inlined code), both estimated.
fn straight_line_cost(func: &Function, cfg: &ControlFlowGraph) -> (u32, u32) {
    let mut dist: std::collections::HashMap<Value, u32> = std::collections::HashMap::new();
    let (mut chain, mut work) = (0, 0);
    for &block in cfg.rpo() {
        for &inst in &func.blocks[block].insts {
            let data = &func.insts[inst];
            work += inst_work(data);
            let from = data
                .args()
                .iter()
                .filter_map(|a| dist.get(a))
                .max()
                .copied()
                .unwrap_or(0);
            if let Some(result) = func.results[inst] {
                let d = from + latency(data, func.value_type(result));
                chain = chain.max(d);
                dist.insert(result, d);
            }
            for dest in data.branch_dests() {
                for (n, &arg) in dest.args.iter().enumerate() {
                    let d = dist.get(&arg).copied().unwrap_or(0);
                    let e = dist.entry(func.blocks[dest.block].params[n]).or_insert(0);
                    *e = (*e).max(d);
                }
            }
        }
    }
    (chain, work)
}

/// An instruction's work: the instructions of its vector code, roughly
/// (about 20 for a math function's inlined code).
fn inst_work(data: &InstData) -> u32 {
    if is_math_function(data) {
        20
    } else {
        1
    }
}

/// A math function (`exp`, `sin`, `pow`, …): inlined vector code of tens
/// of dependent instructions.
fn is_math_function(data: &InstData) -> bool {
    use UnaryOp::*;
    match data {
        InstData::Unary { op, .. } => !matches!(
            op,
            Ineg | Bnot
                | Freeze
                | Clz
                | Ctz
                | Popcount
                | Bswap
                | Bitreverse
                | Iabs
                | Fneg
                | Fabs
                | Sqrt
                | Rsqrt
                | Floor
                | Ceil
                | Ftrunc
                | Round
                | Rint
        ),
        InstData::Binary { op, .. } => matches!(
            op,
            BinaryOp::Pow
                | BinaryOp::Atan2
                | BinaryOp::Hypot
                | BinaryOp::Remainder
                | BinaryOp::Frem
        ),
        _ => false,
    }
}

/// Why `func` may run faster one lane per gang, if it may: it has a loop
/// with a branch that is divergent at `width`, and no barriers, subgroups
/// or gang operations (which need lanes together).
pub fn one_lane_candidate(func: &Function, width: u32) -> Option<String> {
    if needs_lanes_together(func) {
        return None;
    }
    // The group size is not known here: 0 is "unknown".
    let config = UniformityConfig {
        local_size: [0, 0, 0],
        width,
    };
    let uni = Uniformity::for_function(func, &config);
    let loops = uni.loops();
    let header = loops.loops().find_map(|lp| {
        loops
            .blocks(lp)
            .iter()
            .any(|&b| uni.is_reachable(b) && uni.is_divergent(b))
            .then(|| loops.header(lp))
    })?;
    Some(format!(
        "the loop at {header} has divergent branches: each gang runs every path its lanes take"
    ))
}

/// The estimated latency, in cycles, of the longest dependence chain in
/// loop `lp` from a floating-point parameter of its header to the value a
/// latch passes back for one.
fn recurrence_latency(
    func: &Function,
    cfg: &ControlFlowGraph,
    loops: &LoopForest,
    lp: super::Loop,
) -> u32 {
    let header = loops.header(lp);
    let in_loop = |b| loops.blocks(lp).contains(&b);
    // Longest latency from a carried float value to each value of the loop.
    let mut dist: std::collections::HashMap<Value, u32> = func.blocks[header]
        .params
        .iter()
        .filter(|&&p| func.value_type(p).is_float())
        .map(|&p| (p, 0))
        .collect();
    let mut longest = 0;
    // The loop's blocks in reverse postorder: every value is seen after
    // its operands, except through the back edges to the header.
    for &block in cfg.rpo().iter().filter(|&&b| in_loop(b)) {
        for &inst in &func.blocks[block].insts {
            let data = &func.insts[inst];
            for dest in data.branch_dests() {
                for (n, &arg) in dest.args.iter().enumerate() {
                    let Some(&d) = dist.get(&arg) else { continue };
                    let param = func.blocks[dest.block].params[n];
                    if dest.block == header {
                        if func.value_type(param).is_float() {
                            longest = longest.max(d);
                        }
                    } else if in_loop(dest.block) {
                        let e = dist.entry(param).or_insert(0);
                        *e = (*e).max(d);
                    }
                }
            }
            let Some(result) = func.results[inst] else {
                continue;
            };
            let from = data
                .args()
                .iter()
                .filter_map(|a| dist.get(a))
                .max()
                .copied();
            if let Some(d) = from {
                dist.insert(result, d + latency(data, func.value_type(result)));
            }
        }
    }
    longest
}

/// Cycles until an instruction's result is ready, roughly as on current
/// x86 cores: 4 for floating-point arithmetic, 12 for division and square
/// roots, 40 for a math function, 5 for a load, 1 for the rest.
fn latency(data: &InstData, result: Type) -> u32 {
    match data {
        _ if is_math_function(data) => 40,
        InstData::Unary { op, .. } if matches!(op, UnaryOp::Sqrt | UnaryOp::Rsqrt) => 12,
        InstData::Binary {
            op: BinaryOp::Fdiv, ..
        } => 12,
        InstData::Unary { .. } | InstData::Binary { .. } | InstData::Ternary { .. }
            if result.is_float() =>
        {
            4
        }
        InstData::Load { .. } => 5,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::gang_width;
    use lockstep_ir::parse_function;

    /// Mandelbrot's loop: each iteration's `z` is three dependent
    /// floating-point operations away from the last.
    const RECURRENCE: &str = "
kernel @k(ptr.global, f32, i32) {
    arg 0 \"out\" \"float*\" none none
    arg 1 \"c\" \"float\" none none
    arg 2 \"n\" \"uint\" none none
block0(v0: ptr.global, v1: f32, v2: i32):
    v3: i32 = iconst 0
    v4: f32 = fconst 0.0
    v5: i32 = iconst 1
    jump block1(v4, v4, v3)
block1(v6: f32, v7: f32, v8: i32):
    v9: f32 = fmul v6, v6
    v10: f32 = fmul v7, v7
    v11: f32 = fsub v9, v10
    v12: f32 = fadd v11, v1
    v13: f32 = fmul v6, v7
    v14: f32 = fadd v13, v13
    v15: f32 = fadd v14, v1
    v16: i32 = iadd v8, v5
    v17: i1 = icmp ult v16, v2
    brif v17, block1(v12, v15, v16), block2
block2:
    store v12, v0, align 4
    return
}
";

    /// An accumulation: one addition carries over, and the rest of each
    /// iteration (loads, products) is independent of the last.
    const ACCUMULATION: &str = "
kernel @k(ptr.global, ptr.global, i32) {
    arg 0 \"out\" \"float*\" none none
    arg 1 \"in\" \"float*\" none none
    arg 2 \"n\" \"uint\" none none
block0(v0: ptr.global, v1: ptr.global, v2: i32):
    v3: i32 = iconst 0
    v4: f32 = fconst 0.0
    v5: i32 = iconst 1
    v6: i64 = iconst 4
    jump block1(v4, v3)
block1(v7: f32, v8: i32):
    v9: i64 = zext v8
    v10: i64 = imul v9, v6
    v11: ptr.global = ptradd v1, v10
    v12: f32 = load v11, align 4
    v13: f32 = fmul v12, v12
    v14: f32 = fmul v13, v12
    v15: f32 = fsub v14, v13
    v16: f32 = fmul v15, v12
    v17: f32 = fadd v7, v16
    v18: i32 = iadd v8, v5
    v19: i1 = icmp ult v18, v2
    brif v19, block1(v17, v18), block2
block2:
    store v17, v0, align 4
    return
}
";

    #[test]
    fn a_floating_point_recurrence_doubles_the_width() {
        let func = parse_function(RECURRENCE).unwrap();
        let chosen = gang_width(&func, 16);
        assert_eq!(chosen.width, 32, "{}", chosen.reason);
        assert!(chosen.reason.contains("latency-bound"), "{}", chosen.reason);
        // AVX2 hosts double their 8 lanes likewise; 32 lanes are the most.
        assert_eq!(gang_width(&func, 8).width, 16);
        assert_eq!(gang_width(&func, 32).width, 32);
    }

    #[test]
    fn independent_iterations_keep_the_hosts_width() {
        let func = parse_function(ACCUMULATION).unwrap();
        let chosen = gang_width(&func, 16);
        assert_eq!(chosen.width, 16, "{}", chosen.reason);
    }

    #[test]
    fn a_kernel_with_barriers_keeps_the_hosts_width() {
        let src = RECURRENCE.replace(
            "    store v12, v0, align 4\n",
            "    barrier local, work_group\n    store v12, v0, align 4\n",
        );
        let func = parse_function(&src).unwrap();
        let chosen = gang_width(&func, 16);
        assert_eq!(chosen.width, 16);
        // Twice as wide is tried, where a gang stays within a row.
        let wider = chosen.wider.expect("twice the width proposed");
        assert!(wider.starts_with("32: each gang stops"), "{wider}");
        assert!(chosen.wider_within_rows);
        assert_eq!(gang_width(&func, 32).wider, None);
    }

    /// A loop whose trip count differs per lane (`while (x > 1) x >>= 1`
    /// from a work-item's own value): divergent, with a one-cycle integer
    /// chain the estimate does not call latency-bound. Twice the width and
    /// one lane per gang are proposed for the runtime to time.
    const DIVERGENT_LOOP: &str = "
kernel @k(ptr.global) {
    arg 0 \"data\" \"uint*\" none none
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i64 = iconst 4
    v3: i64 = imul v1, v2
    v4: ptr.global = ptradd v0, v3
    v5: i32 = load v4, align 4
    v6: i32 = iconst 1
    jump block1(v5)
block1(v7: i32):
    v8: i32 = ushr v7, v6
    v9: i1 = icmp ugt v8, v6
    brif v9, block1(v8), block2
block2:
    store v8, v4, align 4
    return
}
";

    #[test]
    fn a_divergent_loop_is_also_tried_at_twice_the_width() {
        let func = parse_function(DIVERGENT_LOOP).unwrap();
        let chosen = gang_width(&func, 16);
        assert_eq!(chosen.width, 16, "{}", chosen.reason);
        assert!(chosen.one_lane.is_some());
        let wider = chosen.wider.expect("twice the width proposed");
        assert!(wider.starts_with("32"), "{wider}");
        // 32 lanes are the most; uniform loops propose nothing.
        assert_eq!(gang_width(&func, 32).wider, None);
        assert_eq!(
            gang_width(&parse_function(ACCUMULATION).unwrap(), 16).wider,
            None
        );
        // Already twice as wide: nothing more to try.
        assert_eq!(
            gang_width(&parse_function(RECURRENCE).unwrap(), 16).wider,
            None
        );
    }

    /// `out[i] = exp(exp(exp(in[i])))`: no loop, one chain of three math
    /// functions, longer than the work the kernel's other gangs could
    /// overlap it with.
    const MATH_CHAIN: &str = "
kernel @k(ptr.global) {
    arg 0 \"data\" \"float*\" none none
block0(v0: ptr.global):
    v1: i64 = global_id 0
    v2: i64 = iconst 4
    v3: i64 = imul v1, v2
    v4: ptr.global = ptradd v0, v3
    v5: f32 = load v4, align 4
    v6: f32 = exp v5
    v7: f32 = exp v6
    v8: f32 = exp v7
    store v8, v4, align 4
    return
}
";

    #[test]
    fn a_long_chain_without_loops_runs_or_is_tried_at_twice_the_width() {
        // Three math functions in a row: the chain is far longer than the
        // work, twice the width without a trial.
        let func = parse_function(MATH_CHAIN).unwrap();
        let chosen = gang_width(&func, 8);
        assert_eq!(chosen.width, 16, "{}", chosen.reason);
        assert!(
            chosen
                .reason
                .starts_with("16, twice the host's: the kernel is one long chain"),
            "{}",
            chosen.reason
        );
        assert_eq!(chosen.wider, None);
        // Independent work beside the chain, a little less than it: only
        // tried.
        let side: String = (0..140)
            .map(|k| format!("    v{}: f32 = fmul v5, v5\n", 100 + k))
            .collect();
        let func = parse_function(&MATH_CHAIN.replace(
            "    v6: f32 = exp v5\n",
            &format!("{side}    v6: f32 = exp v5\n"),
        ))
        .unwrap();
        let chosen = gang_width(&func, 8);
        assert_eq!(chosen.width, 8, "{}", chosen.reason);
        assert_eq!(chosen.one_lane, None);
        let wider = chosen.wider.expect("twice the width proposed");
        assert!(
            wider.starts_with("16: the kernel is one long chain"),
            "{wider}"
        );
        // One math function: a short chain, nothing to try.
        let short = MATH_CHAIN.replace(
            "    v7: f32 = exp v6\n    v8: f32 = exp v7\n",
            "    v8: f32 = fneg v6\n",
        );
        assert_eq!(gang_width(&parse_function(&short).unwrap(), 8).wider, None);
    }
}
