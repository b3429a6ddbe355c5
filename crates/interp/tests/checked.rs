//! Checked mode: data races on __local and __global memory, uninitialized
//! values (from memory and `undef`) where they are observed, and the
//! absence of false reports.

mod common;
use common::*;
use lockstep_interp::{DiagnosticKind, KernelArg, NdRange, Report};

/// tmp[lid] = lid; [barrier if `with_barrier`]; out[gid] = tmp[(lid+1) % n]
fn neighbour_kernel(with_barrier: bool) -> String {
    let barrier = if with_barrier {
        "    barrier local, work_group\n"
    } else {
        ""
    };
    format!(
        r#"
kernel @k(ptr.global, ptr.local) {{
    arg 0 "out" "int*" none none
    arg 1 "tmp" "int*" none none
block0(v0: ptr.global, v1: ptr.local):
    v2: i64 = local_id 0
    v3: i64 = local_size 0
    v4: i64 = iconst 4
    v5: i64 = imul v2, v4
    v6: ptr.local = ptradd v1, v5
    v7: i32 = trunc v2
    store v7, v6, align 4 !10:5
{barrier}    v8: i64 = iconst 1
    v9: i64 = iadd v2, v8
    v10: i64 = urem v9, v3
    v11: i64 = imul v10, v4
    v12: ptr.local = ptradd v1, v11
    v13: i32 = load v12, align 4 !12:14
    v14: i64 = global_id 0
    v15: i64 = imul v14, v4
    v16: ptr.global = ptradd v0, v15
    store v13, v16, align 4 !13:5
    return
}}
"#
    )
}

fn run_neighbour(with_barrier: bool, checked: bool) -> (Report, Vec<i32>) {
    let m = module(&neighbour_kernel(with_barrier));
    let mut out = vec![0u8; 16 * 4];
    let r = run_out_local(&m, &mut out, 8 * 4, (16, 8), checked);
    (r, to_i32s(&out))
}

#[test]
fn local_read_write_race_without_barrier() {
    let (r, _) = run_neighbour(false, true);
    let races: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::DataRace)
        .collect();
    // Items run in order: item i reads tmp[i+1] before item i+1 writes it
    // (found at the write), and the last item reads tmp[0] after item 0
    // wrote it (found at the read). One report per instruction pair.
    assert_eq!(races.len(), 2, "{:#?}", r.diagnostics);
    let d = races[0];
    assert_eq!(d.loc().map(|l| (l.line, l.col)), Some((10, 5)), "{d}");
    assert!(d.message.contains("__local argument 1 'tmp'"), "{d}");
    assert!(d.message.contains("write here conflicts with read"), "{d}");
    assert!(d.message.contains("12:14"), "{d}");
    assert_eq!(d.site.work_item.local_id, [1, 0, 0]);
    let d = races[1];
    assert_eq!(d.loc().map(|l| (l.line, l.col)), Some((12, 14)), "{d}");
    assert!(d.message.contains("read here conflicts with write"), "{d}");
    assert_eq!(d.site.work_item.local_id, [7, 0, 0]);
    let uninit: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::Uninitialized)
        .collect();
    // Item 0 reads tmp[1] before item 1 wrote it: the value is
    // uninitialized where it is written to `out`.
    assert_eq!(uninit.len(), 1, "{:#?}", r.diagnostics);
    assert_eq!(uninit[0].loc().map(|l| l.line), Some(13));
    assert!(
        uninit[0]
            .message
            .contains("uninitialized value written to __global memory: argument 0 'out'"),
        "{}",
        uninit[0]
    );
    assert_eq!(uninit[0].site.work_item.local_id, [0, 0, 0]);
}

#[test]
fn barrier_orders_the_accesses() {
    let (r, out) = run_neighbour(true, true);
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    let want: Vec<i32> = (0..16).map(|g| (g % 8 + 1) % 8).collect();
    assert_eq!(out, want);
    // Unchecked mode reports nothing even when racy.
    let (r, _) = run_neighbour(false, false);
    assert!(r.diagnostics.is_empty());
}

