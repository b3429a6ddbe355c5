//! Typed errors: out-of-bounds accesses with their location, read-only
//! memory, misaligned atomics, the step limit, argument mismatches.

mod common;
use common::*;
use lockstep_interp::{AccessKind, InterpError, KernelArg, NdRange};

const COPY: &str = r#"
kernel @copy(ptr.global, ptr.global) {
    arg 0 "src" "int*" none const
    arg 1 "dst" "int*" none none
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = iconst 4
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v0, v4
    v6: i32 = load v5, align 4 !12:7
    v7: ptr.global = ptradd v1, v4
    store v6, v7, align 4 !13:5
    return
}
"#;

#[test]
fn out_of_bounds_load_names_argument_offset_and_location() {
    let m = module(COPY);
    let mut src = i32s(&[1, 2, 3]);
    let mut dst = vec![0u8; 16];
    let err = run(
        &m,
        "copy",
        &mut [KernelArg::Buffer(&mut src), KernelArg::Buffer(&mut dst)],
        &NdRange::new_1d(4, 4),
        false,
    )
    .unwrap_err();
    match &err {
        InterpError::OutOfBounds {
            access,
            region,
            region_size,
            offset,
            size,
            site,
        } => {
            assert_eq!(*access, AccessKind::Load);
            assert_eq!(region, "argument 0 'src'");
            assert_eq!(*region_size, Some(12));
            assert_eq!(*offset, 12);
            assert_eq!(*size, 4);
            assert_eq!(site.inst, "v6: i32 = load v5, align 4 !12:7");
            assert_eq!(site.loc.map(|l| (l.line, l.col)), Some((12, 7)));
            assert_eq!(site.work_item.global_id, [3, 0, 0]);
            assert_eq!(site.function, "copy");
        }
        e => panic!("expected an out-of-bounds error, got {e}"),
    }
    let text = err.to_string();
    assert!(
        text.contains("12:7") && text.contains("offset 12"),
        "{text}"
    );
    // Work-items 0..3 ran before the fault.
    assert_eq!(to_i32s(&dst), [1, 2, 3, 0]);
}

#[test]
fn out_of_bounds_store_and_in_checked_mode() {
    let m = module(COPY);
    let mut src = i32s(&[1, 2, 3, 4]);
    let mut dst = vec![0u8; 15];
    let err = run(
        &m,
        "copy",
        &mut [KernelArg::Buffer(&mut src), KernelArg::Buffer(&mut dst)],
        &NdRange::new_1d(4, 2),
        false,
    )
    .unwrap_err();
    match err {
        InterpError::OutOfBounds {
            access: AccessKind::Store,
            offset: 12,
            size: 4,
            site,
            ..
        } => assert_eq!(site.loc.map(|l| l.line), Some(13)),
        e => panic!("{e}"),
    }
    // Checked mode reports the store, skips it and goes on.
    let mut dst = vec![0u8; 15];
    let report = run(
        &m,
        "copy",
        &mut [KernelArg::Buffer(&mut src), KernelArg::Buffer(&mut dst)],
        &NdRange::new_1d(4, 2),
        true,
    )
    .unwrap();
    assert_eq!(report.diagnostics.len(), 1, "{:#?}", report.diagnostics);
    let d = &report.diagnostics[0];
    assert_eq!(d.kind, lockstep_interp::DiagnosticKind::InvalidAccess);
    assert_eq!(d.loc().map(|l| l.line), Some(13));
    assert!(
        d.message
            .starts_with("Invalid write of size 4 at global memory address")
            && d.message.contains("byte 12 of argument 1"),
        "{d}"
    );
    assert_eq!(d.site.work_item.global_id, [3, 0, 0]);
    assert_eq!(&dst[..12], &i32s(&[1, 2, 3])[..]);
}

