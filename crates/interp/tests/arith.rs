//! Integer and float operation semantics, run through kernels.

mod common;
use common::*;

fn u32b(x: i32) -> u64 {
    x as u32 as u64
}

#[test]
fn division_by_zero_and_min_over_minus_one_give_zero() {
    let min = u32b(i32::MIN);
    let m1 = u32b(-1);
    let pairs = [(7, 0), (min, m1), (u32b(-7), 2), (7, 2), (0, 0)];
    assert_eq!(
        eval2("sdiv A, B", "i32", "i32", &pairs),
        [0, 0, u32b(-3), 3, 0]
    );
    assert_eq!(
        eval2("srem A, B", "i32", "i32", &pairs),
        [0, 0, u32b(-1), 1, 0]
    );
    assert_eq!(
        eval2("udiv A, B", "i32", "i32", &pairs),
        [0, 0, 0x7fff_fffc, 3, 0]
    );
    assert_eq!(eval2("urem A, B", "i32", "i32", &pairs), [0, min, 1, 1, 0]);
    let min64 = i64::MIN as u64;
    assert_eq!(
        eval2("sdiv A, B", "i64", "i64", &[(min64, u64::MAX), (5, 0)]),
        [0, 0]
    );
    assert_eq!(
        eval2("sdiv A, B", "i8", "i8", &[(0x80, 0xff), (0x80, 2)]),
        [0, 0xc0]
    );
}

#[test]
fn shifts_take_the_amount_modulo_the_width() {
    let pairs = [(1, 31), (1, 32), (1, 33), (0x8000_0000, 36), (0xf0, 100)];
    assert_eq!(
        eval2("ishl A, B", "i32", "i32", &pairs),
        [0x8000_0000, 1, 2, 0x8000_0000 << 4 & 0xffff_ffff, 0xf00]
    );
    assert_eq!(
        eval2("ushr A, B", "i32", "i32", &pairs),
        [0, 1, 0, 0x0800_0000, 0xf]
    );
    assert_eq!(
        eval2("sshr A, B", "i32", "i32", &pairs),
        [0, 1, 0, 0xf800_0000, 0xf]
    );
    assert_eq!(
        eval2("ishl A, B", "i8", "i8", &[(1, 8), (1, 9), (0x81, 7)]),
        [1, 2, 0x80]
    );
    assert_eq!(
        eval2("sshr A, B", "i8", "i8", &[(0x80, 9), (0x80, 15)]),
        [0xc0, 0xff]
    );
    assert_eq!(
        eval2("ishl A, B", "i64", "i64", &[(1, 64), (1, 65), (3, 127)]),
        [1, 2, 3 << 63]
    );
    assert_eq!(
        eval2(
            "rotl A, B",
            "i32",
            "i32",
            &[(0x8000_0001, 1), (0x8000_0001, 33)]
        ),
        [3, 3]
    );
    assert_eq!(
        eval2("rotr A, B", "i16", "i16", &[(0x0001, 1), (0x0001, 17)]),
        [0x8000, 0x8000]
    );
}

