//! Tiered compilation: a kernel specialization's first launch runs code
//! compiled quickly ([`Tier::Quick`]: LLVM at a low optimization level);
//! once the kernel proves worth more (it is launched again, or a launch
//! ran longer than the quick compile took) the fully optimized code
//! ([`Tier::Full`]) is compiled on a background thread and swapped in
//! ([`crate::CompiledKernel::upgrade`]): launches after that, and the
//! work-groups a running launch has not started yet, run it. A kernel
//! launched once, briefly, costs only the quick compile (the full one
//! would add CPU time nobody gets back). The disk cache keeps no quick
//! code, but remembers that a specialization was compiled at the quick
//! tier: when a later process launches it again, it recurs, and the full
//! tier is compiled at once (and cached), so a program run again and again
//! finds all its kernels on disk from its third run on. Both tiers compile the same IR with the same
//! semantics, so results never depend on the tier; only speed does. The
//! toolchain's caches keep only the full tier, and a specialization they
//! have is used at once, without a quick tier.
//!
//! [`Tiering`] chooses (`Context::set_tiering`, by default from
//! `LOCKSTEP_TIER`): `auto` (as above), `quick` (only the quick tier: to
//! check that the tiers agree, or to compile as little as possible),
//! `full` (only the full tier, compiled before the first launch runs: what
//! Lockstep did before tiers). The setting of the launch that first
//! compiles a specialization decides for it (programs share compiled code
//! between contexts).
//!
//! Under auto, a specialization first compiled for a launch of more than
//! [`QUICK_TIER_MAX_ITEMS`] work-items is compiled at the full tier at
//! once: such a launch runs long enough that slower code (and, on few
//! cores, the background compile beside it) costs more than the compile
//! time the quick tier saves.
//!
//! Upgrades compile one at a time on one thread of their own, in the order
//! the specializations were first launched, so that a program with many
//! kernels does not start a compiler per kernel beside the application's
//! work. At process exit, upgrades not started are dropped and the one
//! being compiled is waited for (LLVM's global state is destroyed at exit,
//! under a compiler still running).

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, OnceLock};

use crate::Tier;

/// Which tiers kernel specializations compile at.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Tiering {
    /// The quick tier first (unless the toolchain has the full one cached),
    /// the full tier in the background.
    #[default]
    Auto,
    /// Only the quick tier.
    Quick,
    /// Only the full tier.
    Full,
}

/// The largest launch (in work-items) whose first compile of a
/// specialization is at the quick tier under auto. The quick tier saves
/// about two thirds of the compile time and runs code 1 to 7 times slower;
/// the launch size where both cost the same is about linear in the compile
/// time over the time per work-item. Measured on a 2-core EPYC: the
/// `parser.cl` benchmark (0.5 µs per record, 4x slower quick code, 88 ms
/// saved) breaks even near 50,000 records, Mandelbrot near 30,000 pixels,
/// `saxpy` only at millions of items.
pub const QUICK_TIER_MAX_ITEMS: u64 = 1 << 15;

impl Tiering {
    /// `LOCKSTEP_TIER`, else auto; an unknown value is reported once and
    /// means auto.
    pub(crate) fn from_env() -> Tiering {
        match std::env::var("LOCKSTEP_TIER") {
            Err(_) => Tiering::Auto,
            Ok(v) if v.is_empty() => Tiering::Auto,
            Ok(v) => v.parse().unwrap_or_else(|e| {
                static WARNED: std::sync::Once = std::sync::Once::new();
                WARNED.call_once(|| eprintln!("lockstep: LOCKSTEP_TIER: {e}; using auto"));
                Tiering::Auto
            }),
        }
    }

    /// The name `LOCKSTEP_TIER` takes.
    pub fn name(self) -> &'static str {
        match self {
            Tiering::Auto => "auto",
            Tiering::Quick => "quick",
            Tiering::Full => "full",
        }
    }

    /// What a launch of `items` work-items compiles at: auto becomes full
    /// past [`QUICK_TIER_MAX_ITEMS`].
    pub(crate) fn for_launch(self, items: u64) -> Tiering {
        match self {
            Tiering::Auto if items > QUICK_TIER_MAX_ITEMS => Tiering::Full,
            t => t,
        }
    }

    /// The tier a specialization's first compile is at.
    pub(crate) fn first(self) -> Tier {
        match self {
            Tiering::Full => Tier::Full,
            Tiering::Auto | Tiering::Quick => Tier::Quick,
        }
    }
}

impl std::str::FromStr for Tiering {
    type Err = String;

