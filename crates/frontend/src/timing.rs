//! Per-stage build times on stderr, when `LOCKSTEP_TIME_BUILD=1`.
//!
//! A build spends its time in stages of very different kinds (clang is a
//! child process; loading the builtin library, linking and LLVM's optimizer
//! run in-process), and where a build's time goes decides what to make
//! faster. Each stage prints one line when it ends:
//!
//! ```text
//! lockstep: time: kernel.cl: optimize      3.10 ms cpu     3.12 ms wall
//! ```
//!
//! CPU time is the calling thread's (`CLOCK_THREAD_CPUTIME_ID`), so builds
//! on other threads do not count; for clang it is the CPU time of the
//! process's finished children, which builds running clang at the same time
//! on other threads would add to. Off (the default), a stage costs an
//! atomic load.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The environment variable that turns the report on (`1`).
pub const ENV: &str = "LOCKSTEP_TIME_BUILD";

/// Set by [`enable`]; else the environment decides.
static FORCED: AtomicBool = AtomicBool::new(false);

/// True if `LOCKSTEP_TIME_BUILD=1` (read once per process) or [`enable`]
/// was called.
pub fn enabled() -> bool {
    static FROM_ENV: OnceLock<bool> = OnceLock::new();
    FORCED.load(Ordering::Relaxed)
        || *FROM_ENV.get_or_init(|| std::env::var_os(ENV).is_some_and(|v| v == "1"))
}

/// Turns the report on for the rest of the process (`lockstep compile --time`).
pub fn enable() {
    FORCED.store(true, Ordering::Relaxed);
}

/// Whose CPU time a stage counts.
#[derive(Copy, Clone)]
pub enum Clock {
    /// The calling thread's.
    Thread,
    /// The process's finished child processes' (a stage that runs a tool).
    Children,
    /// Both (a stage that runs a tool and works itself).
    ThreadAndChildren,
}

impl Clock {
    fn now(self) -> Duration {
        match self {
            Clock::Thread => thread_cpu_time(),
            Clock::Children => children_cpu_time(),
            Clock::ThreadAndChildren => thread_cpu_time() + children_cpu_time(),
        }
    }
}

/// Runs `f` as the stage `stage` of building `program`, and reports its time
/// if timing is on.
pub fn stage<T>(program: &str, stage: &str, clock: Clock, f: impl FnOnce() -> T) -> T {
    if !enabled() {
        return f();
    }
    let wall = Instant::now();
    let cpu = clock.now();
    let out = f();
    report(
        program,
        stage,
        clock.now().saturating_sub(cpu),
        wall.elapsed(),
    );
    out
}

/// The time of a stage that runs in pieces, on the calling thread.
#[derive(Default)]
pub struct Total {
    cpu: Duration,
    wall: Duration,
}

impl Total {
    /// Runs `f` as a piece of the stage.
    pub fn time<T>(&mut self, f: impl FnOnce() -> T) -> T {
        if !enabled() {
            return f();
        }
        let wall = Instant::now();
        let cpu = thread_cpu_time();
        let out = f();
        self.cpu += thread_cpu_time().saturating_sub(cpu);
        self.wall += wall.elapsed();
        out
    }

    /// Reports the stage's time so far as `stage` of building `program`.
    pub fn report(&self, program: &str, stage: &str) {
        report(program, stage, self.cpu, self.wall);
    }
}

/// Prints one stage's line (for stages timed elsewhere, like code
/// generation in the CLI); nothing if timing is off.
pub fn report(program: &str, stage: &str, cpu: Duration, wall: Duration) {
    if !enabled() {
        return;
    }
    eprintln!(
        "lockstep: time: {program}: {stage:<13} {:8.2} ms cpu {:8.2} ms wall",
        ms(cpu),
        ms(wall)
    );
}

/// The CPU time the calling thread has used.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The user + system time of the process's children that have been waited for.
fn children_cpu_time() -> Duration {
    // SAFETY: an all-zero rusage is a valid value for getrusage to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid rusage to write to.
    if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) } != 0 {
        return Duration::ZERO;
    }
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
