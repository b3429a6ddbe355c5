//! The pass pipeline: the transforms, in order, that take a kernel from the
//! front end's IR to the form code generation translates, for one
//! specialization (local size, SIMD width).
//!
//! Like rustc's `run_passes` and Cranelift's `Context::compile`: each pass
//! runs, the function's [`Phase`] advances where a pass establishes a new
//! one, the verifier checks the result (always in debug builds and tests,
//! on request in release builds), and an observer may look at the IR after
//! any pass (`lockstep compile --dump-after PASS`).
//!
//! | pass | phase after | what it does |
//! |---|---|---|
//! | `remove_unreachable` | imported | drops blocks the entry cannot reach |
//! | `unify_returns` | imported | one `return` |
//! | `lower_switch` | normalized | `switch` on varying values → `brif` chains and search trees |
//! | `split_barriers` | split | `barrier` → `suspend` passing the live state |
//! | `refill` | split | lanes take new work-items as theirs finish (when [`RefillMode`] and the cost model say so) |
//! | `linearize` | linearized | gang-level IR: divergent branches → per-block masks or block-IP |
//! | `layout_private` | linearized | private arrays interleaved across lanes where accesses allow |
//!
//! `split_critical_edges` (normalized) is a pass of its own, not run yet
//! (see [`Pass::PIPELINE`]).

use std::fmt;

use lockstep_ir::{function_to_string, verify_function, FuncId, Function, Module, Phase};

use crate::analysis::{refill_choice, Uniformity, UniformityConfig};
use crate::transform;

/// How divergent control flow is linearized: the `linearize` pass's
/// schemes (per-block masks, the default, or block-IP).
pub use crate::transform::linearize::Scheme as Linearization;

/// Whether kernels run with lane refill (`--refill`).
pub use crate::analysis::RefillMode;

/// What a kernel is specialized on: the pipeline runs, and a back end
/// compiles, one kernel per local size, SIMD width and linearization.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    /// The work-group size the code runs (each dimension ≥ 1).
    pub local_size: [u32; 3],
    /// Work-items per gang: 4, 8, 16 or 32.
    pub width: u32,
    /// How divergent control flow is linearized.
    pub linearization: Linearization,
    /// Whether the kernel may run with lane refill.
    pub refill: RefillMode,
    /// Every buffer the kernel's pointer arguments point to is smaller than
    /// 2 GiB, so per-lane addresses into one can be 32-bit offsets from an
    /// address in it ([`crate::analysis::Gathers`]).
    pub small_buffers: bool,
    /// Checked mode: the code generator checks every memory access against
    /// the object its pointer came from (see `lockstep_ir::abi::CheckInfo`).
    /// The passes run as without it.
    pub checked: bool,
}

impl Spec {
    /// A specialization with the default linearization and refill mode,
    /// for buffers of any size.
    pub fn new(local_size: [u32; 3], width: u32) -> Spec {
        Spec {
            local_size,
            width,
            linearization: Linearization::default(),
            refill: RefillMode::default(),
            small_buffers: false,
            checked: false,
        }
    }

    /// The choices the passes follow.
    pub fn settings(&self) -> Settings {
        Settings {
            linearization: self.linearization,
            refill: self.refill,
        }
    }
}

/// What the passes are told besides the specialization's sizes: how to
/// linearize and whether lane refill may run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Settings {
    pub linearization: Linearization,
    pub refill: RefillMode,
}

/// One pass of the pipeline.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pass {
    RemoveUnreachable,
    UnifyReturns,
    LowerSwitch,
    SplitCriticalEdges,
    SplitBarriers,
    Refill,
    Linearize,
    LayoutPrivate,
}

impl Pass {
    /// Every pass, in pipeline order.
    pub const ALL: [Pass; 8] = [
        Pass::RemoveUnreachable,
        Pass::UnifyReturns,
        Pass::LowerSwitch,
        Pass::SplitCriticalEdges,
        Pass::SplitBarriers,
        Pass::Refill,
        Pass::Linearize,
        Pass::LayoutPrivate,
    ];

    /// The passes the pipeline runs, in order. `split_critical_edges` is not
    /// among them yet: the code generator's linearization routes lanes
    /// along each edge itself, and every extra block costs it a mask test
    /// (measured with `lockstep-bench --only mandelbrot,ao,parser`, as
    /// speedup over pocl in the same run, without -> with the split: AO
    /// 5.4x -> 3.8x, mandelbrot 5.5x -> 4.9x, parser 0.40x -> 0.37x); the
    /// `linearize` pass will need it.
    pub const PIPELINE: [Pass; 7] = [
        Pass::RemoveUnreachable,
        Pass::UnifyReturns,
        Pass::LowerSwitch,
        Pass::SplitBarriers,
        Pass::Refill,
        Pass::Linearize,
        Pass::LayoutPrivate,
    ];

