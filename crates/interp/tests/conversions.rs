//! Conversions in every rounding mode, against expectations computed
//! independently: the host's round-to-nearest result and its neighbours,
//! picked by comparing exact values.

mod common;
use common::*;

const MODES: [&str; 4] = ["rte", "rtz", "rtp", "rtn"];

/// Deterministic pseudo-random bits.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn next_up32(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

fn next_down32(x: f32) -> f32 {
    -next_up32(-x)
}

/// Picks the result of `mode` from the nearest candidate `r` of the exact
/// value, given how `r` compares with it (`Less`: r < exact).
fn pick32(r: f32, cmp: std::cmp::Ordering, exact_negative: bool, mode: &str) -> f32 {
    use std::cmp::Ordering::*;
    let (lower, upper) = match cmp {
        Equal => return r,
        Less => (r, next_up32(r)),
        Greater => (next_down32(r), r),
    };
    match mode {
        "rte" => r,
        "rtz" if exact_negative => upper,
        "rtz" => lower,
        "rtp" => upper,
        _ => lower,
    }
}

fn int_samples() -> Vec<i64> {
    let mut v = vec![
        0,
        1,
        -1,
        16_777_216,
        16_777_217,
        -16_777_217,
        16_777_219,
        33_554_435,
        i32::MAX as i64,
        i32::MIN as i64,
        i64::MAX,
        i64::MIN,
        (1 << 53) + 1,
        -(1 << 53) - 3,
        123_456_789,
    ];
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for _ in 0..200 {
        let x = rng.next() as i64;
        v.push(x >> (rng.next() % 60));
    }
    v
}

#[test]
fn sitofp_i64_to_f32_every_mode() {
    let xs = int_samples();
    let bits: Vec<u64> = xs.iter().map(|&x| x as u64).collect();
    for mode in MODES {
        let got = eval1(&format!("sitofp.{mode} A"), "i64", "f32", &bits);
        for (k, &x) in xs.iter().enumerate() {
            let r = x as f32;
            let want = pick32(r, (r as i128).cmp(&(x as i128)), x < 0, mode);
            assert_eq!(
                f32::from_bits(got[k] as u32),
                want,
                "sitofp.{mode} {x} -> f32"
            );
        }
    }
}

#[test]
fn int_to_float_i32_u32_u64_every_mode() {
    let xs: Vec<i64> = int_samples().into_iter().map(|x| x as i32 as i64).collect();
    let bits: Vec<u64> = xs.iter().map(|&x| x as i32 as u32 as u64).collect();
    for mode in MODES {
        let got = eval1(&format!("sitofp.{mode} A"), "i32", "f32", &bits);
        let got_u = eval1(&format!("uitofp.{mode} A"), "i32", "f32", &bits);
        for (k, &x) in xs.iter().enumerate() {
            let r = x as f32;
            let want = pick32(r, (r as i128).cmp(&(x as i128)), x < 0, mode);
            assert_eq!(f32::from_bits(got[k] as u32), want, "sitofp.{mode} {x}");
            let u = x as i32 as u32;
            let r = u as f32;
            let want = pick32(r, (r as i128).cmp(&(u as i128)), false, mode);
            assert_eq!(f32::from_bits(got_u[k] as u32), want, "uitofp.{mode} {u}");
        }
    }
    let us = [
        u64::MAX,
        (1 << 63) + 1,
        (1 << 63) + (1 << 40),
        1 << 63,
        12345,
    ];
    for mode in MODES {
        let got = eval1(&format!("uitofp.{mode} A"), "i64", "f32", &us);
        for (k, &u) in us.iter().enumerate() {
            let r = u as f32;
            let want = pick32(r, (r as i128).cmp(&(u as i128)), false, mode);
            assert_eq!(f32::from_bits(got[k] as u32), want, "uitofp.{mode} {u}");
        }
    }
    // i64 -> f64 past 2^53.
    let x = (1i64 << 53) + 1;
    let got = |mode: &str| {
        f64::from_bits(eval1(&format!("sitofp.{mode} A"), "i64", "f64", &[x as u64])[0])
    };
    assert_eq!(got("rte"), (1u64 << 53) as f64);
    assert_eq!(got("rtz"), (1u64 << 53) as f64);
    assert_eq!(got("rtn"), (1u64 << 53) as f64);
    assert_eq!(got("rtp"), ((1u64 << 53) + 2) as f64);
}

