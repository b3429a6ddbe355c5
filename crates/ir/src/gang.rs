//! Facts about gang operations and subgroup collectives that every stage
//! asks: operand counts, which ones give per-lane values, what a reduction
//! or scan combines lanes with and its identity.

use std::ops::RangeInclusive;

use crate::instructions::{BinaryOp, Combine, GangOp, WorkItemQuery};
use crate::types::Type;

/// What a reduction or scan gang operation computes from its lanes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Collective {
    /// `reduce_<op>`: one value for the gang (per cluster when clustered).
    Reduce,
    /// `scan_<op>`: each lane gets the combination of its lane and those below.
    Scan,
    /// `scan_excl_<op>`: each lane gets the combination of the lanes below.
    ScanExcl,
}

const COMBINES: [Combine; 11] = [
    Combine::Add,
    Combine::Mul,
    Combine::Smin,
    Combine::Smax,
    Combine::Umin,
    Combine::Umax,
    Combine::Fmin,
    Combine::Fmax,
    Combine::And,
    Combine::Or,
    Combine::Xor,
];

const REDUCE: [GangOp; 11] = [
    GangOp::ReduceAdd,
    GangOp::ReduceMul,
    GangOp::ReduceSmin,
    GangOp::ReduceSmax,
    GangOp::ReduceUmin,
    GangOp::ReduceUmax,
    GangOp::ReduceFmin,
    GangOp::ReduceFmax,
    GangOp::ReduceAnd,
    GangOp::ReduceOr,
    GangOp::ReduceXor,
];

const SCAN: [GangOp; 11] = [
    GangOp::ScanAdd,
    GangOp::ScanMul,
    GangOp::ScanSmin,
    GangOp::ScanSmax,
    GangOp::ScanUmin,
    GangOp::ScanUmax,
    GangOp::ScanFmin,
    GangOp::ScanFmax,
    GangOp::ScanAnd,
    GangOp::ScanOr,
    GangOp::ScanXor,
];

const SCAN_EXCL: [GangOp; 11] = [
    GangOp::ScanExclAdd,
    GangOp::ScanExclMul,
    GangOp::ScanExclSmin,
    GangOp::ScanExclSmax,
    GangOp::ScanExclUmin,
    GangOp::ScanExclUmax,
    GangOp::ScanExclFmin,
    GangOp::ScanExclFmax,
    GangOp::ScanExclAnd,
    GangOp::ScanExclOr,
    GangOp::ScanExclXor,
];

impl GangOp {
    /// For a reduction or scan: which one, and what it combines lanes with.
    pub fn collective(self) -> Option<(Collective, Combine)> {
        for (kind, table) in [
            (Collective::Reduce, &REDUCE),
            (Collective::Scan, &SCAN),
            (Collective::ScanExcl, &SCAN_EXCL),
        ] {
            if let Some(i) = table.iter().position(|&op| op == self) {
                return Some((kind, COMBINES[i]));
            }
        }
        None
    }

    /// The reduction or scan of `kind` combining lanes with `combine`.
    pub fn of_collective(kind: Collective, combine: Combine) -> GangOp {
        let i = COMBINES
            .iter()
            .position(|&c| c == combine)
            .expect("every combine is listed");
        match kind {
            Collective::Reduce => REDUCE[i],
            Collective::Scan => SCAN[i],
            Collective::ScanExcl => SCAN_EXCL[i],
        }
    }

    /// How many operands the gang operation takes (in `Gang`).
    pub fn arity(self) -> RangeInclusive<usize> {
        match self {
            GangOp::LaneId | GangOp::ActiveLanes => 0..=0,
            GangOp::Any | GangOp::All | GangOp::FirstLane | GangOp::Count | GangOp::Ballot => 1..=1,
            GangOp::Broadcast | GangOp::Shuffle => 2..=2,
            _ => match self.collective() {
                Some((Collective::Reduce, _)) => 2..=3,
                _ => 2..=2,
            },
        }
    }

