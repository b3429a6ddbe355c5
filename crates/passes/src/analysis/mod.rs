//! Analyses of one function: facts computed from the IR and kept beside it.
//!
//! Each analysis is a noun struct with a `compute` constructor (Cranelift's
//! `DominatorTree::compute`); results live outside the IR in dense
//! `SecondaryMap`s, and are invalid once the function changes. The order of
//! dependence: [`ControlFlowGraph`] → [`DominatorTree`],
//! [`PostDominatorTree`], [`LoopForest`] → [`Uniformity`] (with
//! [`SyncDependence`]) and [`Liveness`].

pub mod cfg;
pub mod domtree;
pub mod gang_width;
pub mod gathers;
pub(crate) mod graph;
pub mod interleave;
pub mod liveness;
pub mod loops;
pub mod postdom;
pub mod prefetch;
pub mod provenance;
pub mod refill_choice;
pub mod sync;
pub mod uniformity;

pub use cfg::ControlFlowGraph;
pub use domtree::{DominanceFrontiers, DominatorTree};
pub use gang_width::{gang_width, GangWidth};
pub use gathers::{Gathers, ObjectOffset};
pub use interleave::{Interleaved, PlainStore, StoreGroup};
pub use liveness::{Liveness, ValueSet};
pub use loops::{loop_contiguous_order, Loop, LoopData, LoopForest};
pub use postdom::PostDominatorTree;
pub use prefetch::{Ahead, Prefetches, Step};
pub use provenance::{Provenance, Root};
pub use refill_choice::{refill_choice, RefillChoice, RefillMode};
pub use sync::{BranchJoins, SyncDependence};
pub use uniformity::{local_id_shape, work_item_shape, Shape, Uniformity, UniformityConfig};
