//! Transforms: passes that rewrite Lockstep IR into Lockstep IR, one module
//! per action, each with one entry point named for it.
//!
//! [`crate::pipeline`] runs them in order for one kernel specialization and
//! verifies the IR after each. Each module's doc says what the pass needs
//! (analyses it takes or computes) and what it changes.

pub mod layout_private;
pub mod linearize;
pub mod lower_switch;
pub mod refill;
pub mod remove_unreachable;
pub mod split_barriers;
pub mod split_critical_edges;
mod ssa;
pub mod unify_returns;

pub use layout_private::layout_private;
pub use linearize::linearize;
pub use lower_switch::lower_switch;
pub use refill::refill;
pub use remove_unreachable::remove_unreachable;
pub use split_barriers::{check_split, split_barriers};
pub use split_critical_edges::split_critical_edges;
pub use unify_returns::unify_returns;
