//! Reductions and scans across the lanes of a gang (or the work-items of a
//! subgroup), in the exact order of operations the IR defines for them
//! (see `lockstep_ir::GangOp`), so that the interpreter and the SIMD engine
//! give the same bits for floats too. Shared by the scalar interpreter's
//! subgroup collectives and the gang executor's gang operations.
//!
//! Each function takes one value per lane (`values`, W of them) and which
//! lanes take part (`set`); a lane that does not counts as the identity.

use lockstep_ir::{Collective, Combine, Type};

use crate::arith::{float_binary_bits, int_binary};

/// `op(a, b)` on values of `ty`.
pub fn combine(op: Combine, ty: Type, a: u64, b: u64) -> u64 {
    let bop = op.binary_op(ty.is_float());
    if ty.is_float() {
        return float_binary_bits(bop, ty, a, b);
    }
    int_binary(bop, ty.bits(), a, b)
}

/// Each lane's operand: its value where set, else the identity.
fn operands(op: Combine, ty: Type, values: &[u64], set: &[bool]) -> Vec<u64> {
    let identity = op.identity(ty);
    values
        .iter()
        .zip(set)
        .map(|(&v, &s)| if s { v } else { identity })
        .collect()
}

/// `reduce_<op>`: from the identity, lane by lane in order.
pub fn reduce(op: Combine, ty: Type, values: &[u64], set: &[bool]) -> u64 {
    operands(op, ty, values, set)
        .into_iter()
        .fold(op.identity(ty), |acc, x| combine(op, ty, acc, x))
}

/// Clustered `reduce_<op>`: a butterfly within clusters of `cluster` lanes.
pub fn reduce_clustered(
    op: Combine,
    ty: Type,
    values: &[u64],
    set: &[bool],
    cluster: usize,
) -> Vec<u64> {
    let mut x = operands(op, ty, values, set);
    // A cluster of the gang's width or more is the whole gang.
    let cluster = cluster.min(x.len());
    let mut s = 1;
    while s < cluster {
        x = (0..x.len())
            .map(|l| combine(op, ty, x[l], x[(l ^ s) % x.len()]))
            .collect();
        s *= 2;
    }
    x
}

/// `scan_<op>` (inclusive) in log2(W) steps, or `scan_excl_<op>` (the
/// inclusive scan moved up a lane, the identity in lane 0).
pub fn scan(op: Combine, ty: Type, values: &[u64], set: &[bool], exclusive: bool) -> Vec<u64> {
    let identity = op.identity(ty);
    let mut x = operands(op, ty, values, set);
    let mut d = 1;
    while d < x.len() {
        x = (0..x.len())
            .map(|l| {
                let below = if l >= d { x[l - d] } else { identity };
                combine(op, ty, below, x[l])
            })
            .collect();
        d *= 2;
    }
    if exclusive {
        x.pop();
        x.insert(0, identity);
    }
    x
}

/// The lanes' results of the reduction or scan `kind`: one value for all
/// (`reduce`, unclustered) or one per lane.
pub fn collective(
    kind: Collective,
    op: Combine,
    ty: Type,
    values: &[u64],
    set: &[bool],
    cluster: usize,
) -> Vec<u64> {
    match kind {
        Collective::Reduce if cluster > 0 => reduce_clustered(op, ty, values, set, cluster),
        Collective::Reduce => vec![reduce(op, ty, values, set); values.len()],
        Collective::Scan => scan(op, ty, values, set, false),
        Collective::ScanExcl => scan(op, ty, values, set, true),
    }
}