#[test]
fn null_and_negative_offsets() {
    let m = module(COPY);
    let mut dst = vec![0u8; 16];
    let err = run(
        &m,
        "copy",
        &mut [KernelArg::Null, KernelArg::Buffer(&mut dst)],
        &NdRange::new_1d(1, 1),
        false,
    )
    .unwrap_err();
    assert!(
        matches!(&err, InterpError::OutOfBounds { region, .. } if region == "null pointer"),
        "{err}"
    );
    let m = module(
        r#"
kernel @before(ptr.global) {
    arg 0 "p" "int*" none none
block0(v0: ptr.global):
    v1: i64 = iconst -4
    v2: ptr.global = ptradd v0, v1
    v3: i32 = load v2, align 4
    return
}
"#,
    );
    let err = run(
        &m,
        "before",
        &mut [KernelArg::Buffer(&mut dst)],
        &NdRange::new_1d(1, 1),
        false,
    )
    .unwrap_err();
    assert!(
        matches!(&err, InterpError::OutOfBounds { offset: -4, region, .. } if region == "argument 0 'p'"),
        "{err}"
    );
}

#[test]
fn stack_slots_and_dangling_pointers() {
    let m = module(
        r#"
function @addr() -> ptr.private {
    ss0 = stack_slot 8, align 4
block0:
    v0: ptr.private = stack_addr ss0
    return v0
}

kernel @k(i64) {
    arg 0 "i" "long" none none
    ss0 = stack_slot 16, align 4
block0(v0: i64):
    v1: ptr.private = stack_addr ss0
    v2: ptr.private = ptradd v1, v0
    v3: i32 = iconst 5
    store v3, v2, align 4 !4:4
    v4: ptr.private = call @addr()
    v5: i32 = load v4, align 4 !6:6
    return
}
"#,
    );
    let r = NdRange::new_1d(1, 1);
    let err = run(
        &m,
        "k",
        &mut [KernelArg::Scalar(16i64.to_le_bytes().to_vec())],
        &r,
        false,
    )
    .unwrap_err();
    assert!(
        matches!(&err, InterpError::OutOfBounds { region, region_size: Some(16), offset: 16, .. } if region == "stack slot ss0 of @k"),
        "{err}"
    );
    let err = run(
        &m,
        "k",
        &mut [KernelArg::Scalar(12i64.to_le_bytes().to_vec())],
        &r,
        false,
    )
    .unwrap_err();
    match &err {
        InterpError::OutOfBounds { region, site, .. } => {
            assert!(region.starts_with("freed memory"), "{region}");
            assert_eq!(site.loc.map(|l| l.line), Some(6));
        }
        e => panic!("{e}"),
    }
}

#[test]
fn writes_to_constant_memory() {
    let m = module(
        r#"
kernel @k(ptr.constant) {
    arg 0 "c" "int*" none const
block0(v0: ptr.constant):
    v1: ptr.generic = addrspacecast v0
    v2: i32 = iconst 1
    store v2, v1, align 4
    return
}
"#,
    );
    let mut c = vec![0u8; 4];
    let err = run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut c)],
        &NdRange::new_1d(1, 1),
        false,
    )
    .unwrap_err();
    assert!(matches!(err, InterpError::ReadOnly { .. }), "{err}");
    assert_eq!(c, [0; 4]);
}

#[test]
fn misaligned_atomic() {
    let m = module(
        r#"
kernel @k(ptr.global) {
    arg 0 "p" "int*" none none
block0(v0: ptr.global):
    v1: i64 = iconst 2
    v2: ptr.global = ptradd v0, v1
    v3: i32 = iconst 1
    v4: i32 = atomic_rmw.add v2, v3, relaxed, device !3:3
    return
}
"#,
    );
    let mut b = vec![0u8; 8];
    let err = run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut b)],
        &NdRange::new_1d(1, 1),
        false,
    )
    .unwrap_err();
    assert!(
        matches!(
            &err,
            InterpError::MisalignedAtomic {
                offset: 2,
                size: 4,
                ..
            }
        ),
        "{err}"
    );
}

#[test]
fn step_limit_stops_infinite_loops() {
    let m = module(
        r#"
kernel @spin() {
block0:
    jump block1
block1:
    jump block1
}
"#,
    );
    let k = m.function_by_name("spin").unwrap();
    let opts = lockstep_interp::Options {
        checked: false,
        max_steps: Some(10_000),
        ..Default::default()
    };
    let err =
        lockstep_interp::run_kernel(&m, k, &mut [], &NdRange::new_1d(1, 1), &opts).unwrap_err();
    assert!(
        matches!(err, InterpError::StepLimit { limit: 10_000, .. }),
        "{err}"
    );
}