#[test]
fn integer_operations() {
    let mx = u32b(-1);
    assert_eq!(
        eval2("umulhi A, B", "i32", "i32", &[(mx, mx), (0x10000, 0x10000)]),
        [0xffff_fffe, 1]
    );
    assert_eq!(
        eval2(
            "smulhi A, B",
            "i32",
            "i32",
            &[(mx, mx), (u32b(-2), 0x4000_0000)]
        ),
        [0, mx]
    );
    assert_eq!(
        eval2("uadd_sat A, B", "i8", "i8", &[(200, 100), (1, 2)]),
        [255, 3]
    );
    assert_eq!(
        eval2("sadd_sat A, B", "i8", "i8", &[(100, 100), (0x9c, 0x9c)]),
        [127, 0x80]
    );
    assert_eq!(
        eval2("usub_sat A, B", "i16", "i16", &[(1, 2), (5, 2)]),
        [0, 3]
    );
    assert_eq!(
        eval2(
            "ssub_sat A, B",
            "i32",
            "i32",
            &[(u32b(i32::MIN), 1), (u32b(i32::MAX), mx)]
        ),
        [u32b(i32::MIN), u32b(i32::MAX)]
    );
    assert_eq!(eval2("smin A, B", "i32", "i32", &[(mx, 1)]), [mx]);
    assert_eq!(eval2("umin A, B", "i32", "i32", &[(mx, 1)]), [1]);
    assert_eq!(
        eval2("iadd A, B", "i32", "i32", &[(u32b(i32::MAX), 1)]),
        [u32b(i32::MIN)]
    );
    assert_eq!(
        eval2("imul A, B", "i16", "i16", &[(300, 300)]),
        [(300 * 300) & 0xffff]
    );
    let xs = [0u64, 1, 0x8000_0000, 0x00f0_0f00, mx];
    assert_eq!(eval1("clz A", "i32", "i32", &xs), [32, 31, 0, 8, 0]);
    assert_eq!(eval1("ctz A", "i32", "i32", &xs), [32, 0, 31, 8, 0]);
    assert_eq!(eval1("popcount A", "i32", "i32", &xs), [0, 1, 1, 8, 32]);
    assert_eq!(
        eval1("bswap A", "i32", "i32", &xs),
        [0, 0x0100_0000, 0x80, 0x000f_f000, mx]
    );
    assert_eq!(
        eval1("bitreverse A", "i32", "i32", &xs),
        [0, 0x8000_0000, 1, 0x00f0_0f00, mx]
    );
    assert_eq!(
        eval1("iabs A", "i32", "i32", &[u32b(-5), 5, u32b(i32::MIN)]),
        [5, 5, u32b(i32::MIN)]
    );
    assert_eq!(eval1("clz A", "i8", "i8", &[0, 1]), [8, 7]);
    assert_eq!(eval1("ctz A", "i64", "i64", &[0]), [64]);
    assert_eq!(
        eval(
            "fshl A, B, C",
            "i32",
            "i32",
            &[
                (0x1234_5678, 0x9abc_def0, 8),
                (1, 2, 32),
                (1, 0x8000_0000, 33)
            ]
        ),
        [0x3456_789a, 1, 3]
    );
    assert_eq!(
        eval(
            "fshr A, B, C",
            "i32",
            "i32",
            &[(0x1234_5678, 0x9abc_def0, 8), (1, 2, 32), (1, 2, 33)]
        ),
        [0x789a_bcde, 2, 0x8000_0001]
    );
}

#[test]
fn booleans_are_zero_or_one() {
    let m1 = u32b(-1);
    assert_eq!(
        eval2("icmp slt A, B", "i32", "i1", &[(m1, 0), (0, m1)]),
        [1, 0]
    );
    assert_eq!(
        eval2("icmp ult A, B", "i32", "i1", &[(m1, 0), (0, m1)]),
        [0, 1]
    );
}

fn f(x: f32) -> u64 {
    x.to_bits() as u64
}

fn d(x: f64) -> u64 {
    x.to_bits()
}

#[test]
fn fmin_fmax_with_nan_return_the_other_operand() {
    let nan = f(f32::NAN);
    let pairs = [(nan, f(1.0)), (f(2.0), nan), (f(-1.0), f(3.0)), (nan, nan)];
    let min = eval2("fmin A, B", "f32", "f32", &pairs);
    assert_eq!(&min[..3], &[f(1.0), f(2.0), f(-1.0)]);
    assert!(f32::from_bits(min[3] as u32).is_nan());
    let max = eval2("fmax A, B", "f32", "f32", &pairs);
    assert_eq!(&max[..3], &[f(1.0), f(2.0), f(3.0)]);
    let nan64 = d(f64::NAN);
    assert_eq!(
        eval2(
            "fmax A, B",
            "f64",
            "f64",
            &[(nan64, d(-7.5)), (d(-7.5), nan64)]
        ),
        [d(-7.5), d(-7.5)]
    );
    // f16: NaN 0x7e00, 1.0 0x3c00, 2.0 0x4000.
    assert_eq!(
        eval2(
            "fmin A, B",
            "f16",
            "f16",
            &[(0x7e00, 0x3c00), (0x4000, 0x7e00)]
        ),
        [0x3c00, 0x4000]
    );
}

