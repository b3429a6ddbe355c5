//! Atomics, memcpy/memset, program-scope variables with relocations,
//! by-value arguments, local variables, calls and switches.

mod common;
use common::*;
use lockstep_interp::{KernelArg, NdRange};

#[test]
fn atomics_return_the_old_value() {
    // Every work-item: old = atomic_add(&c[0], 1); out[gid] = old;
    // atomic_max(&c[1], gid); atomic_cas(&c[2], 0, gid+1) (first wins);
    // atomic_fadd(&f, 0.5); atomic_fmin(&f2, x) with a NaN operand.
    let m = module(
        r#"
kernel @k(ptr.global, ptr.global, ptr.global) {
    arg 0 "c" "int*" none volatile
    arg 1 "out" "int*" none none
    arg 2 "f" "float*" none none
block0(v0: ptr.global, v1: ptr.global, v2: ptr.global):
    v3: i64 = global_id 0
    v4: i32 = trunc v3
    v5: i32 = iconst 1
    v6: i32 = atomic_rmw.add v0, v5, relaxed, device
    v7: i64 = iconst 4
    v8: i64 = imul v3, v7
    v9: ptr.global = ptradd v1, v8
    store v6, v9, align 4
    v10: ptr.global = ptradd v0, v7
    v11: i32 = atomic_rmw.smax v10, v4, seq_cst, device
    v12: i64 = iconst 8
    v13: ptr.global = ptradd v0, v12
    v14: i32 = iconst 0
    v15: i32 = iadd v4, v5
    v16: i32 = atomic_cas v13, v14, v15, acq_rel, work_group
    fence global, seq_cst, device
    v17: f32 = fconst 0.5
    v18: f32 = atomic_rmw.fadd v2, v17, relaxed, device
    v19: i64 = iconst 4
    v20: ptr.global = ptradd v2, v19
    v21: f32 = fconst 0x7fc00000
    v22: f32 = atomic_rmw.fmin v20, v21, relaxed, device
    v23: f32 = sitofp v4
    v24: f32 = atomic_rmw.fmin v20, v23, relaxed, device
    v25: i32 = atomic_load v0, relaxed, device
    v26: ptr.global = ptradd v0, v19
    v27: ptr.global = ptradd v26, v12
    atomic_store v25, v27, relaxed, device
    return
}
"#,
    );
    let mut c = i32s(&[0, -5, 0, 0]);
    let mut out = vec![0u8; 64 * 4];
    let mut f = f32s(&[0.0, 100.0]);
    run(
        &m,
        "k",
        &mut [
            KernelArg::Buffer(&mut c),
            KernelArg::Buffer(&mut out),
            KernelArg::Buffer(&mut f),
        ],
        &NdRange::new_1d(64, 16),
        true,
    )
    .unwrap();
    let mut old = to_i32s(&out);
    old.sort();
    assert_eq!(old, (0..64).collect::<Vec<_>>(), "each old value once");
    assert_eq!(to_i32s(&c), [64, 63, 1, 64]);
    assert_eq!(to_f32s(&f), [32.0, 0.0]);
}

#[test]
fn memcpy_is_memmove_and_memset_fills() {
    let m = module(
        r#"
kernel @k(ptr.global) {
    arg 0 "b" "char*" none none
    ss0 = stack_slot 8, align 1
block0(v0: ptr.global):
    v1: i64 = iconst 2
    v2: ptr.global = ptradd v0, v1
    v3: i64 = iconst 6
    memcpy v2, v0, v3
    v4: ptr.private = stack_addr ss0
    v5: i8 = iconst 171
    v6: i64 = iconst 8
    memset v4, v5, v6
    v7: i64 = iconst 10
    v8: ptr.global = ptradd v0, v7
    v9: i64 = iconst 3
    memcpy v8, v4, v9
    v10: i64 = iconst 0
    memset v0, v5, v10
    return
}
"#,
    );
    let mut b: Vec<u8> = (0..16).collect();
    run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut b)],
        &NdRange::new_1d(1, 1),
        false,
    )
    .unwrap();
    assert_eq!(
        b,
        [0, 1, 0, 1, 2, 3, 4, 5, 8, 9, 0xab, 0xab, 0xab, 13, 14, 15]
    );
}

#[test]
fn program_scope_variables_and_relocations() {
    // A constant table, a pointer to its second element, a global counter,
    // and a __local array shared by the group.
    let m = module(
        r#"
global @table: constant, size 12, align 4, init x"0a000000140000001e000000"
global @ptr: constant, size 8, align 8, init x"0000000000000000", reloc 0 = @table + 4
global @count: global, size 4, align 4, init x"05000000"
global @tile: local, size 16, align 4

kernel @k(ptr.global) {
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i64 = local_id 0
    v2: i64 = iconst 4
    v3: i64 = imul v1, v2
    v4: ptr.local = global_addr @tile
    v5: ptr.local = ptradd v4, v3
    v6: i32 = trunc v1
    store v6, v5, align 4
    barrier local, work_group
    v7: ptr.constant = global_addr @ptr
    v8: ptr.constant = load v7, align 8
    v9: i32 = load v8, align 4
    v10: i64 = iconst 12
    v11: ptr.local = ptradd v4, v10
    v12: i32 = load v11, align 4
    v13: i32 = iadd v9, v12
    v14: ptr.global = global_addr @count
    v15: i32 = iconst 1
    v16: i32 = atomic_rmw.add v14, v15, relaxed, device
    v17: i32 = iadd v13, v16
    v18: i64 = global_id 0
    v19: i64 = imul v18, v2
    v20: ptr.global = ptradd v0, v19
    store v17, v20, align 4
    return
}
"#,
    );
    let mut out = vec![0u8; 8 * 4];
    run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut out)],
        &NdRange::new_1d(8, 4),
        true,
    )
    .unwrap();
    // 20 (table[1]) + 3 (tile[3]) + old count (5, 6, ...).
    assert_eq!(to_i32s(&out), [28, 29, 30, 31, 32, 33, 34, 35]);
}