#[test]
fn unreachable_is_an_error() {
    let m = module("kernel @k() {\nblock0:\n    unreachable !2:2\n}\n");
    let err = run(&m, "k", &mut [], &NdRange::new_1d(1, 1), false).unwrap_err();
    assert!(matches!(err, InterpError::Unreachable { .. }), "{err}");
}

#[test]
fn argument_and_range_mismatches() {
    let m = module(COPY);
    let r = NdRange::new_1d(1, 1);
    let mut b = vec![0u8; 4];
    let err = run(&m, "copy", &mut [KernelArg::Buffer(&mut b)], &r, false).unwrap_err();
    assert!(matches!(err, InterpError::BadKernel(_)), "{err}");
    let mut b2 = vec![0u8; 4];
    let err = run(
        &m,
        "copy",
        &mut [KernelArg::Scalar(vec![0; 8]), KernelArg::Buffer(&mut b2)],
        &r,
        false,
    )
    .unwrap_err();
    assert!(
        matches!(err, InterpError::ArgMismatch { index: 0, .. }),
        "{err}"
    );
    let err = run(
        &m,
        "copy",
        &mut [KernelArg::Local(16), KernelArg::Buffer(&mut b2)],
        &r,
        false,
    )
    .unwrap_err();
    assert!(
        matches!(err, InterpError::ArgMismatch { index: 0, .. }),
        "{err}"
    );
    let sax = module(
        "kernel @s(f32) {\n    arg 0 \"a\" \"float\" none none\nblock0(v0: f32):\n    return\n}\n",
    );
    let err = run(&sax, "s", &mut [KernelArg::Scalar(vec![0; 8])], &r, false).unwrap_err();
    assert!(
        matches!(err, InterpError::ArgMismatch { index: 0, .. }),
        "{err}"
    );
    let err = run(&sax, "s", &mut [KernelArg::Null], &r, false).unwrap_err();
    assert!(
        matches!(err, InterpError::ArgMismatch { index: 0, .. }),
        "{err}"
    );
    for bad in [
        range(0, [1; 3], [1; 3], [0; 3]),
        range(4, [1; 3], [1; 3], [0; 3]),
        range(2, [4, 4, 1], [2, 0, 1], [0; 3]),
    ] {
        let err = run(&sax, "s", &mut [KernelArg::Scalar(vec![0; 4])], &bad, false).unwrap_err();
        assert!(matches!(err, InterpError::InvalidRange(_)), "{err}");
    }
    // Not a kernel.
    let helper = module("function @h() {\nblock0:\n    return\n}\n");
    let err = run(&helper, "h", &mut [], &r, false).unwrap_err();
    assert!(matches!(err, InterpError::BadKernel(_)), "{err}");
}

#[test]
fn messages_read_well() {
    let m = module(COPY);
    let mut src = i32s(&[1, 2, 3]);
    let mut dst = vec![0u8; 16];
    let err = run(
        &m,
        "copy",
        &mut [KernelArg::Buffer(&mut src), KernelArg::Buffer(&mut dst)],
        &NdRange::new_1d(4, 4),
        false,
    )
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "out-of-bounds load of 4 bytes at offset 12 of argument 0 'src' (12 bytes): \
         at 12:7, `v6: i32 = load v5, align 4 !12:7` in @copy, \
         work-item (3, 0, 0) (local (3, 0, 0), group (0, 0, 0))"
    );
}

#[test]
fn runaway_recursion_is_unsupported_not_a_crash() {
    let m = module(
        r#"
function @f(i32) -> i32 {
block0(v0: i32):
    v1: i32 = call @f(v0)
    return v1
}

kernel @k() {
block0:
    v0: i32 = iconst 1
    v1: i32 = call @f(v0)
    return
}
"#,
    );
    let err = run(&m, "k", &mut [], &NdRange::new_1d(1, 1), false).unwrap_err();
    assert!(matches!(err, InterpError::Unsupported { .. }), "{err}");
}
