//! Barriers: a local-memory tree reduction (barrier in a loop, and in a
//! called helper), and barrier divergence.

mod common;
use common::*;
use lockstep_interp::{InterpError, KernelArg, NdRange};

const REDUCE: &str = r#"
kernel @reduce(ptr.global, ptr.global, ptr.local) {
    arg 0 "in" "int*" none const
    arg 1 "out" "int*" none none
    arg 2 "tmp" "int*" none none
block0(v0: ptr.global, v1: ptr.global, v2: ptr.local):
    v3: i64 = global_id 0
    v4: i64 = local_id 0
    v5: i64 = local_size 0
    v6: i64 = iconst 4
    v7: i64 = imul v3, v6
    v8: ptr.global = ptradd v0, v7
    v9: i32 = load v8, align 4
    v10: i64 = imul v4, v6
    v11: ptr.local = ptradd v2, v10
    store v9, v11, align 4
    barrier local, work_group !5:5
    v12: i64 = iconst 1
    v13: i64 = ushr v5, v12
    jump block1(v13)
block1(v14: i64):
    v15: i64 = iconst 0
    v16: i1 = icmp ugt v14, v15
    brif v16, block2, block5
block2:
    v17: i1 = icmp ult v4, v14
    brif v17, block3, block4
block3:
    v18: i64 = iadd v4, v14
    v19: i64 = imul v18, v6
    v20: ptr.local = ptradd v2, v19
    v21: i32 = load v20, align 4
    v22: i32 = load v11, align 4
    v23: i32 = iadd v22, v21
    store v23, v11, align 4
    jump block4
block4:
    barrier local, work_group !9:9
    v24: i64 = ushr v14, v12
    jump block1(v24)
block5:
    v25: i64 = iconst 0
    v26: i1 = icmp eq v4, v25
    brif v26, block6, block7
block6:
    v27: i32 = load v2, align 4
    v28: i64 = group_id 0
    v29: i64 = imul v28, v6
    v30: ptr.global = ptradd v1, v29
    store v27, v30, align 4
    jump block7
block7:
    return
}
"#;

/// The same reduction with each step (and its barrier) in a helper.
const REDUCE_HELPER: &str = r#"
function @step(ptr.local, i64, i64) {
block0(v0: ptr.local, v1: i64, v2: i64):
    v3: i64 = iconst 4
    v4: i1 = icmp ult v1, v2
    brif v4, block1, block2
block1:
    v5: i64 = iadd v1, v2
    v6: i64 = imul v5, v3
    v7: ptr.local = ptradd v0, v6
    v8: i32 = load v7, align 4
    v9: i64 = imul v1, v3
    v10: ptr.local = ptradd v0, v9
    v11: i32 = load v10, align 4
    v12: i32 = iadd v11, v8
    store v12, v10, align 4
    jump block2
block2:
    barrier local, work_group
    return
}

kernel @reduce(ptr.global, ptr.global, ptr.local) {
    arg 0 "in" "int*" none const
    arg 1 "out" "int*" none none
    arg 2 "tmp" "int*" none none
block0(v0: ptr.global, v1: ptr.global, v2: ptr.local):
    v3: i64 = global_id 0
    v4: i64 = local_id 0
    v5: i64 = local_size 0
    v6: i64 = iconst 4
    v7: i64 = imul v3, v6
    v8: ptr.global = ptradd v0, v7
    v9: i32 = load v8, align 4
    v10: i64 = imul v4, v6
    v11: ptr.local = ptradd v2, v10
    store v9, v11, align 4
    barrier local, work_group
    v12: i64 = iconst 1
    v13: i64 = ushr v5, v12
    jump block1(v13)
block1(v14: i64):
    v15: i64 = iconst 0
    v16: i1 = icmp ugt v14, v15
    brif v16, block2, block5
block2:
    call @step(v2, v4, v14)
    v24: i64 = ushr v14, v12
    jump block1(v24)
block5:
    v25: i64 = iconst 0
    v26: i1 = icmp eq v4, v25
    brif v26, block6, block7
block6:
    v27: i32 = load v2, align 4
    v28: i64 = group_id 0
    v29: i64 = imul v28, v6
    v30: ptr.global = ptradd v1, v29
    store v27, v30, align 4
    jump block7
block7:
    return
}
"#;

fn reduce(src: &str, checked: bool) {
    let m = module(src);
    let n = 256usize;
    let local = 64usize;
    let input: Vec<i32> = (0..n as i32).map(|i| i * 3 - 100).collect();
    let mut inb = i32s(&input);
    let mut out = vec![0u8; n / local * 4];
    let report = run(
        &m,
        "reduce",
        &mut [
            KernelArg::Buffer(&mut inb),
            KernelArg::Buffer(&mut out),
            KernelArg::Local(local * 4),
        ],
        &NdRange::new_1d(n as u64, local as u64),
        checked,
    )
    .unwrap();
    assert!(report.diagnostics.is_empty(), "{:#?}", report.diagnostics);
    let want: Vec<i32> = input.chunks(local).map(|c| c.iter().sum()).collect();
    assert_eq!(to_i32s(&out), want);
}

#[test]
fn tree_reduction_barrier_in_loop() {
    reduce(REDUCE, false);
    reduce(REDUCE, true);
}

#[test]
fn tree_reduction_barrier_in_helper() {
    reduce(REDUCE_HELPER, false);
    reduce(REDUCE_HELPER, true);
}

