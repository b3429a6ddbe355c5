//! Background threads for work the application does not wait on: OpenCL
//! command queues and [`crate::Context::launch_async`] run their commands
//! here, so that the application's thread goes on while kernels run.
//!
//! A cached thread pool: [`spawn`] hands a job to an idle thread, or starts
//! a new one when none is idle, so a job never waits for another one (a
//! queue's job may run a long kernel while another queue's job is ready:
//! neither holds the other up, and nothing a job waits for can be stuck
//! behind it). A thread idle for [`IDLE_TIMEOUT`] exits. Jobs are short
//! loops over ready commands; the kernels they launch still run their
//! work-groups on the worker pool (one thread per core), which these
//! threads only wait on.
//!
//! After `fork` the child has none of the parent's threads: the pool
//! notices the new process id and starts afresh.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, OnceLock};
use std::time::Duration;

/// How long a thread with nothing to do waits for a job before it exits.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(10);

/// The stack of a job thread: room for the compiler (a kernel compiles on
/// first launch, on the thread that launches it) and for a launch that runs
/// its only work-group on the launching thread
/// (twice the worker pool's smallest stack).
const STACK: usize = 16 << 20;

type Job = Box<dyn FnOnce() + Send>;

struct Pool {
    state: Mutex<State>,
    /// Signalled when a job arrives for an idle thread.
    arrived: Condvar,
}

struct State {
    jobs: VecDeque<Job>,
    /// Threads waiting for a job.
    idle: usize,
    /// The process the threads belong to.
    pid: u32,
}

fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| Pool {
        state: Mutex::new(State {
            jobs: VecDeque::new(),
            idle: 0,
            pid: std::process::id(),
        }),
        arrived: Condvar::new(),
    })
}

/// Runs `job` on a background thread, at once: on an idle thread of the
/// pool, or on a new one. A panic in `job` is caught (and the thread goes
/// on); a job that must report failure does so itself.
pub fn spawn(job: impl FnOnce() + Send + 'static) {
    let pool = pool();
    let mut state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
    let pid = std::process::id();
    if state.pid != pid {
        // A forked child: the parent's threads are not here.
        state.pid = pid;
        state.idle = 0;
    }
    state.jobs.push_back(Box::new(job));
    // Each queued job needs a thread of its own: an idle one that has not
    // taken a job yet, or a new one.
    if state.idle >= state.jobs.len() {
        pool.arrived.notify_one();
        return;
    }
    drop(state);
    let started = std::thread::Builder::new()
        .name("lockstep-queue".into())
        .stack_size(STACK)
        .spawn(work);
    if started.is_err() {
        // No thread to be had: run the queued jobs here rather than never.
        while let Some(job) = take(pool) {
            run(job);
        }
    }
}

/// The next queued job, if any.
fn take(pool: &Pool) -> Option<Job> {
    pool.state
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .jobs
        .pop_front()
}

fn run(job: Job) {
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
}

/// A pool thread: runs jobs until none comes for [`IDLE_TIMEOUT`].
fn work() {
    let pool = pool();
    let mut state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        if let Some(job) = state.jobs.pop_front() {
            drop(state);
            run(job);
            state = pool.state.lock().unwrap_or_else(|e| e.into_inner());
            continue;
        }
        state.idle += 1;
        let (next, timeout) = pool
            .arrived
            .wait_timeout(state, IDLE_TIMEOUT)
            .unwrap_or_else(|e| e.into_inner());
        state = next;
        state.idle = state.idle.saturating_sub(1);
        if timeout.timed_out() && state.jobs.is_empty() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn jobs_run_concurrently_even_when_one_blocks() {
        // The first job waits for the second: with a thread per job both
        // finish (a single dispatcher would deadlock here).
        let (to_first, first_rx) = mpsc::channel::<()>();
        let (done, done_rx) = mpsc::channel();
        let d = done.clone();
        spawn(move || {
            first_rx.recv().unwrap();
            d.send(1).unwrap();
        });
        spawn(move || {
            to_first.send(()).unwrap();
            done.send(2).unwrap();
        });
        let mut got: Vec<i32> = (0..2)
            .map(|_| done_rx.recv_timeout(Duration::from_secs(30)).unwrap())
            .collect();
        got.sort();
        assert_eq!(got, [1, 2]);
    }

    #[test]
    fn many_jobs_from_many_threads_all_run_once() {
        let (tx, rx) = mpsc::channel();
        let threads: Vec<_> = (0..8)
            .map(|t| {
                let tx = tx.clone();
                std::thread::spawn(move || {
                    for i in 0..100 {
                        let tx = tx.clone();
                        spawn(move || tx.send(t * 100 + i).unwrap());
                    }
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        let mut got: Vec<i32> = (0..800)
            .map(|_| rx.recv_timeout(Duration::from_secs(30)).unwrap())
            .collect();
        got.sort();
        assert_eq!(got, (0..800).collect::<Vec<_>>());
        assert!(rx.try_recv().is_err(), "a job ran twice");
    }

    #[test]
    fn a_panicking_job_does_not_stop_later_ones() {
        spawn(|| panic!("a job's panic"));
        let (tx, rx) = mpsc::channel();
        spawn(move || tx.send(7).unwrap());
        assert_eq!(rx.recv_timeout(Duration::from_secs(30)).unwrap(), 7);
    }
}