    /// How many operands the operation takes as a subgroup collective (in
    /// `SubGroup`: the gang operation's without the mask), or `None` if it
    /// is not one.
    pub fn sub_group_arity(self) -> Option<RangeInclusive<usize>> {
        match self {
            GangOp::Any | GangOp::All | GangOp::Ballot => Some(1..=1),
            GangOp::Broadcast | GangOp::Shuffle => Some(2..=2),
            GangOp::LaneId | GangOp::ActiveLanes | GangOp::FirstLane | GangOp::Count => None,
            _ => match self.collective() {
                Some((Collective::Reduce, _)) => Some(1..=2),
                _ => Some(1..=1),
            },
        }
    }

    /// True if the gang operation with `args` operands gives a per-lane
    /// value (`<T>`) rather than a uniform one.
    pub fn gives_per_lane(self, args: usize) -> bool {
        match self {
            GangOp::LaneId | GangOp::ActiveLanes | GangOp::Shuffle => true,
            _ => match self.collective() {
                Some((Collective::Reduce, _)) => args == 3,
                Some(_) => true,
                None => false,
            },
        }
    }
}

impl Combine {
    /// The two-operand operation that combines two values, for floats
    /// (`float`) or integers.
    pub fn binary_op(self, float: bool) -> BinaryOp {
        match (self, float) {
            (Combine::Add, true) => BinaryOp::Fadd,
            (Combine::Mul, true) => BinaryOp::Fmul,
            (Combine::Add, false) => BinaryOp::Iadd,
            (Combine::Mul, false) => BinaryOp::Imul,
            (Combine::Smin, _) => BinaryOp::Smin,
            (Combine::Smax, _) => BinaryOp::Smax,
            (Combine::Umin, _) => BinaryOp::Umin,
            (Combine::Umax, _) => BinaryOp::Umax,
            (Combine::Fmin, _) => BinaryOp::Fmin,
            (Combine::Fmax, _) => BinaryOp::Fmax,
            (Combine::And, _) => BinaryOp::Band,
            (Combine::Or, _) => BinaryOp::Bor,
            (Combine::Xor, _) => BinaryOp::Bxor,
        }
    }

    /// True if the operation applies to values of `ty`.
    pub fn applies_to(self, ty: Type) -> bool {
        match self {
            Combine::Add | Combine::Mul => ty.is_float() || (ty.is_int() && ty != Type::I1),
            Combine::Fmin | Combine::Fmax => ty.is_float(),
            _ => ty.is_int() && ty != Type::I1,
        }
    }

    /// The identity's bits in `ty` (see [`GangOp`]).
    pub fn identity(self, ty: Type) -> u64 {
        let bits = ty.bits();
        let ones = ty.int_mask();
        let (one, inf) = match ty {
            Type::F16 => (0x3c00, 0x7c00),
            Type::F32 => (0x3f80_0000, 0x7f80_0000),
            Type::F64 => (0x3ff0_0000_0000_0000, 0x7ff0_0000_0000_0000),
            _ => (1, 0),
        };
        let sign = 1u64 << (bits - 1);
        match self {
            Combine::Add | Combine::Or | Combine::Xor | Combine::Umax => 0,
            Combine::Mul => one,
            Combine::And | Combine::Umin => ones,
            Combine::Smin => ones >> 1,
            Combine::Smax => sign,
            Combine::Fmin => inf,
            Combine::Fmax => inf | sign,
        }
    }
}

impl WorkItemQuery {
    /// True for the subgroup queries.
    pub fn is_sub_group(self) -> bool {
        matches!(
            self,
            WorkItemQuery::SubGroupSize
                | WorkItemQuery::MaxSubGroupSize
                | WorkItemQuery::NumSubGroups
                | WorkItemQuery::EnqueuedNumSubGroups
                | WorkItemQuery::SubGroupId
                | WorkItemQuery::SubGroupLocalId
        )
    }

    /// The result type: `i32` for `work_dim` and the subgroup queries,
    /// `i64` (`size_t`) for the others.
    pub fn result_type(self) -> Type {
        if self == WorkItemQuery::WorkDim || self.is_sub_group() {
            Type::I32
        } else {
            Type::I64
        }
    }
}
