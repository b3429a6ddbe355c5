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
//! While undecided, a launch times blocks of consecutive runs of
//! work-groups spread evenly over its range ([`Sampling`]): in each block
//! every form runs once, on neighbouring groups. A candidate's measure is
//! its time per work-group divided by the baseline's in the same block, so
//! that both are measured on similar data: a kernel's cost often varies
//! over its range (mandelbrot's rows inside the set cost many times those
//! outside), and comparing runs from different parts of the range, as
//! whole medians would, can make a slower form look faster. Once every
//! form has enough blocks, the candidate with the lowest median ratio is
//! kept for the program's later launches of that kernel and local size if
//! clearly below 1; otherwise the baseline. The median, not the mean: on a
//! shared machine some runs are slowed by other work, and one decision
//! stays for good.

use std::collections::HashMap;
use std::sync::Mutex;

use lockstep_ir::FuncId;
use lockstep_passes::pipeline::Linearization;

use crate::RefillMode;

/// What a decision is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TrialKey {
    pub func: FuncId,
    pub local: [u64; 3],
    pub width: u32,
    pub linearization: Linearization,
}

/// One of a kernel's compiled forms.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Form {
    pub refill: RefillMode,
    pub width: u32,
}

/// Blocks in which every form must have run before deciding.
pub(crate) const MIN_BLOCKS: usize = 8;
/// Time each form must have taken before deciding, in nanoseconds.
const MIN_NANOS: f64 = 2e6;
/// A candidate is kept only if its median ratio to the baseline is below
/// this. Not much below 1: the workers' runs of the forms overlap, so a
/// memory-bound form's gain shows compressed in the trial (Black-Scholes
/// at twice the width: 20% faster alone, 5-15% in the trial).
const MARGIN: f64 = 0.95;
/// A candidate whose median ratio to the baseline is above this after two
/// blocks runs no more: scalar code for a kernel that vectorizes well
/// would otherwise slow the first launches down severalfold.
const HOPELESS: f64 = 2.0;

/// One timed run of work-groups.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Run {
    pub nanos: f64,
    pub groups: u64,
}

impl Run {
    fn per_group(self) -> f64 {
        self.nanos / self.groups.max(1) as f64
    }
}

fn median(xs: &[f64]) -> f64 {
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Which of a launch's runs of work-groups are timed, and with which form:
/// `blocks` blocks of `forms` consecutive runs, the blocks spread evenly
/// over the launch's `runs`; block `b` runs form `(j + b) % forms` as its
/// run `j`, so that no form always comes first. Other runs take the
/// baseline, untimed.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Sampling {
    runs: u64,
    forms: u64,
    blocks: u64,
}

impl Sampling {
    pub fn new(runs: u64, forms: usize) -> Sampling {
        let forms = forms.max(1) as u64;
        Sampling {
            runs,
            forms,
            blocks: (runs / forms).min(MIN_BLOCKS as u64),
        }
    }

    pub fn blocks(&self) -> usize {
        self.blocks as usize
    }

    fn start(&self, block: u64) -> u64 {
        block * self.runs / self.blocks
    }

    /// The block and the form of run `r`, if timed.
    pub fn slot(&self, r: u64) -> Option<(usize, usize)> {
        if self.blocks == 0 || r >= self.runs {
            return None;
        }
        // The last block starting at or before `r` (start(b) <= r exactly
        // when b * runs < (r + 1) * blocks); blocks start at least `forms`
        // runs apart, so no other can hold `r`.
        let block = ((r + 1) * self.blocks - 1) / self.runs;
        let j = r - self.start(block);
        (j < self.forms).then(|| (block as usize, ((j + block) % self.forms) as usize))
    }
}

/// A launch's timed runs: `runs[block][form]`.
pub(crate) type Blocks = Vec<Vec<Option<Run>>>;

/// The ratios of form `form`'s time per work-group to the baseline's
/// (form 0) in the blocks where both ran.
fn ratios(blocks: &Blocks, form: usize) -> impl Iterator<Item = f64> + '_ {
    blocks.iter().filter_map(move |b| match (b[0], b[form]) {
        (Some(base), Some(run)) => Some(run.per_group() / base.per_group()),
        _ => None,
    })
}

fn clearly_slower(ratios: &[f64]) -> bool {
    ratios.len() >= 2 && median(ratios) > HOPELESS
}

/// True if a candidate's runs in a launch so far are clearly slower than
/// the baseline's: the launch gives it no more.
pub(crate) fn hopeless(blocks: &Blocks, form: usize) -> bool {
    clearly_slower(&ratios(blocks, form).collect::<Vec<_>>())
}

/// What the trial of one key has measured of one candidate form.
#[derive(Debug, Default)]
struct Measured {
    ratios: Vec<f64>,
    nanos: f64,
}

#[derive(Debug, Default)]
struct Trial {
    baseline_nanos: f64,
    candidates: HashMap<Form, Measured>,
    decision: Option<Form>,
}

/// The decisions and trials of one program.
#[derive(Debug, Default)]
pub(crate) struct VariantTrials {
    trials: Mutex<HashMap<TrialKey, Trial>>,
}