const SAME_SLOT: &str = r#"
kernel @k(ptr.global, ptr.global) {
    arg 0 "out" "int*" none none
    arg 1 "counter" "int*" none none
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = local_id 0
    v3: i32 = trunc v2
    v4: i64 = iconst 0
    v5: i1 = icmp eq v2, v4
    v6: i32 = iconst 1
    v7: i32 = atomic_rmw.add v1, v6, relaxed, device !3:3
    brif v5, block1, block2
block1:
    store v3, v0, align 4 !5:7
    jump block2
block2:
    return
}
"#;

#[test]
fn global_races_between_work_groups_but_not_atomics() {
    // Local id 0 of every group writes out[0]: a race between groups.
    let m = module(SAME_SLOT);
    let mut out = vec![0u8; 4];
    let mut counter = vec![0u8; 4];
    let r = run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut out), KernelArg::Buffer(&mut counter)],
        &NdRange::new_1d(8, 4),
        true,
    )
    .unwrap();
    assert_eq!(r.diagnostics.len(), 1, "{:#?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert_eq!(d.kind, DiagnosticKind::DataRace);
    assert_eq!(d.loc().map(|l| l.line), Some(5));
    assert!(d.message.contains("another work-group"), "{d}");
    assert!(d.message.contains("argument 0 'out'"), "{d}");
    assert_eq!(d.site.work_item.group_id, [1, 0, 0]);
    assert_eq!(to_i32s(&counter), [8]);
    // One group: no race.
    let r = run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut out), KernelArg::Buffer(&mut counter)],
        &NdRange::new_1d(4, 4),
        true,
    )
    .unwrap();
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
}

#[test]
fn write_write_race_in_a_group() {
    // Every work-item writes out[0].
    let m = module(
        r#"
kernel @k(ptr.global) {
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i64 = local_id 0
    v2: i32 = trunc v1
    store v2, v0, align 4 !2:2
    return
}
"#,
    );
    let mut out = vec![0u8; 4];
    let r = run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut out)],
        &NdRange::new_1d(4, 4),
        true,
    )
    .unwrap();
    assert_eq!(r.diagnostics.len(), 1, "{:#?}", r.diagnostics);
    let d = &r.diagnostics[0];
    assert!(d.message.contains("write here conflicts with write"), "{d}");
    assert!(d.message.contains("local (0, 0, 0)"), "{d}");
    assert_eq!(d.site.work_item.local_id, [1, 0, 0]);
    assert!(d.message.contains("same barrier interval"), "{d}");
}

#[test]
fn many_readers_then_a_write_after_the_barrier_is_fine() {
    // All read tmp[0] (written by item 0 before a barrier), barrier, then
    // item 0 writes tmp[0] again: reads are ordered before the write.
    let m = module(
        r#"
kernel @k(ptr.local) {
    arg 0 "tmp" "int*" none none
block0(v0: ptr.local):
    v1: i64 = local_id 0
    v2: i64 = iconst 0
    v3: i1 = icmp eq v1, v2
    v4: i32 = iconst 9
    brif v3, block1, block2
block1:
    store v4, v0, align 4
    jump block2
block2:
    barrier local, work_group
    v5: i32 = load v0, align 4
    barrier local, work_group
    brif v3, block3, block4
block3:
    store v5, v0, align 4
    jump block4
block4:
    v6: i32 = load v0, align 4 !9:9
    return
}
"#,
    );
    let r = run(
        &m,
        "k",
        &mut [KernelArg::Local(4)],
        &NdRange::new_1d(8, 4),
        true,
    )
    .unwrap();
    // The final unsynchronized reads race with item 0's second write.
    assert_eq!(r.diagnostics.len(), 1, "{:#?}", r.diagnostics);
    assert_eq!(r.diagnostics[0].loc().map(|l| l.line), Some(9));
}

