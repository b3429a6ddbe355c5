//! Tiered compilation: a kernel specialization's first launch runs code
//! compiled quickly ([`Tier::Quick`]: LLVM at a low optimization level)
//! while the fully optimized code ([`Tier::Full`]) is compiled on a
//! background thread and swapped in ([`crate::CompiledKernel::upgrade`]):
//! launches after that, and the work-groups a running launch has not
//! started yet, run it. Both tiers compile the same IR with the same
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