impl VariantTrials {
    /// The form found fastest for `key`; `None` while undecided.
    pub fn decision(&self, key: &TrialKey) -> Option<Form> {
        let trials = self.trials.lock().unwrap_or_else(|e| e.into_inner());
        trials.get(key).and_then(|t| t.decision)
    }

    /// Adds a launch's timed blocks of the forms `forms` (the baseline
    /// first) for `key`, and decides once every candidate ran enough.
    /// Returns, when it decides, each candidate with its median time
    /// relative to the baseline and the number of blocks it ran, and the
    /// form kept.
    pub fn record(
        &self,
        key: TrialKey,
        forms: &[Form],
        blocks: &Blocks,
    ) -> Option<(Vec<(Form, f64, usize)>, Form)> {
        let mut trials = self.trials.lock().unwrap_or_else(|e| e.into_inner());
        let t = trials.entry(key).or_default();
        if t.decision.is_some() || forms.is_empty() {
            return None;
        }
        let nanos =
            |form: usize| -> f64 { blocks.iter().filter_map(|b| b[form]).map(|r| r.nanos).sum() };
        t.baseline_nanos += nanos(0);
        for (i, &form) in forms.iter().enumerate().skip(1) {
            let m = t.candidates.entry(form).or_default();
            m.ratios.extend(ratios(blocks, i));
            m.nanos += nanos(i);
        }
        let measured: Vec<(Form, &Measured)> =
            forms[1..].iter().map(|f| (*f, &t.candidates[f])).collect();
        let enough = |m: &Measured| m.ratios.len() >= MIN_BLOCKS && m.nanos >= MIN_NANOS;
        let out = |m: &Measured| clearly_slower(&m.ratios);
        if t.baseline_nanos >= MIN_NANOS && measured.iter().all(|(_, m)| enough(m) || out(m)) {
            let best = measured
                .iter()
                .filter(|(_, m)| !out(m))
                .map(|(f, m)| (*f, median(&m.ratios)))
                .filter(|&(_, ratio)| ratio < MARGIN)
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let kept = best.map_or(forms[0], |(f, _)| f);
            t.decision = Some(kept);
            let medians = measured
                .iter()
                .map(|(f, m)| (*f, median(&m.ratios), m.ratios.len()))
                .collect();
            return Some((medians, kept));
        }
        None
    }
}

impl std::fmt::Display for Form {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.width {
            1 => write!(f, "one lane per gang"),
            w => write!(f, "width {w}, refill {}", self.refill.name()),
        }
    }
}