/// The neighbour kernel with a subgroup meeting (`sub_group all`, as
/// `sub_group_barrier` imports) instead of a barrier, run with work-groups
/// of `local` and subgroups of 8.
fn run_neighbour_sub_group(local: u64) -> (Report, Vec<i32>) {
    let meeting = "    v90: i1 = iconst 1\n    v91: i1 = sub_group all v90\n";
    let src = neighbour_kernel(false).replace(
        "    v8: i64 = iconst 1\n",
        &format!("{meeting}    v8: i64 = iconst 1\n"),
    );
    let m = module(&src);
    let mut out = vec![0u8; 16 * 4];
    let k = m.function_by_name("k").unwrap();
    let opts = lockstep_interp::Options {
        checked: true,
        max_steps: Some(1 << 32),
        sub_group_size: Some(8),
        ..Default::default()
    };
    let r = lockstep_interp::run_kernel(
        &m,
        k,
        &mut [KernelArg::Buffer(&mut out), KernelArg::Local(16 * 4)],
        &NdRange::new_1d(16, local),
        &opts,
    )
    .unwrap();
    (r, to_i32s(&out))
}

#[test]
fn a_subgroup_meeting_orders_the_subgroups_accesses() {
    // Groups of 8 are one subgroup: each work-item reads what the next
    // one wrote before they met.
    let (r, out) = run_neighbour_sub_group(8);
    assert!(r.diagnostics.is_empty(), "{:#?}", r.diagnostics);
    let want: Vec<i32> = (0..16).map(|i| (i + 1) % 8).collect();
    assert_eq!(out, want);
    // Groups of 16 are two subgroups: work-item 7 reads what work-item 8,
    // of the other subgroup, wrote; nothing orders them.
    let (r, _) = run_neighbour_sub_group(16);
    let races = r
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::DataRace)
        .count();
    assert!(races > 0, "{:#?}", r.diagnostics);
}

/// Runs a one-argument kernel (`out`, 8 ints) checked over 8 work-items in
/// groups of 4; its reports of uninitialized values (not its races).
fn uninit_reports(src: &str) -> Vec<lockstep_interp::Diagnostic> {
    let mut out = vec![0u8; 8 * 4];
    let r = run_out(&module(src), &mut out, (8, 4), true);
    r.diagnostics
        .into_iter()
        .filter(|d| d.kind == DiagnosticKind::Uninitialized)
        .collect()
}

/// `out[gid] = x` where x is `undef` for odd work-items (a phi after
/// mem2reg of `int x; if (gid % 2 == 0) x = gid;`); `init` replaces the
/// undef with a constant.
fn phi_kernel(init: &str) -> String {
    format!(
        r#"
kernel @k(ptr.global) {{
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i32 = {init}
    v2: i64 = global_id 0
    v3: i32 = trunc v2
    v4: i32 = iconst 1
    v5: i32 = band v3, v4
    v6: i32 = iconst 0
    v7: i1 = icmp eq v5, v6
    brif v7, block1, block2(v1) !3:5
block1:
    jump block2(v3)
block2(v8: i32):
    v9: i64 = iconst 4
    v10: i64 = imul v2, v9
    v11: ptr.global = ptradd v0, v10
    v12: i32 = iadd v8, v4
    store v12, v11, align 4 !5:12
    return
}}
"#
    )
}

#[test]
fn an_undef_value_written_to_global_memory_is_reported_once_per_line() {
    let d = uninit_reports(&phi_kernel("undef"));
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].loc().map(|l| (l.line, l.col)), Some((5, 12)));
    assert!(
        d[0].message.contains(
            "uninitialized value written to __global memory: argument 0 'out', byte offset 4"
        ),
        "{}",
        d[0]
    );
    // The first work-item that wrote one: global id 1.
    assert_eq!(d[0].site.work_item.global_id, [1, 0, 0]);
    assert!(uninit_reports(&phi_kernel("iconst 7")).is_empty());
    // Unchecked, nothing is tracked.
    let mut out = vec![0u8; 32];
    let r = run_out(&module(&phi_kernel("undef")), &mut out, (8, 4), false);
    assert!(r.diagnostics.is_empty());
}