#[test]
fn fptrunc_f64_to_f32_every_mode() {
    let mut xs = vec![
        0.1,
        -0.1,
        1.0 / 3.0,
        1e-40,
        -1e-45,
        1e-46,
        3.4028235677973366e38,
        3.4028235e38 * 1.0000001,
        1e39,
        -1e39,
        f64::MAX,
        f64::MIN_POSITIVE,
        1.0 + f64::EPSILON,
        16777217.0,
        -0.0,
    ];
    let mut rng = Rng(42);
    for _ in 0..300 {
        let b = rng.next();
        // Keep exponents around the f32 range.
        let e = 1023 - 160 + (rng.next() % 320);
        xs.push(f64::from_bits((b & 0x800f_ffff_ffff_ffff) | (e << 52)));
    }
    let bits: Vec<u64> = xs.iter().map(|x| x.to_bits()).collect();
    for mode in MODES {
        let got = eval1(&format!("fptrunc.{mode} A"), "f64", "f32", &bits);
        for (k, &x) in xs.iter().enumerate() {
            let r = x as f32;
            let cmp = (r as f64).partial_cmp(&x).unwrap();
            let want = pick32(r, cmp, x < 0.0, mode);
            let g = f32::from_bits(got[k] as u32);
            assert!(
                g.to_bits() == want.to_bits(),
                "fptrunc.{mode} {x:e}: got {g:e}, want {want:e}"
            );
        }
    }
    let nan = eval1("fptrunc.rtz A", "f64", "f32", &[f64::NAN.to_bits()]);
    assert!(f32::from_bits(nan[0] as u32).is_nan());
}

/// Every finite non-negative f16 value, by an independent decoding.
fn f16_values() -> Vec<(f32, u16)> {
    (0u16..0x7c00)
        .map(|b| {
            let e = (b >> 10) as i32;
            let m = (b & 0x3ff) as f32;
            let v = if e == 0 {
                m * 2f32.powi(-24)
            } else {
                (1024.0 + m) * 2f32.powi(e - 25)
            };
            (v, b)
        })
        .collect()
}

fn expect_f16(x: f32, mode: &str, table: &[(f32, u16)]) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let a = x.abs();
    // Magnitude candidates: below (largest <= a) and above (smallest >= a);
    // above 65504 the next "value" is infinity (65536 for ties).
    let i = table.partition_point(|&(v, _)| v <= a);
    let (lo_v, lo_b) = table[i - 1];
    let (hi_v, hi_b) = table.get(i).copied().unwrap_or((65536.0, 0x7c00));
    if lo_v == a {
        return sign | lo_b;
    }
    let toward_zero = lo_b;
    let away = hi_b;
    let up_mag = match mode {
        "rte" => {
            let (dl, dh) = (a - lo_v, hi_v - a);
            dh < dl || (dh == dl && hi_b % 2 == 0)
        }
        "rtz" => false,
        "rtp" => sign == 0,
        _ => sign != 0,
    };
    sign | if up_mag { away } else { toward_zero }
}

#[test]
fn fptrunc_f32_to_f16_every_mode() {
    let table = f16_values();
    let mut xs = vec![
        1.0f32,
        65504.0,
        65519.0,
        65520.0,
        70000.0,
        1e-8,
        3e-8,
        2.9802322e-8,
        -1.0 / 3.0,
        0.1,
    ];
    let mut rng = Rng(7);
    for _ in 0..500 {
        let b = rng.next() as u32;
        let e = 127 - 26 + (rng.next() % 44) as u32;
        xs.push(f32::from_bits((b & 0x807f_ffff) | (e << 23)));
    }
    let bits: Vec<u64> = xs.iter().map(|x| x.to_bits() as u64).collect();
    for mode in MODES {
        let got = eval1(&format!("fptrunc.{mode} A"), "f32", "f16", &bits);
        for (k, &x) in xs.iter().enumerate() {
            let want = expect_f16(x, mode, &table);
            assert_eq!(got[k] as u16, want, "fptrunc.{mode} {x:e} -> f16");
        }
    }
    // And back: fpext is exact.
    let hs: Vec<u64> = (0..0x7c00u64).step_by(7).collect();
    let back = eval1("fpext A", "f16", "f32", &hs);
    for (k, &h) in hs.iter().enumerate() {
        assert_eq!(f32::from_bits(back[k] as u32), table[h as usize].0);
    }
    // int -> f16 in every mode: 2049 is between 2048 and 2050.
    let modes: Vec<u64> = MODES
        .iter()
        .map(|m| eval1(&format!("sitofp.{m} A"), "i32", "f16", &[2049])[0])
        .collect();
    assert_eq!(modes, [0x6800, 0x6800, 0x6801, 0x6800]);
    let neg = (-2049i32) as u32 as u64;
    let modes: Vec<u64> = MODES
        .iter()
        .map(|m| eval1(&format!("sitofp.{m} A"), "i32", "f16", &[neg])[0])
        .collect();
    assert_eq!(modes, [0xe800, 0xe800, 0xe800, 0xe801]);
}