/// With `LOCKSTEP_TRIALS=1`, prints a decision to stderr: the kernel, the
/// forms measured against the baseline and the one kept.
pub(crate) fn log_decision(
    kernel: &str,
    key: &TrialKey,
    baseline: Form,
    measured: &[(Form, f64, usize)],
    kept: Form,
) {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if !*ON.get_or_init(|| std::env::var("LOCKSTEP_TRIALS").is_ok_and(|v| v == "1")) {
        return;
    }
    let [x, y, z] = key.local;
    let mut line =
        format!("lockstep: kernel {kernel}, local size {x}x{y}x{z}: baseline {baseline}");
    for (form, ratio, blocks) in measured {
        line += &format!("; {form}: {ratio:.2}x its time ({blocks} blocks)");
    }
    eprintln!("{line}; kept {kept}");
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

    fn forms(n: u32) -> Vec<Form> {
        [8, 1, 16]
            .into_iter()
            .take(n as usize)
            .map(|width| Form {
                refill: RefillMode::Off,
                width,
            })
            .collect()
    }

    /// `n` blocks in which form `i` took `nanos[i]` for 10 groups (`None`:
    /// did not run).
    fn blocks(n: usize, nanos: &[Option<f64>]) -> Blocks {
        let row = nanos
            .iter()
            .map(|t| t.map(|nanos| Run { nanos, groups: 10 }))
            .collect::<Vec<_>>();
        vec![row; n]
    }

    #[test]
    fn sampling_spreads_blocks_of_every_form_over_the_launch() {
        let s = Sampling::new(32, 2);
        assert_eq!(s.blocks(), MIN_BLOCKS);
        let slots: Vec<_> = (0..32).map(|r| s.slot(r)).collect();
        assert_eq!(slots[0], Some((0, 0)));
        assert_eq!(slots[1], Some((0, 1)));
        assert_eq!(slots[2], None);
        assert_eq!(slots[4], Some((1, 1)));
        assert_eq!(slots[5], Some((1, 0)));
        assert_eq!(slots[28], Some((7, 1)));
        for block in 0..MIN_BLOCKS {
            for form in 0..2 {
                let n = slots.iter().filter(|&&s| s == Some((block, form))).count();
                assert_eq!(n, 1, "block {block} form {form}");
            }
        }
        // Fewer runs than blocks of every form: as many whole blocks as fit.
        let s = Sampling::new(7, 3);
        assert_eq!(s.blocks(), 2);
        let timed = (0..7).filter_map(|r| s.slot(r)).count();
        assert_eq!(timed, 6);
        for runs in 0..200 {
            for forms in 1..5 {
                let s = Sampling::new(runs, forms);
                let mut seen = vec![vec![0; forms]; s.blocks()];
                for r in 0..runs {
                    if let Some((block, form)) = s.slot(r) {
                        seen[block][form] += 1;
                    }
                }
                assert!(
                    seen.iter().flatten().all(|&n| n == 1),
                    "{runs} runs, {forms} forms"
                );
            }
        }
        assert_eq!(Sampling::new(2, 3).blocks(), 0);
        assert_eq!(Sampling::new(2, 3).slot(0), None);
    }

    #[test]
    fn decides_once_every_form_ran_enough() {
        let trials = VariantTrials::default();
        let f = forms(2);
        trials.record(
            key(),
            &f,
            &blocks(2, &[Some(MIN_NANOS), Some(MIN_NANOS / 2.0)]),
        );
        assert_eq!(trials.decision(&key()), None);
        // Blocks enough, but not long enough.
        let mut t = VariantTrials::default();
        t.record(key(), &f, &blocks(8, &[Some(1.0), Some(0.5)]));
        assert_eq!(t.decision(&key()), None);
        t = trials;
        t.record(
            key(),
            &f,
            &blocks(6, &[Some(MIN_NANOS), Some(MIN_NANOS / 2.0)]),
        );
        assert_eq!(t.decision(&key()), Some(f[1]));
        // Decided: later timings change nothing.
        t.record(
            key(),
            &f,
            &blocks(20, &[Some(1.0), Some(100.0 * MIN_NANOS)]),
        );
        assert_eq!(t.decision(&key()), Some(f[1]));
    }

    #[test]
    fn a_candidate_must_be_clearly_faster() {
        let trials = VariantTrials::default();
        let f = forms(2);
        trials.record(
            key(),
            &f,
            &blocks(10, &[Some(MIN_NANOS), Some(0.97 * MIN_NANOS)]),
        );
        assert_eq!(trials.decision(&key()), Some(f[0]));
    }

    #[test]
    fn the_fastest_of_three_is_kept() {
        let f = forms(3);
        let trials = VariantTrials::default();
        let t = [
            Some(MIN_NANOS),
            Some(0.7 * MIN_NANOS),
            Some(0.4 * MIN_NANOS),
        ];
        trials.record(key(), &f, &blocks(10, &t));
        assert_eq!(trials.decision(&key()), Some(f[2]));
        let trials = VariantTrials::default();
        let t = [
            Some(MIN_NANOS),
            Some(0.5 * MIN_NANOS),
            Some(2.0 * MIN_NANOS),
        ];
        trials.record(key(), &f, &blocks(10, &t));
        assert_eq!(trials.decision(&key()), Some(f[1]));
    }

    #[test]
    fn a_clearly_slower_candidate_is_out_after_two_blocks() {
        let f = forms(3);
        let mut launch = blocks(10, &[Some(MIN_NANOS), None, Some(0.5 * MIN_NANOS)]);
        assert!(!hopeless(&launch, 1));
        for b in &mut launch[..2] {
            b[1] = Some(Run {
                nanos: 5.0 * MIN_NANOS,
                groups: 10,
            });
        }
        assert!(hopeless(&launch, 1));
        assert!(!hopeless(&launch[..1].to_vec(), 1));
        let trials = VariantTrials::default();
        trials.record(key(), &f, &launch);
        assert_eq!(trials.decision(&key()), Some(f[2]));
        let trials = VariantTrials::default();
        let two: Blocks = launch.iter().map(|b| b[..2].to_vec()).collect();
        trials.record(key(), &f[..2], &two);
        assert_eq!(trials.decision(&key()), Some(f[0]));
    }

    #[test]
    fn forms_are_compared_on_the_same_part_of_the_range() {
        // The cost varies a hundredfold over the range, and the candidate
        // is three times slower everywhere: comparing its runs with the
        // baseline's from other parts of the range could favour it, the
        // ratios per block do not.
        let trials = VariantTrials::default();
        let f = forms(2);
        let launch: Blocks = (0..10)
            .map(|b| {
                let cost = if b % 2 == 0 {
                    MIN_NANOS
                } else {
                    100.0 * MIN_NANOS
                };
                let run = |nanos| Some(Run { nanos, groups: 10 });
                vec![run(cost), run(3.0 * cost)]
            })
            .collect();
        trials.record(key(), &f, &launch);
        assert_eq!(trials.decision(&key()), Some(f[0]));
    }

    #[test]
    fn a_few_disturbed_blocks_do_not_decide() {
        // The candidate is twice as fast, but three of its ten runs were
        // slowed down a hundredfold by other work on the machine.
        let trials = VariantTrials::default();
        let f = forms(2);
        let mut launch = blocks(7, &[Some(MIN_NANOS), Some(MIN_NANOS / 2.0)]);
        launch.extend(blocks(3, &[Some(MIN_NANOS), Some(100.0 * MIN_NANOS)]));
        trials.record(key(), &f, &launch);
        assert_eq!(trials.decision(&key()), Some(f[1]));
    }
}