#[test]
fn a_branch_on_an_undef_value_is_reported() {
    let d = uninit_reports(
        r#"
kernel @k(ptr.global) {
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i1 = undef
    v2: i32 = iconst 1
    brif v1, block1, block2 !7:9
block1:
    store v2, v0, align 4
    jump block2
block2:
    return
}
"#,
    );
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(d[0]
        .message
        .contains("control flow depends on an uninitialized value"));
    assert_eq!(d[0].loc().map(|l| l.line), Some(7));
}

#[test]
fn undef_bits_and_lanes_that_are_not_used_are_not_reported() {
    // A struct of four bytes packed into an i32 by SROA with only byte 0
    // set (`undef & ~0xff | b`): byte 0 is initialized, the rest are not.
    // A select whose unchosen operand is undef, an `and` with 0 and a
    // shift that drops the undefined bits are initialized too. Writing
    // byte 1 is reported, at its own line.
    let d = uninit_reports(
        r#"
kernel @k(ptr.global) {
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i32 = undef
    v2: i32 = iconst -256
    v3: i32 = band v1, v2
    v4: i32 = iconst 9
    v5: i32 = bor v3, v4
    v6: i8 = trunc v5
    store v6, v0, align 1 !1:1
    v7: i1 = iconst 1
    v8: i32 = select v7, v4, v1
    store v8, v0, align 4 !2:1
    v9: i32 = iconst 0
    v10: i32 = band v1, v9
    store v10, v0, align 4 !3:1
    v11: i32 = iconst 24
    v12: i32 = ishl v5, v11
    store v12, v0, align 4 !4:1
    v13: i32 = iconst 8
    v14: i32 = ushr v5, v13
    v15: i8 = trunc v14
    store v15, v0, align 1 !5:1
    return
}
"#,
    );
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].loc().map(|l| l.line), Some(5));
}

#[test]
fn uninitialized_values_pass_through_private_memory_and_calls() {
    let d = uninit_reports(
        r#"
function @id(i32) -> i32 {
block0(v0: i32):
    v1: i32 = iconst 0
    v2: i32 = iadd v0, v1
    return v2
}

kernel @k(ptr.global) {
    arg 0 "out" "int*" none none
    ss0 = stack_slot 8, align 4
block0(v0: ptr.global):
    v1: ptr.private = stack_addr ss0
    v2: i32 = undef
    v3: i32 = iconst 3
    v4: i64 = iconst 4
    v5: ptr.private = ptradd v1, v4
    store v2, v1, align 4
    store v3, v5, align 4
    v6: i32 = load v1, align 4
    v7: i32 = load v5, align 4
    v8: i32 = call @id(v6)
    v9: i32 = call @id(v7)
    store v9, v0, align 4 !1:1
    store v8, v0, align 4 !2:1
    v10: i32 = printf "%d %d\n", v9, v8 !3:1
    v11: i64 = sext v8
    v12: ptr.global = ptradd v0, v11
    v13: i32 = load v12, align 4 !4:1
    return
}
"#,
    );
    let lines: Vec<_> = d.iter().map(|d| d.loc().map(|l| l.line)).collect();
    assert_eq!(lines, [Some(2), Some(3), Some(4)], "{d:#?}");
    assert!(d[1].message.contains("printf (argument 2)"), "{}", d[1]);
    assert!(
        d[2].message
            .contains("uninitialized address used to read from argument 0 'out'"),
        "{}",
        d[2]
    );
}