    fn from_str(s: &str) -> Result<Tiering, String> {
        match s {
            "auto" => Ok(Tiering::Auto),
            "quick" => Ok(Tiering::Quick),
            "full" => Ok(Tiering::Full),
            _ => Err(format!("unknown tiering '{s}' (auto, quick, full)")),
        }
    }
}

impl std::fmt::Display for Tiering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

type Upgrade = Box<dyn FnOnce() + Send>;

struct Upgrades {
    state: Mutex<State>,
    /// Signalled when an upgrade is queued or one finishes.
    changed: Condvar,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Upgrade>,
    /// The thread is compiling an upgrade.
    busy: bool,
    /// The thread has been started (in this process).
    started: bool,
    /// The process is exiting: nothing more starts.
    exiting: bool,
    /// The process the thread belongs to (a forked child has none).
    pid: u32,
}

fn upgrades() -> &'static Upgrades {
    static UPGRADES: OnceLock<Upgrades> = OnceLock::new();
    UPGRADES.get_or_init(|| Upgrades {
        state: Mutex::new(State {
            pid: std::process::id(),
            ..State::default()
        }),
        changed: Condvar::new(),
    })
}

impl Upgrades {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let pid = std::process::id();
        if state.pid != pid {
            // A forked child: no thread, nothing being compiled.
            *state = State {
                pid,
                ..State::default()
            };
        }
        state
    }
}

/// Queues `upgrade` (compiling a specialization's full tier and swapping
/// it in) for the upgrade thread.
pub(crate) fn schedule(upgrade: impl FnOnce() + Send + 'static) {
    let u = upgrades();
    let mut state = u.lock();
    if state.exiting {
        return;
    }
    state.queue.push_back(Box::new(upgrade));
    if !state.started {
        let started = std::thread::Builder::new()
            .name("lockstep-tier-up".into())
            .stack_size(crate::simd::MIN_WORKER_STACK * 2)
            .spawn(run);
        if started.is_err() {
            // No thread: the quick tier stays.
            state.queue.clear();
            return;
        }
        state.started = true;
        register_exit_hook();
    }
    u.changed.notify_all();
}

/// The upgrade thread: compiles queued upgrades one at a time.
fn run() {
    let u = upgrades();
    let mut state = u.lock();
    loop {
        if let Some(upgrade) = state.queue.pop_front() {
            state.busy = true;
            drop(state);
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(upgrade));
            state = u.lock();
            state.busy = false;
            u.changed.notify_all();
        } else {
            state = u.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Blocks until no upgrade is queued or being compiled: every quick-tier
/// kernel compiled so far then runs its full tier (for tests and
/// benchmarks).
pub fn wait_for_upgrades() {
    let u = upgrades();
    let mut state = u.lock();
    while state.busy || !state.queue.is_empty() {
        state = u.changed.wait(state).unwrap_or_else(|e| e.into_inner());
    }
}

/// At exit: drop queued upgrades, wait for the one being compiled.
extern "C" fn at_exit() {
    let u = upgrades();
    let mut state = u.lock();
    state.exiting = true;
    state.queue.clear();
    while state.busy {
        state = u.changed.wait(state).unwrap_or_else(|e| e.into_inner());
    }
}

fn register_exit_hook() {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        // SAFETY: `at_exit` is a plain function that stays loaded (the
        // runtime is never unloaded while the process runs it).
        unsafe { libc::atexit(at_exit) };
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_compiles_the_full_tier_at_once_for_large_launches() {
        assert_eq!(Tiering::Auto.for_launch(64).first(), Tier::Quick);
        assert_eq!(
            Tiering::Auto.for_launch(QUICK_TIER_MAX_ITEMS).first(),
            Tier::Quick
        );
        assert_eq!(
            Tiering::Auto.for_launch(QUICK_TIER_MAX_ITEMS + 1),
            Tiering::Full
        );
        // A forced tier stays.
        assert_eq!(Tiering::Quick.for_launch(1 << 30), Tiering::Quick);
        assert_eq!(Tiering::Full.for_launch(1), Tiering::Full);
    }

    #[test]
    fn tierings_parse_by_name() {
        for t in [Tiering::Auto, Tiering::Quick, Tiering::Full] {
            assert_eq!(t.name().parse::<Tiering>(), Ok(t));
        }
        assert!("fast".parse::<Tiering>().is_err());
    }

    #[test]
    fn upgrades_run_in_order_and_can_be_waited_for() {
        let done = std::sync::Arc::new(Mutex::new(Vec::new()));
        for i in 0..5 {
            let done = done.clone();
            schedule(move || {
                std::thread::sleep(std::time::Duration::from_millis(5));
                done.lock().unwrap().push(i);
            });
        }
        wait_for_upgrades();
        assert_eq!(*done.lock().unwrap(), [0, 1, 2, 3, 4]);
    }
}