#[test]
fn float_to_int_every_mode_and_saturation() {
    let xs = [
        2.5f64,
        -2.5,
        3.5,
        0.5,
        -0.5,
        1.7,
        -1.7,
        0.0,
        2147483647.5,
        -2147483648.9,
        1e10,
        -1e10,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        255.5,
        -128.5,
    ];
    let bits: Vec<u64> = xs.iter().map(|x| x.to_bits()).collect();
    let round = |x: f64, mode: &str| match mode {
        "rte" => x.round_ties_even(),
        "rtz" => x.trunc(),
        "rtp" => x.ceil(),
        _ => x.floor(),
    };
    for mode in MODES {
        for (ty, lo, hi) in [
            ("i32", i32::MIN as f64, i32::MAX as f64),
            ("i8", -128.0, 127.0),
            ("i64", i64::MIN as f64, 9.3e18),
        ] {
            let got = eval1(&format!("fptosi.{mode}.sat A"), "f64", ty, &bits);
            for (k, &x) in xs.iter().enumerate() {
                let want = if x.is_nan() {
                    0i64
                } else {
                    let r = round(x, mode);
                    if r >= hi && ty == "i64" {
                        i64::MAX
                    } else {
                        r.clamp(lo, hi) as i64
                    }
                };
                let w = want as u64
                    & if ty == "i64" {
                        u64::MAX
                    } else {
                        (1 << (type_bytes(ty) * 8)) - 1
                    };
                assert_eq!(got[k], w, "fptosi.{mode}.sat {x} -> {ty}");
            }
        }
        let got = eval1(&format!("fptoui.{mode}.sat A"), "f64", "i8", &bits);
        for (k, &x) in xs.iter().enumerate() {
            let want = if x.is_nan() {
                0
            } else {
                round(x, mode).clamp(0.0, 255.0) as u64
            };
            assert_eq!(got[k], want, "fptoui.{mode}.sat {x} -> u8");
        }
    }
    // f32 sources, default (toward zero) rounding.
    let fs = [1.9f32, -1.9, 3e9, -3e9, f32::NAN];
    let fb: Vec<u64> = fs.iter().map(|x| x.to_bits() as u64).collect();
    assert_eq!(
        eval1("fptosi.sat A", "f32", "i32", &fb),
        [
            1,
            (-1i32) as u32 as u64,
            i32::MAX as u64,
            i32::MIN as u32 as u64,
            0
        ]
    );
    assert_eq!(
        eval1("fptoui.sat A", "f32", "i32", &fb),
        [1, 0, 3_000_000_000, 0, 0]
    );
    // Without .sat the result is unspecified but must not trap.
    let _ = eval1("fptosi A", "f32", "i16", &fb);
    let _ = eval1("fptoui.rtp A", "f64", "i64", &bits);
}

#[test]
fn integer_width_conversions() {
    assert_eq!(
        eval1("sext A", "i8", "i32", &[0x80, 0x7f]),
        [0xffff_ff80, 0x7f]
    );
    assert_eq!(eval1("zext A", "i8", "i64", &[0x80]), [0x80]);
    assert_eq!(eval1("trunc A", "i32", "i8", &[0x1234]), [0x34]);
    assert_eq!(eval1("trunc A", "i32", "i1", &[3, 2]), [1, 0]);
    assert_eq!(eval1("sext A", "i1", "i32", &[1]), [0xffff_ffff]);
    assert_eq!(
        eval1("bitcast A", "f32", "i32", &[1.0f32.to_bits() as u64]),
        [0x3f80_0000]
    );
}
