//! Lane refill under `auto`: the compiler's cost model proposes refill for
//! a kernel (a divergent loop whose trip count depends on loaded data), and
//! the first launches check that it pays. While undecided, a launch runs
//! alternate runs of work-groups with the kernel compiled without and with
//! refill, and times each; once both have run enough groups, the faster
//! (refill only if clearly faster) is kept for the program's later launches
//! of that kernel, local size and width.

use std::collections::HashMap;
use std::sync::Mutex;

use lockstep_ir::FuncId;
use lockstep_passes::pipeline::Linearization;

/// What a decision is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TrialKey {
    pub func: FuncId,
    pub local: [u64; 3],
    pub width: u32,
    pub linearization: Linearization,
}

/// Runs of work-groups each variant must have run before deciding.
const MIN_RUNS: u64 = 8;
/// Time each variant must have taken before deciding, in nanoseconds.
const MIN_NANOS: u64 = 2_000_000;
/// Refill is kept only if its time per work-group is below this fraction of
/// the time without it.
const MARGIN: f64 = 0.9;

/// Timings so far: index 0 without refill, 1 with.
#[derive(Clone, Debug, Default)]
pub(crate) struct Samples {
    pub nanos: [u64; 2],
    pub groups: [u64; 2],
    pub runs: [u64; 2],
}

#[derive(Debug, Default)]
struct Trial {
    samples: Samples,
    decision: Option<bool>,
}

/// The decisions and trials of one program.
#[derive(Debug, Default)]
pub(crate) struct RefillTrials {
    trials: Mutex<HashMap<TrialKey, Trial>>,
}

impl RefillTrials {
    /// Whether refill was found to pay for `key`; `None` while undecided.
    pub fn decision(&self, key: &TrialKey) -> Option<bool> {
        let trials = self.trials.lock().unwrap_or_else(|e| e.into_inner());
        trials.get(key).and_then(|t| t.decision)
    }

    /// Adds a launch's timings for `key`, and decides once there are enough.
    pub fn record(&self, key: TrialKey, s: &Samples) {
        let mut trials = self.trials.lock().unwrap_or_else(|e| e.into_inner());
        let t = trials.entry(key).or_default();
        if t.decision.is_some() {
            return;
        }
        for i in 0..2 {
            t.samples.nanos[i] += s.nanos[i];
            t.samples.groups[i] += s.groups[i];
            t.samples.runs[i] += s.runs[i];
        }
        let s = &t.samples;
        let enough = (0..2).all(|i| s.runs[i] >= MIN_RUNS && s.nanos[i] >= MIN_NANOS);
        if enough {
            let per_group = |i: usize| s.nanos[i] as f64 / s.groups[i].max(1) as f64;
            t.decision = Some(per_group(1) < MARGIN * per_group(0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> TrialKey {
        TrialKey {
            func: FuncId::from_u32(0),
            local: [64, 1, 1],
            width: 8,
            linearization: Linearization::Masks,
        }
    }

    fn samples(off: u64, on: u64) -> Samples {
        Samples {
            nanos: [off, on],
            groups: [100, 100],
            runs: [10, 10],
        }
    }

    #[test]
    fn decides_once_both_ran_enough() {
        let trials = RefillTrials::default();
        let few = Samples {
            nanos: [MIN_NANOS, MIN_NANOS / 2],
            groups: [4, 4],
            runs: [2, 2],
        };
        trials.record(key(), &few);
        assert_eq!(trials.decision(&key()), None);
        trials.record(key(), &samples(10 * MIN_NANOS, 3 * MIN_NANOS));
        assert_eq!(trials.decision(&key()), Some(true));
        // Decided: later timings change nothing.
        trials.record(key(), &samples(MIN_NANOS, 100 * MIN_NANOS));
        assert_eq!(trials.decision(&key()), Some(true));
    }

    #[test]
    fn refill_must_be_clearly_faster() {
        let trials = RefillTrials::default();
        trials.record(key(), &samples(10 * MIN_NANOS, 95 * MIN_NANOS / 10));
        assert_eq!(trials.decision(&key()), Some(false));
    }
}
