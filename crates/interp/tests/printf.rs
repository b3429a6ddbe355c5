//! printf through kernels: formatting, argument types, vectors, %s.

mod common;
use common::*;
use lockstep_interp::{KernelArg, NdRange};

#[test]
fn printf_formats_in_execution_order() {
    let m = module(
        r#"
global @name: constant, size 6, align 1, init x"776f726c6400"

kernel @k(f32) {
    arg 0 "x" "float" none none
block0(v0: f32):
    v1: i64 = global_id 0
    v2: i32 = trunc v1
    v3: f64 = fpext v0
    v4: ptr.constant = global_addr @name
    v5: i32 = printf "hello %s #%d: %5.2f|%-4x|%e|%g\n", v4, v2, v3, v2, v3, v0
    v6: f32 = fconst 1.5
    v7: f32 = fconst -2.25
    v8: i32 = iconst -1
    v9: i64 = iconst -1
    v10: i8 = iconst 65
    v11: i32 = printf "%v2hlf|%hhu|%lu|%c|%%|%08.3e|%#o|%+i\n", v6, v7, v8, v9, v10, v3, v2, v2
    return
}
"#,
    );
    let report = run(
        &m,
        "k",
        &mut [scalar_f32(3.25)],
        &NdRange::new_1d(2, 1),
        false,
    )
    .unwrap();
    assert_eq!(
        report.printf_output,
        "hello world #0:  3.25|0   |3.250000e+00|3.25\n\
         1.500000,-2.250000|255|18446744073709551615|A|%|3.250e+00|0|+0\n\
         hello world #1:  3.25|1   |3.250000e+00|3.25\n\
         1.500000,-2.250000|255|18446744073709551615|A|%|3.250e+00|01|+1\n"
    );
}

#[test]
fn printf_return_value_and_bad_strings() {
    let m = module(
        r#"
kernel @k(ptr.global) {
    arg 0 "out" "int*" none none
block0(v0: ptr.global):
    v1: i32 = iconst 7
    v2: i32 = printf "%d %d\n", v1
    store v2, v0, align 4
    v3: i64 = iconst 4
    v4: ptr.global = ptradd v0, v3
    v5: i32 = printf "%d\n", v1
    store v5, v4, align 4
    return
}
"#,
    );
    // A missing argument: printf returns -1 and prints nothing; a good
    // call returns 0.
    let mut out = vec![0u8; 8];
    let r = run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut out)],
        &NdRange::new_1d(1, 1),
        false,
    )
    .unwrap();
    assert_eq!(r.printf_output, "7\n");
    assert_eq!(to_i32s(&out), [-1, 0]);

    let m = module(
        r#"
kernel @k(ptr.global) {
    arg 0 "s" "char*" none none
block0(v0: ptr.global):
    v1: i32 = printf "[%s]", v0
    return
}
"#,
    );
    let mut s = b"abc\0".to_vec();
    let r = run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut s)],
        &NdRange::new_1d(1, 1),
        false,
    )
    .unwrap();
    assert_eq!(r.printf_output, "[abc]");
    // Not NUL-terminated: an out-of-bounds read, not a crash.
    let mut s = b"abc".to_vec();
    let err = run(
        &m,
        "k",
        &mut [KernelArg::Buffer(&mut s)],
        &NdRange::new_1d(1, 1),
        false,
    )
    .unwrap_err();
    assert!(
        matches!(err, lockstep_interp::InterpError::OutOfBounds { .. }),
        "{err}"
    );
}
