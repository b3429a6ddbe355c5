//! `Context::launch_async`: the launch runs off the calling thread, the
//! handle gives its result, and a context's launches run in the order they
//! were made.

use std::time::Instant;

use lockstep_runtime::{Buffer, Context, LaunchError, NDRange, Program};

const SOURCE: &str = "
    kernel void step(global uint *buf, uint k) {
        size_t i = get_global_id(0);
        buf[i] = buf[i] * 3u + k + (uint)i;
    }
    kernel void spin(global float *buf, int n) {
        size_t i = get_global_id(0);
        float x = buf[i];
        for (int j = 0; j < n; j++) x = x * 0.999f + 1.0f;
        buf[i] = x;
    }";

fn program(ctx: &Context) -> Program {
    Program::build(ctx, SOURCE, "").expect("the test kernels build")
}

/// What launches of `step` with these `k`, in order, make of `start`.
fn stepped(start: &[u32], ks: &[u32]) -> Vec<u32> {
    let mut v = start.to_vec();
    for &k in ks {
        for (i, x) in v.iter_mut().enumerate() {
            *x = x.wrapping_mul(3).wrapping_add(k).wrapping_add(i as u32);
        }
    }
    v
}

#[test]
fn launch_async_returns_before_the_kernel_has_run() {
    let ctx = lockstep_llvm::context();
    let program = program(&ctx);
    let buf = Buffer::<f32>::zeroed(1024);
    let mut spin = program.kernel("spin").unwrap();
    spin.set_arg(0, &buf).unwrap();
    spin.set_arg(1, 3_000_000i32).unwrap();
    let t0 = Instant::now();
    let handle = ctx.launch_async(&spin, &NDRange::new_1d(1024));
    let returned = t0.elapsed();
    assert!(
        !handle.is_done(),
        "a launch of seconds was done when launch_async returned"
    );
    handle.wait().expect("the launch runs");
    let total = t0.elapsed();
    assert!(
        returned < total / 4,
        "launch_async took {returned:?} of {total:?}"
    );
    let v = buf.read();
    assert!((v[0] - 1000.0).abs() < 1.0 && v[1023] == v[0], "{}", v[0]);
}

#[test]
fn launches_of_a_context_run_in_order_with_the_arguments_they_were_given() {
    let ctx = lockstep_llvm::context();
    let program = program(&ctx);
    let n = 4096;
    let start: Vec<u32> = (0..n as u32).collect();
    let buf = Buffer::from_slice(&start);
    let mut step = program.kernel("step").unwrap();
    step.set_arg(0, &buf).unwrap();
    let range = NDRange::new_1d(n as u64);
    let ks: Vec<u32> = (0..40).map(|s| 1000 + s).collect();
    let mut handles = Vec::new();
    for &k in &ks {
        // Changing the argument after the call changes nothing for it.
        step.set_arg(1, k).unwrap();
        handles.push(ctx.launch_async(&step, &range));
    }
    // A blocking launch (on a clone) runs after the asynchronous ones.
    step.set_arg(1, 7u32).unwrap();
    ctx.clone().launch(&step, &range).unwrap();
    assert!(handles.iter().all(|h| h.is_done()));
    for h in handles {
        h.wait().unwrap();
    }
    let mut all = ks.clone();
    all.push(7);
    assert_eq!(buf.read(), stepped(&start, &all));
}

#[test]
fn errors_come_from_wait() {
    let ctx = lockstep_llvm::context();
    let program = program(&ctx);
    let step = program.kernel("step").unwrap();
    let err = ctx
        .launch_async(&step, &NDRange::new_1d(64))
        .wait()
        .unwrap_err();
    assert!(
        matches!(err, LaunchError::ArgNotSet { index: 0, .. }),
        "{err}"
    );
}

#[test]
fn buffers_outlive_their_handles_until_the_launch_has_run() {
    let ctx = lockstep_llvm::context();
    let program = program(&ctx);
    let mut spin = program.kernel("spin").unwrap();
    let handle = {
        let buf = Buffer::<f32>::zeroed(1 << 16);
        spin.set_arg(0, &buf).unwrap();
        spin.set_arg(1, 1000i32).unwrap();
        ctx.launch_async(&spin, &NDRange::new_1d(1 << 16))
    };
    // The kernel holds the buffer, not the caller: dropping both is fine.
    drop(spin);
    handle.wait().unwrap();
}

#[test]
fn many_threads_launch_asynchronously_at_once() {
    let ctx = lockstep_llvm::context();
    let program = program(&ctx);
    let threads: Vec<_> = (0..8u32)
        .map(|t| {
            let (ctx, program) = (ctx.clone(), program.clone());
            std::thread::spawn(move || {
                let start: Vec<u32> = (0..512).map(|i| i * (t + 1)).collect();
                let buf = Buffer::from_slice(&start);
                let mut step = program.kernel("step").unwrap();
                step.set_arg(0, &buf).unwrap();
                let ks: Vec<u32> = (0..20).map(|s| s * 7 + t).collect();
                let handles: Vec<_> = ks
                    .iter()
                    .map(|&k| {
                        step.set_arg(1, k).unwrap();
                        ctx.launch_async(&step, &NDRange::new_1d(512))
                    })
                    .collect();
                // Only the last one waited for: the ones before ran first.
                handles.into_iter().last().unwrap().wait().unwrap();
                assert_eq!(buf.read(), stepped(&start, &ks), "thread {t}");
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a launching thread");
    }
}
