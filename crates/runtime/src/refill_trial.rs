//! Lane refill under `auto`: the compiler's cost model proposes refill for
//! a kernel (a divergent loop whose trip count depends on loaded data), and
//! the first launches check that it pays. While undecided, a launch runs
//! alternate runs of work-groups with the kernel compiled without and with
//! refill, and times each (per work-group); once both have run enough, the
//! faster by the median of their runs (refill only if clearly faster) is
//! kept for the program's later launches of that kernel, local size and
//! width. The median, not the total: on a shared machine some runs are
//! slowed by other work, and one decision stays for good.

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
const MIN_RUNS: usize = 8;
/// Time each variant must have taken before deciding, in nanoseconds.
const MIN_NANOS: f64 = 2e6;
/// Refill is kept only if its median time per work-group is below this
/// fraction of the median without it.
const MARGIN: f64 = 0.9;

#[derive(Debug, Default)]
struct Trial {
    /// Per variant (0 without refill, 1 with): nanoseconds per work-group
    /// of each run, and the nanoseconds of all runs.
    per_group: [Vec<f64>; 2],
    total: [f64; 2],
    decision: Option<bool>,
}

/// One timed run of work-groups.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Run {
    pub nanos: f64,
    pub groups: u64,
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
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

    /// Adds a launch's timed runs for `key` without refill (`off`) and with
    /// it (`on`), and decides once there are enough.
    pub fn record(&self, key: TrialKey, off: &[Run], on: &[Run]) {
        let mut trials = self.trials.lock().unwrap_or_else(|e| e.into_inner());
        let t = trials.entry(key).or_default();
        if t.decision.is_some() {
            return;
        }
        for (i, runs) in [off, on].into_iter().enumerate() {
            t.per_group[i].extend(runs.iter().map(|r| r.nanos / r.groups.max(1) as f64));
            t.total[i] += runs.iter().map(|r| r.nanos).sum::<f64>();
        }
        let enough = (0..2).all(|i| t.per_group[i].len() >= MIN_RUNS && t.total[i] >= MIN_NANOS);
        if enough {
            t.decision = Some(median(&t.per_group[1]) < MARGIN * median(&t.per_group[0]));
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

    /// `n` runs of 10 groups taking `nanos` each.
    fn runs(n: usize, nanos: f64) -> Vec<Run> {
        vec![Run { nanos, groups: 10 }; n]
    }

    #[test]
    fn decides_once_both_ran_enough() {
        let trials = RefillTrials::default();
        trials.record(key(), &runs(2, MIN_NANOS / 4.0), &runs(2, MIN_NANOS / 8.0));
        assert_eq!(trials.decision(&key()), None);
        // Runs enough, but not long enough in all.
        trials.record(key(), &runs(8, 1.0), &runs(8, 0.5));
        assert_eq!(trials.decision(&key()), None);
        trials.record(key(), &runs(8, MIN_NANOS), &runs(8, MIN_NANOS / 2.0));
        assert_eq!(trials.decision(&key()), Some(true));
        // Decided: later timings change nothing.
        trials.record(key(), &runs(20, 1.0), &runs(20, 100.0 * MIN_NANOS));
        assert_eq!(trials.decision(&key()), Some(true));
    }

    #[test]
    fn refill_must_be_clearly_faster() {
        let trials = RefillTrials::default();
        trials.record(key(), &runs(10, MIN_NANOS), &runs(10, 0.95 * MIN_NANOS));
        assert_eq!(trials.decision(&key()), Some(false));
    }

    #[test]
    fn a_few_disturbed_runs_do_not_decide() {
        // Refill is twice as fast, but three of its ten runs were slowed
        // down a hundredfold by other work on the machine.
        let trials = RefillTrials::default();
        let mut on = runs(7, MIN_NANOS / 2.0);
        on.extend(runs(3, 100.0 * MIN_NANOS));
        trials.record(key(), &runs(10, MIN_NANOS), &on);
        assert_eq!(trials.decision(&key()), Some(true));
    }
}