#[test]
fn barrier_some_items_skip() {
    // if (get_local_id(0) < 2) barrier(...);
    let m = module(
        r#"
kernel @k(ptr.global) {
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i64 = local_id 0
    v2: i64 = iconst 2
    v3: i1 = icmp ult v1, v2
    brif v3, block1, block2
block1:
    barrier local, work_group !7:9
    jump block2
block2:
    return
}
"#,
    );
    let mut out = vec![0u8; 16];
    let err = run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut out)],
        &NdRange::new_1d(8, 4),
        false,
    )
    .unwrap_err();
    match &err {
        InterpError::BarrierDivergence { group, message } => {
            assert_eq!(*group, [0, 0, 0]);
            assert!(message.contains("7:9"), "{message}");
            assert!(message.contains("returned"), "{message}");
        }
        e => panic!("expected barrier divergence, got {e}"),
    }
    // A group of one work-item cannot diverge.
    run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut out)],
        &NdRange::new_1d(3, 1),
        false,
    )
    .unwrap();
}

#[test]
fn different_barriers() {
    // if (lid & 1) barrier A; else barrier B;
    let m = module(
        r#"
kernel @k() {
block0:
    v1: i64 = local_id 0
    v2: i64 = iconst 1
    v3: i64 = band v1, v2
    v4: i64 = iconst 0
    v5: i1 = icmp ne v3, v4
    brif v5, block1, block2
block1:
    barrier local, work_group !3:1
    jump block3
block2:
    barrier local, work_group !4:1
    jump block3
block3:
    return
}
"#,
    );
    let err = run(&m, "k", &mut [], &NdRange::new_1d(4, 4), false).unwrap_err();
    let text = err.to_string();
    assert!(
        matches!(err, InterpError::BarrierDivergence { .. }),
        "{text}"
    );
    assert!(text.contains("3:1") && text.contains("4:1"), "{text}");
    // Checked, a report naming both barriers and who waits at each; the
    // launch goes on (both halves are released together).
    let r = run(&m, "k", &mut [], &NdRange::new_1d(8, 4), true).unwrap();
    assert_eq!(r.diagnostics.len(), 1, "{:#?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert_eq!(d.kind, lockstep_interp::DiagnosticKind::BarrierDivergence);
    assert!(
        d.message.starts_with(
            "barrier divergence in work-group (0, 0, 0): local linear ids 0, 2 wait at `barrier local, work_group !4:1` at 4:1 in @k; local linear ids 1, 3 wait at `barrier local, work_group !3:1` at 3:1"
        ),
        "{d}"
    );
    assert_eq!(d.loc().map(|l| l.line), Some(4));
}

#[test]
fn checked_divergence_is_reported_and_the_launch_goes_on() {
    // for (i = 0; i < lid; i++) barrier(); out[lid] = i: work-item 0
    // returns at once, the others meet (and are released) at each
    // iteration until they return in turn.
    let m = module(
        r#"
kernel @k(ptr.global) {
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i64 = local_id 0
    v2: i64 = iconst 0
    jump block1(v2)
block1(v3: i64):
    v4: i1 = icmp ult v3, v1
    brif v4, block2, block3
block2:
    barrier global, work_group !5:9
    v5: i64 = iconst 1
    v6: i64 = iadd v3, v5
    jump block1(v6)
block3:
    v7: i64 = iconst 8
    v8: i64 = imul v1, v7
    v9: ptr.global = ptradd v0, v8
    store v3, v9, align 8
    return
}
"#,
    );
    let mut out = vec![0u8; 8 * 4];
    let r = run_out(&m, &mut out, (4, 4), true);
    // One report for the barrier, though the group diverged there 3 times.
    assert_eq!(r.diagnostics.len(), 1, "{:#?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert!(
        d.message.contains(
            "local linear ids 1-3 wait at `barrier global, work_group !5:9` at 5:9 in @k; local linear id 0 returned without reaching it"
        ),
        "{d}"
    );
    assert_eq!(d.site.work_item.local_id, [1, 0, 0]);
    let got: Vec<u64> = out
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    assert_eq!(got, [0, 1, 2, 3]);
}

#[test]
fn barrier_loop_with_varying_trip_count() {
    // for (i = 0; i < lid; i++) barrier(); — work-item 0 returns first.
    let m = module(
        r#"
kernel @k() {
block0:
    v1: i64 = local_id 0
    v2: i64 = iconst 0
    jump block1(v2)
block1(v3: i64):
    v4: i1 = icmp ult v3, v1
    brif v4, block2, block3
block2:
    barrier global, work_group
    v5: i64 = iconst 1
    v6: i64 = iadd v3, v5
    jump block1(v6)
block3:
    return
}
"#,
    );
    let err = run(&m, "k", &mut [], &NdRange::new_1d(4, 4), false).unwrap_err();
    assert!(
        matches!(err, InterpError::BarrierDivergence { .. }),
        "{err}"
    );
}

#[test]
fn barrier_reached_from_different_call_sites() {
    // The same barrier in a helper, called from two different places.
    let m = module(
        r#"
function @sync() {
block0:
    barrier local, work_group
    return
}

kernel @k() {
block0:
    v1: i64 = local_id 0
    v2: i64 = iconst 0
    v3: i1 = icmp eq v1, v2
    brif v3, block1, block2
block1:
    call @sync()
    jump block3
block2:
    call @sync()
    jump block3
block3:
    return
}
"#,
    );
    let err = run(&m, "k", &mut [], &NdRange::new_1d(2, 2), false).unwrap_err();
    assert!(
        matches!(err, InterpError::BarrierDivergence { .. }),
        "{err}"
    );
}
