//! Variant trials: which of a kernel's compiled forms runs fastest is
//! sometimes a question of its data, so the compiler only proposes
//! candidates and the first launches measure them. The forms: the gang at
//! its natural width (the baseline), with lane refill (proposed under
//! `auto` for a divergent loop whose trip count depends on loaded data),
//! one lane per gang (scalar code, proposed for a kernel with divergent
//! branches in a loop: `lockstep_passes::analysis::gang_width`), and the
//! gang at twice its width (proposed for the same kernels when the width
//! estimate keeps the natural width).
//!
//! While undecided, a launch runs alternate runs of work-groups with each
//! form and times each (per work-group); once every form has run enough,
//! the fastest by the median of its runs is kept for the program's later
//! launches of that kernel and local size, a candidate only if clearly
//! faster than the baseline. The median, not the total: on a shared machine
//! some runs are slowed by other work, and one decision stays for good.

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
pub(crate) const MIN_RUNS: usize = 8;
/// Time each variant must have taken before deciding, in nanoseconds.
const MIN_NANOS: f64 = 2e6;
/// A candidate is kept only if its median time per work-group is below this
/// fraction of the baseline's. Not much below 1: the workers' runs of the
/// forms overlap, so a memory-bound form's gain shows compressed in the
/// trial (Black-Scholes at twice the width: 20% faster alone, 5-15% in the
/// trial, which a margin of 0.9 kept in only some launches).
const MARGIN: f64 = 0.95;
/// A candidate whose median time per work-group is above this multiple of
/// the baseline's, after two runs each, runs no more: scalar code for a
/// kernel that vectorizes well would otherwise slow the first launches
/// down severalfold.
const HOPELESS: f64 = 2.0;

#[derive(Debug, Default)]
struct Trial {
    /// Per variant (0: the baseline): nanoseconds per work-group of each
    /// run, and the nanoseconds of all runs.
    per_group: Vec<Vec<f64>>,
    total: Vec<f64>,
    decision: Option<usize>,
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

fn per_group(runs: &[Run]) -> Vec<f64> {
    runs.iter()
        .map(|r| r.nanos / r.groups.max(1) as f64)
        .collect()
}

/// True if a candidate with times per work-group `candidate` is clearly
/// slower than the baseline with `baseline` (see [`HOPELESS`]).
fn clearly_slower(candidate: &[f64], baseline: &[f64]) -> bool {
    candidate.len() >= 2 && baseline.len() >= 2 && median(candidate) > HOPELESS * median(baseline)
}

/// True if a candidate's runs in a launch so far are clearly slower than
/// the baseline's: the launch gives it no more.
pub(crate) fn hopeless(candidate: &[Run], baseline: &[Run]) -> bool {
    clearly_slower(&per_group(candidate), &per_group(baseline))
}

/// The decisions and trials of one program.
#[derive(Debug, Default)]
pub(crate) struct VariantTrials {
    trials: Mutex<HashMap<TrialKey, Trial>>,
}

impl VariantTrials {
    /// The variant found fastest for `key` (0: the baseline); `None` while
    /// undecided.
    pub fn decision(&self, key: &TrialKey) -> Option<usize> {
        let trials = self.trials.lock().unwrap_or_else(|e| e.into_inner());
        trials.get(key).and_then(|t| t.decision)
    }

    /// Adds a launch's timed runs of each variant for `key` (`runs[i]`:
    /// variant `i`'s), and decides once every variant ran enough.
    pub fn record(&self, key: TrialKey, runs: &[Vec<Run>]) {
        let mut trials = self.trials.lock().unwrap_or_else(|e| e.into_inner());
        let t = trials.entry(key).or_default();
        if t.decision.is_some() {
            return;
        }
        t.per_group.resize(runs.len(), Vec::new());
        t.total.resize(runs.len(), 0.0);
        for (i, runs) in runs.iter().enumerate() {
            t.per_group[i].extend(per_group(runs));
            t.total[i] += runs.iter().map(|r| r.nanos).sum::<f64>();
        }
        let enough = |i: usize| t.per_group[i].len() >= MIN_RUNS && t.total[i] >= MIN_NANOS;
        let out = |i: usize| clearly_slower(&t.per_group[i], &t.per_group[0]);
        if enough(0) && (1..runs.len()).all(|i| enough(i) || out(i)) {
            let medians: Vec<f64> = t.per_group.iter().map(|g| median(g)).collect();
            let best = (1..medians.len())
                .filter(|&i| !out(i) && medians[i] < MARGIN * medians[0])
                .min_by(|&a, &b| medians[a].total_cmp(&medians[b]));
            t.decision = Some(best.unwrap_or(0));
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
        let trials = VariantTrials::default();
        trials.record(key(), &[runs(2, MIN_NANOS / 4.0), runs(2, MIN_NANOS / 8.0)]);
        assert_eq!(trials.decision(&key()), None);
        // Runs enough, but not long enough in all.
        trials.record(key(), &[runs(8, 1.0), runs(8, 0.5)]);
        assert_eq!(trials.decision(&key()), None);
        trials.record(key(), &[runs(8, MIN_NANOS), runs(8, MIN_NANOS / 2.0)]);
        assert_eq!(trials.decision(&key()), Some(1));
        // Decided: later timings change nothing.
        trials.record(key(), &[runs(20, 1.0), runs(20, 100.0 * MIN_NANOS)]);
        assert_eq!(trials.decision(&key()), Some(1));
    }

    #[test]
    fn a_candidate_must_be_clearly_faster() {
        let trials = VariantTrials::default();
        trials.record(key(), &[runs(10, MIN_NANOS), runs(10, 0.97 * MIN_NANOS)]);
        assert_eq!(trials.decision(&key()), Some(0));
    }

    #[test]
    fn the_fastest_of_three_is_kept() {
        let trials = VariantTrials::default();
        trials.record(
            key(),
            &[
                runs(10, MIN_NANOS),
                runs(10, 0.7 * MIN_NANOS),
                runs(10, 0.4 * MIN_NANOS),
            ],
        );
        assert_eq!(trials.decision(&key()), Some(2));
        let trials = VariantTrials::default();
        trials.record(
            key(),
            &[
                runs(10, MIN_NANOS),
                runs(10, 0.5 * MIN_NANOS),
                runs(10, 2.0 * MIN_NANOS),
            ],
        );
        assert_eq!(trials.decision(&key()), Some(1));
    }

    #[test]
    fn a_clearly_slower_candidate_is_out_after_two_runs() {
        let trials = VariantTrials::default();
        let (base, slow) = (runs(10, MIN_NANOS), runs(2, 5.0 * MIN_NANOS));
        assert!(hopeless(&slow, &base));
        assert!(!hopeless(&slow[..1], &base));
        trials.record(
            key(),
            &[base.clone(), slow.clone(), runs(10, 0.5 * MIN_NANOS)],
        );
        assert_eq!(trials.decision(&key()), Some(2));
        let trials = VariantTrials::default();
        trials.record(key(), &[base, slow]);
        assert_eq!(trials.decision(&key()), Some(0));
    }

    #[test]
    fn a_few_disturbed_runs_do_not_decide() {
        // The candidate is twice as fast, but three of its ten runs were
        // slowed down a hundredfold by other work on the machine.
        let trials = VariantTrials::default();
        let mut on = runs(7, MIN_NANOS / 2.0);
        on.extend(runs(3, 100.0 * MIN_NANOS));
        trials.record(key(), &[runs(10, MIN_NANOS), on]);
        assert_eq!(trials.decision(&key()), Some(1));
    }
}