#[test]
fn float_operations() {
    // fma is fused: (1 + 2^-12)^2 - 1 keeps the 2^-24 term.
    let a = 1.0f32 + 1.0 / 4096.0;
    let fused = eval("fma A, B, C", "f32", "f32", &[(f(a), f(a), f(-1.0))]);
    assert_eq!(fused, [f(a.mul_add(a, -1.0))]);
    assert_ne!(fused, [f(a * a - 1.0)]);
    let xs = [f(2.5), f(-2.5), f(0.5), f(1.5), f(-0.5)];
    assert_eq!(
        eval1("round A", "f32", "f32", &xs),
        [f(3.0), f(-3.0), f(1.0), f(2.0), f(-1.0)]
    );
    assert_eq!(
        eval1("rint A", "f32", "f32", &xs),
        [f(2.0), f(-2.0), f(0.0), f(2.0), f(-0.0)]
    );
    assert_eq!(
        eval1("ftrunc A", "f32", "f32", &xs),
        [f(2.0), f(-2.0), f(0.0), f(1.0), f(-0.0)]
    );
    assert_eq!(
        eval2(
            "frem A, B",
            "f32",
            "f32",
            &[(f(7.5), f(2.0)), (f(-7.5), f(2.0))]
        ),
        [f(1.5), f(-1.5)]
    );
    assert_eq!(
        eval2(
            "remainder A, B",
            "f32",
            "f32",
            &[(f(7.5), f(2.0)), (f(5.0), f(2.0))]
        ),
        [f(-0.5), f(1.0)]
    );
    assert_eq!(
        eval2("copysign A, B", "f64", "f64", &[(d(3.0), d(-0.0))]),
        [d(-3.0)]
    );
    assert_eq!(
        eval2("hypot A, B", "f32", "f32", &[(f(3.0), f(4.0))]),
        [f(5.0)]
    );
    assert_eq!(
        eval2("pow A, B", "f64", "f64", &[(d(2.0), d(10.0))]),
        [d(1024.0)]
    );
    assert_eq!(eval1("exp10 A", "f64", "f64", &[d(3.0)]), [d(1000.0)]);
    assert_eq!(eval1("cbrt A", "f32", "f32", &[f(27.0)]), [f(3.0)]);
    assert_eq!(eval1("tgamma A", "f64", "f64", &[d(5.0)]), [d(24.0)]);
    let lg = f64::from_bits(eval1("lgamma A", "f64", "f64", &[d(10.0)])[0]);
    assert!((lg - 362880f64.ln()).abs() < 1e-12, "{lg}");
    let e = f32::from_bits(eval1("erf A", "f32", "f32", &[f(1.0)])[0] as u32);
    assert_eq!(e, 0.842_700_8f32);
    let ec = f32::from_bits(eval1("erfc A", "f32", "f32", &[f(1.0)])[0] as u32);
    assert_eq!(ec, 0.157_299_2f32);
    assert_eq!(eval1("sqrt A", "f32", "f32", &[f(2.0)]), [f(2.0f32.sqrt())]);
    assert_eq!(eval1("rsqrt A", "f32", "f32", &[f(4.0)]), [f(0.5)]);
    assert_eq!(eval1("fneg A", "f16", "f16", &[0x3c00]), [0xbc00]);
    // f16 arithmetic rounds once to nearest even: 1 + 2^-11 is a tie.
    assert_eq!(
        eval2(
            "fadd A, B",
            "f16",
            "f16",
            &[(0x3c00, 0x1000), (0x3c01, 0x1000)]
        ),
        [0x3c00, 0x3c02]
    );
    assert_eq!(
        eval2(
            "fcmp uno A, B",
            "f32",
            "i1",
            &[(f(f32::NAN), f(1.0)), (f(1.0), f(1.0))]
        ),
        [1, 0]
    );
    assert_eq!(
        eval2(
            "fcmp one A, B",
            "f32",
            "i1",
            &[(f(f32::NAN), f(1.0)), (f(2.0), f(1.0))]
        ),
        [0, 1]
    );
}