#[test]
fn freeze_makes_a_value_initialized() {
    // `freeze undef` written out is some fixed value, not a report; the
    // undef itself still is.
    let d = uninit_reports(
        r#"
kernel @k(ptr.global) {
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i32 = undef
    v2: i32 = freeze v1
    v3: i32 = iconst 1
    v4: i32 = iadd v2, v3
    store v4, v0, align 4 !1:1
    v5: i32 = iadd v1, v3
    store v5, v0, align 4 !2:1
    return
}
"#,
    );
    let lines: Vec<_> = d.iter().map(|d| d.loc().map(|l| l.line)).collect();
    assert_eq!(lines, [Some(2)], "{d:#?}");
}

#[test]
fn collectives_carry_the_shadow_of_the_lanes_they_read() {
    // x is undef in every lane but 0 (`if (lane == 0) x = 5;`): a broadcast
    // of lane 0 is initialized everywhere, a reduction over all lanes is
    // not.
    let src = |collective: &str| {
        format!(
            r#"
kernel @k(ptr.global) {{
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i32 = undef
    v2: i32 = iconst 5
    v3: i32 = sub_group_local_id
    v4: i32 = iconst 0
    v5: i1 = icmp eq v3, v4
    brif v5, block1, block2(v1)
block1:
    jump block2(v2)
block2(v6: i32):
    v7: i32 = iconst 0
    v8: i32 = {collective}
    v9: i64 = global_id 0
    v10: i64 = iconst 4
    v11: i64 = imul v9, v10
    v12: ptr.global = ptradd v0, v11
    store v8, v12, align 4 !9:9
    return
}}
"#
        )
    };
    assert!(uninit_reports(&src("sub_group broadcast v6, v7")).is_empty());
    let d = uninit_reports(&src("sub_group reduce_add v6"));
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].loc().map(|l| l.line), Some(9));
}

/// Each work-item stores `x` (undef in odd ones) to tmp[lid], then reads
/// tmp[`lid ^ flip`] and writes it out if it is even.
fn local_kernel(flip: u64) -> String {
    format!(
        r#"
kernel @k(ptr.global, ptr.local) {{
    arg 0 "out" "int*" none none
    arg 1 "tmp" "int*" none none
block0(v0: ptr.global, v1: ptr.local):
    v2: i32 = undef
    v3: i64 = local_id 0
    v4: i32 = trunc v3
    v5: i64 = iconst 1
    v6: i64 = band v3, v5
    v7: i64 = iconst 0
    v8: i1 = icmp eq v6, v7
    v9: i32 = select v8, v4, v2
    v10: i64 = iconst 4
    v11: i64 = imul v3, v10
    v12: ptr.local = ptradd v1, v11
    store v9, v12, align 4 !3:3
    barrier local, work_group
    v13: i64 = iconst {flip}
    v14: i64 = bxor v3, v13
    v15: i64 = imul v14, v10
    v16: ptr.local = ptradd v1, v15
    v17: i32 = load v16, align 4
    brif v8, block1, block2
block1:
    v18: ptr.global = ptradd v0, v11
    store v17, v18, align 4 !7:7
    jump block2
block2:
    return
}}
"#
    )
}

#[test]
fn local_memory_keeps_the_shadow_of_what_is_stored() {
    let run_local = |flip| {
        let mut out = vec![0u8; 4 * 4];
        let r = run_out_local(&module(&local_kernel(flip)), &mut out, 4 * 4, (4, 4), true);
        r.diagnostics
    };
    // The odd work-items' uninitialized values in tmp are never read.
    assert!(run_local(0).is_empty());
    // Read by their even neighbours and written out: reported there.
    let d = run_local(1);
    assert_eq!(d.len(), 1, "{d:#?}");
    assert_eq!(d[0].loc().map(|l| l.line), Some(7));
    assert_eq!(d[0].site.work_item.local_id, [0, 0, 0]);
}