#[test]
fn byval_struct_calls_switch_select() {
    // struct { int a; int b; } s passed by value; each work-item bumps its
    // private copy, then calls @pick(gid % 3, s.a, s.b) which switches.
    let m = module(
        r#"
function @pick(i32, i32, i32) -> i32 {
block0(v0: i32, v1: i32, v2: i32):
    switch v0, block3, [0: block1, 1: block2(v2)]
block1:
    return v1
block2(v3: i32):
    v4: i32 = iconst 100
    v5: i32 = iadd v3, v4
    return v5
block3:
    v6: i32 = iconst 0
    v7: i1 = icmp sgt v1, v2
    v8: i32 = select v7, v1, v2
    return v8
}

kernel @k(ptr.private, ptr.global) {
    arg 0 "s" "struct S" none none byval 8, align 4
    arg 1 "out" "int*" none none
block0(v0: ptr.private, v1: ptr.global):
    v2: i32 = load v0, align 4
    v3: i32 = iconst 1
    v4: i32 = iadd v2, v3
    store v4, v0, align 4
    v5: i64 = iconst 4
    v6: ptr.private = ptradd v0, v5
    v7: i32 = load v6, align 4
    v8: i64 = global_id 0
    v9: i32 = trunc v8
    v10: i32 = iconst 3
    v11: i32 = urem v9, v10
    v12: i32 = call @pick(v11, v4, v7)
    v13: i64 = imul v8, v5
    v14: ptr.global = ptradd v1, v13
    store v12, v14, align 4
    return
}
"#,
    );
    let mut out = vec![0u8; 6 * 4];
    let s = i32s(&[10, 7]);
    run(
        &m,
        "k",
        &mut [KernelArg::ByVal(s.clone()), KernelArg::Buffer(&mut out)],
        &NdRange::new_1d(6, 2),
        false,
    )
    .unwrap();
    // The copy is per work-item: a is always 10 + 1.
    assert_eq!(to_i32s(&out), [11, 107, 11, 11, 107, 11]);
    let err = run(
        &m,
        "k",
        &mut [KernelArg::ByVal(vec![0; 4]), KernelArg::Buffer(&mut out)],
        &NdRange::new_1d(6, 2),
        false,
    )
    .unwrap_err();
    assert!(matches!(
        err,
        lockstep_interp::InterpError::ArgMismatch { index: 0, .. }
    ));
}

#[test]
fn generic_pointers_reach_any_region() {
    // A helper taking a generic pointer adds 1 to *p, called with a local,
    // a private and a global pointer.
    let m = module(
        r#"
function @inc(ptr.generic) {
block0(v0: ptr.generic):
    v1: i32 = load v0, align 4
    v2: i32 = iconst 1
    v3: i32 = iadd v1, v2
    store v3, v0, align 4
    return
}

kernel @k(ptr.global, ptr.local) {
    arg 0 "g" "int*" none none
    arg 1 "l" "int*" none none
    ss0 = stack_slot 4, align 4
block0(v0: ptr.global, v1: ptr.local):
    v2: ptr.private = stack_addr ss0
    v3: i32 = iconst 40
    store v3, v2, align 4
    store v3, v1, align 4
    v4: ptr.generic = addrspacecast v2
    call @inc(v4)
    v5: ptr.generic = addrspacecast v1
    call @inc(v5)
    call @inc(v5)
    v6: ptr.generic = addrspacecast v0
    call @inc(v6)
    v7: i32 = load v2, align 4
    v8: i32 = load v1, align 4
    v9: i64 = iconst 4
    v10: ptr.global = ptradd v0, v9
    store v7, v10, align 4
    v11: ptr.global = ptradd v10, v9
    store v8, v11, align 4
    v12: i64 = ptrtoint v0
    v13: i64 = iadd v12, v9
    v14: ptr.global = inttoptr v13
    v15: i32 = load v14, align 4
    v16: ptr.global = ptradd v11, v9
    store v15, v16, align 4
    return
}
"#,
    );
    let mut g = i32s(&[5, 0, 0, 0]);
    run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut g), KernelArg::Local(4)],
        &NdRange::new_1d(1, 1),
        false,
    )
    .unwrap();
    assert_eq!(to_i32s(&g), [6, 41, 42, 41]);
}