    /// The pass's name: its module, and what `--dump-after` takes.
    pub fn name(self) -> &'static str {
        match self {
            Pass::RemoveUnreachable => "remove_unreachable",
            Pass::UnifyReturns => "unify_returns",
            Pass::LowerSwitch => "lower_switch",
            Pass::SplitCriticalEdges => "split_critical_edges",
            Pass::SplitBarriers => "split_barriers",
            Pass::Refill => "refill",
            Pass::Linearize => "linearize",
            Pass::LayoutPrivate => "layout_private",
        }
    }

    pub fn from_name(name: &str) -> Option<Pass> {
        Pass::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The phase the function is in once this pass (and those before it)
    /// ran.
    pub fn phase_after(self) -> Phase {
        match self {
            Pass::RemoveUnreachable | Pass::UnifyReturns => Phase::Imported,
            Pass::LowerSwitch | Pass::SplitCriticalEdges => Phase::Normalized,
            Pass::SplitBarriers | Pass::Refill => Phase::Split,
            Pass::Linearize | Pass::LayoutPrivate => Phase::Linearized,
        }
    }

    /// Runs this pass on `func`, specialized for `config`, following
    /// `settings` (`linearize` its scheme, `refill` its mode).
    pub fn run(self, func: &mut Function, config: &UniformityConfig, settings: Settings) {
        match self {
            Pass::RemoveUnreachable => transform::remove_unreachable(func),
            Pass::UnifyReturns => transform::unify_returns(func),
            Pass::LowerSwitch => {
                let uniformity = Uniformity::for_function(func, config);
                transform::lower_switch(func, &uniformity)
            }
            Pass::SplitCriticalEdges => transform::split_critical_edges(func),
            Pass::SplitBarriers => transform::split_barriers(func),
            Pass::Refill => {
                if refill_choice(func, config, settings.refill).refill {
                    transform::refill(func, config.local_size)
                }
            }
            Pass::Linearize => {
                let uniformity = Uniformity::for_function(func, config);
                transform::linearize(func, &uniformity, settings.linearization)
            }
            Pass::LayoutPrivate => transform::layout_private(func),
        }
        func.phase = func.phase.max(self.phase_after());
    }
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A pass left invalid IR: always a compiler bug.
#[derive(Debug, thiserror::Error)]
#[error("internal compiler error: after pass {pass}, @{function} is invalid:\n{errors}\n{ir}")]
pub struct PipelineError {
    pub pass: Pass,
    pub function: String,
    pub errors: String,
    /// The function as the pass left it.
    pub ir: String,
}

/// Looks at the function after a pass (`--dump-after`).
pub type Observer<'a> = &'a mut dyn FnMut(Pass, &Function);

/// Options of one pipeline run.
pub struct Options<'a> {
    /// Verify after every pass (always on in debug builds).
    pub verify: bool,
    /// Called after each pass with the function as it left it.
    pub observe: Option<Observer<'a>>,
    /// Stop after this pass (`None`: run them all).
    pub stop_after: Option<Pass>,
    /// How `linearize` turns divergent control flow into masks, and
    /// whether `refill` may run.
    pub settings: Settings,
}

impl Default for Options<'_> {
    fn default() -> Self {
        Options {
            verify: cfg!(debug_assertions),
            observe: None,
            stop_after: None,
            settings: Settings::default(),
        }
    }
}

/// Runs every pass on a copy of `func` (a function of `module`) for the
/// specialization `config` and returns the result.
pub fn run(
    module: &Module,
    func: &Function,
    config: &UniformityConfig,
    mut options: Options,
) -> Result<Function, PipelineError> {
    let mut func = func.clone();
    for pass in Pass::PIPELINE {
        pass.run(&mut func, config, options.settings);
        if options.verify {
            verify(module, &func, pass)?;
        }
        if let Some(observe) = options.observe.as_mut() {
            observe(pass, &func);
        }
        if options.stop_after == Some(pass) {
            break;
        }
    }
    Ok(func)
}

/// Runs one pass on `func` (a function of `module`), verified after it:
/// for a caller that chooses whether a pass runs (code generation decides
/// after `split_barriers` whether to `linearize`).
pub fn run_pass(
    module: &Module,
    func: &mut Function,
    pass: Pass,
    config: &UniformityConfig,
    settings: Settings,
) -> Result<(), PipelineError> {
    pass.run(func, config, settings);
    if cfg!(debug_assertions) {
        verify(module, func, pass)?;
    }
    Ok(())
}

/// `module` with its kernel `kernel` as the whole pipeline (verified after
/// each pass) leaves it for `config`, following `settings`: what the
/// interpreter runs to check the passes against the imported IR.
pub fn transformed_module(
    module: &Module,
    kernel: FuncId,
    config: &UniformityConfig,
    settings: Settings,
) -> Result<Module, PipelineError> {
    let options = Options {
        verify: true,
        settings,
        ..Options::default()
    };
    let func = run(module, &module.functions[kernel], config, options)?;
    let mut out = module.clone();
    out.functions[kernel] = func;
    Ok(out)
}

fn verify(module: &Module, func: &Function, pass: Pass) -> Result<(), PipelineError> {
    let mut errors = match verify_function(Some(module), func) {
        Ok(()) => String::new(),
        Err(e) => e.to_string(),
    };
    if func.phase >= Phase::Split {
        if let Err(e) = transform::check_split(func) {
            errors.push_str(&e);
        }
    }
    if errors.is_empty() {
        return Ok(());
    }
    Err(PipelineError {
        pass,
        function: func.name.clone(),
        errors,
        ir: function_to_string(Some(module), func),
    })
}
