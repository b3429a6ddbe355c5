//! The value semantics of the arithmetic instructions, on registers holding
//! `u64` bit patterns (integers zero-extended to their width, `i1` as 0/1,
//! floats as their IEEE bits).
//!
//! Integer rules: operations wrap; shift and rotate amounts are taken modulo
//! the width; division by zero (`udiv`, `sdiv`, `urem`, `srem`) and
//! `MIN / -1` give 0, as does `MIN % -1` (its true value). Float rules: `f32`
//! arithmetic is done in `f32`, `f64` in `f64`; `f16` is widened exactly to
//! `f32`, computed there and rounded back once (exact for `+ - * / sqrt`,
//! whose `f32` results round to `f16` without double-rounding error).
//! Transcendental functions of `f32` (and `f16`) are evaluated in `f64` with
//! `libm` and rounded once, which is closer to the correctly rounded result
//! than an `f32` implementation; OpenCL's ULP bounds are then the SIMD
//! engine's to meet relative to this oracle.

use lockstep_ir::{BinaryOp, FloatCC, IntCC, TernaryOp, Type, UnaryOp};

use crate::convert::{f16_to_f32, f32_to_f16, f64_to_f16};

/// The mask of a `bits`-wide integer.
#[inline]
pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Sign-extends the low `bits` of `x`.
#[inline]
pub fn sext(x: u64, bits: u32) -> i64 {
    if bits >= 64 {
        x as i64
    } else {
        let s = 64 - bits;
        ((x << s) as i64) >> s
    }
}

fn smin_of(bits: u32) -> i64 {
    if bits >= 64 {
        i64::MIN
    } else {
        -(1i64 << (bits - 1))
    }
}

fn smax_of(bits: u32) -> i64 {
    if bits >= 64 {
        i64::MAX
    } else {
        (1i64 << (bits - 1)) - 1
    }
}

/// One-operand integer operations.
pub fn int_unary(op: UnaryOp, bits: u32, x: u64) -> u64 {
    let m = mask(bits);
    let x = x & m;
    let r = match op {
        UnaryOp::Ineg => x.wrapping_neg(),
        UnaryOp::Bnot => !x,
        UnaryOp::Freeze => x,
        UnaryOp::Clz => (x.leading_zeros() - (64 - bits)) as u64,
        UnaryOp::Ctz => {
            if x == 0 {
                bits as u64
            } else {
                x.trailing_zeros() as u64
            }
        }
        UnaryOp::Popcount => x.count_ones() as u64,
        UnaryOp::Bswap => {
            // Whole bytes only; a width that is not a multiple of 8 keeps its bytes.
            let bytes = bits / 8;
            if bytes == 0 {
                x
            } else {
                x.swap_bytes() >> (64 - bytes * 8)
            }
        }
        UnaryOp::Bitreverse => x.reverse_bits() >> (64 - bits),
        UnaryOp::Iabs => sext(x, bits).unsigned_abs(),
        _ => x,
    };
    r & m
}

/// Two-operand integer operations.
pub fn int_binary(op: BinaryOp, bits: u32, a: u64, b: u64) -> u64 {
    let m = mask(bits);
    let (a, b) = (a & m, b & m);
    let sa = || sext(a, bits);
    let sb = || sext(b, bits);
    let amount = || (b % bits as u64) as u32;
    let r = match op {
        BinaryOp::Iadd => a.wrapping_add(b),
        BinaryOp::Isub => a.wrapping_sub(b),
        BinaryOp::Imul => a.wrapping_mul(b),
        BinaryOp::Udiv => a.checked_div(b).unwrap_or(0),
        BinaryOp::Urem => a.checked_rem(b).unwrap_or(0),
        BinaryOp::Sdiv => {
            let (x, y) = (sa(), sb());
            if y == 0 || (x == smin_of(bits) && y == -1) {
                0
            } else {
                (x / y) as u64
            }
        }
        BinaryOp::Srem => {
            let (x, y) = (sa(), sb());
            if y == 0 || y == -1 {
                0
            } else {
                (x % y) as u64
            }
        }
        BinaryOp::Umulhi => ((a as u128 * b as u128) >> bits) as u64,
        BinaryOp::Smulhi => ((sa() as i128 * sb() as i128) >> bits) as u64,
        BinaryOp::Band => a & b,
        BinaryOp::Bor => a | b,
        BinaryOp::Bxor => a ^ b,
        BinaryOp::Ishl => a << amount(),
        BinaryOp::Ushr => a >> amount(),
        BinaryOp::Sshr => (sa() >> amount()) as u64,
        BinaryOp::Rotl | BinaryOp::Rotr => {
            let mut s = amount();
            if op == BinaryOp::Rotr {
                s = (bits - s) % bits;
            }
            if s == 0 {
                a
            } else {
                (a << s) | (a >> (bits - s))
            }
        }
        BinaryOp::Smin => sa().min(sb()) as u64,
        BinaryOp::Smax => sa().max(sb()) as u64,
        BinaryOp::Umin => a.min(b),
        BinaryOp::Umax => a.max(b),
        BinaryOp::UaddSat => (a as u128 + b as u128).min(m as u128) as u64,
        BinaryOp::UsubSat => a.saturating_sub(b),
        BinaryOp::SaddSat => {
            (sa() as i128 + sb() as i128).clamp(smin_of(bits) as i128, smax_of(bits) as i128) as u64
        }
        BinaryOp::SsubSat => {
            (sa() as i128 - sb() as i128).clamp(smin_of(bits) as i128, smax_of(bits) as i128) as u64
        }
        _ => 0,
    };
    r & m
}

/// Funnel shifts (`fshl`, `fshr`); `fma` is a float op.
pub fn int_ternary(op: TernaryOp, bits: u32, a: u64, b: u64, c: u64) -> u64 {
    let m = mask(bits);
    let (a, b) = (a & m, b & m);
    let s = ((c & m) % bits as u64) as u32;
    let r = match op {
        TernaryOp::Fshl if s == 0 => a,
        TernaryOp::Fshl => (a << s) | (b >> (bits - s)),
        TernaryOp::Fshr if s == 0 => b,
        TernaryOp::Fshr => (b >> s) | (a << (bits - s)),
        TernaryOp::Fma => 0,
    };
    r & m
}

pub fn icmp(cond: IntCC, bits: u32, a: u64, b: u64) -> bool {
    let m = mask(bits);
    let (a, b) = (a & m, b & m);
    match cond {
        IntCC::Eq => a == b,
        IntCC::Ne => a != b,
        IntCC::Slt => sext(a, bits) < sext(b, bits),
        IntCC::Sle => sext(a, bits) <= sext(b, bits),
        IntCC::Sgt => sext(a, bits) > sext(b, bits),
        IntCC::Sge => sext(a, bits) >= sext(b, bits),
        IntCC::Ult => a < b,
        IntCC::Ule => a <= b,
        IntCC::Ugt => a > b,
        IntCC::Uge => a >= b,
    }
}

pub fn fcmp<T: PartialOrd>(cond: FloatCC, a: T, b: T) -> bool {
    use std::cmp::Ordering::*;
    let ord = a.partial_cmp(&b);
    match cond {
        FloatCC::Oeq => ord == Some(Equal),
        FloatCC::One => matches!(ord, Some(Less | Greater)),
        FloatCC::Olt => ord == Some(Less),
        FloatCC::Ole => matches!(ord, Some(Less | Equal)),
        FloatCC::Ogt => ord == Some(Greater),
        FloatCC::Oge => matches!(ord, Some(Greater | Equal)),
        FloatCC::Ord => ord.is_some(),
        FloatCC::Uno => ord.is_none(),
        FloatCC::Ueq => matches!(ord, None | Some(Equal)),
        FloatCC::Une => ord != Some(Equal),
        FloatCC::Ult => matches!(ord, None | Some(Less)),
        FloatCC::Ule => ord != Some(Greater),
        FloatCC::Ugt => matches!(ord, None | Some(Greater)),
        FloatCC::Uge => ord != Some(Less),
    }
}

/// Float comparison of bits of type `ty`.
pub fn fcmp_bits(cond: FloatCC, ty: Type, a: u64, b: u64) -> bool {
    match ty {
        Type::F64 => fcmp(cond, f64::from_bits(a), f64::from_bits(b)),
        Type::F32 => fcmp(cond, f32::from_bits(a as u32), f32::from_bits(b as u32)),
        _ => fcmp(cond, f16_to_f32(a), f16_to_f32(b)),
    }
}

/// OpenCL `fmin`/`fmax`: a NaN operand yields the other; `-0 < +0`.
fn fminmax<T: Copy + PartialOrd>(
    a: T,
    b: T,
    max: bool,
    is_nan: impl Fn(T) -> bool,
    neg: impl Fn(T) -> bool,
) -> T {
    if is_nan(a) {
        return b;
    }
    if is_nan(b) {
        return a;
    }
    let a_first = if a == b {
        // Equal: only the zeros differ; order them by sign.
        neg(a) != max
    } else {
        (a < b) != max
    };
    if a_first {
        a
    } else {
        b
    }
}

/// The float operations, in `f64`.
pub trait Float:
    Copy
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Rem<Output = Self>
    + std::ops::Neg<Output = Self>
{
    fn to_f64(self) -> f64;
    fn from_f64(x: f64) -> Self;
    fn is_nan(self) -> bool;
    fn neg_sign(self) -> bool;
    fn sqrt(self) -> Self;
    fn abs(self) -> Self;
    fn floor(self) -> Self;
    fn ceil(self) -> Self;
    fn trunc(self) -> Self;
    fn round(self) -> Self;
    fn rint(self) -> Self;
    fn copysign(self, s: Self) -> Self;
    fn mul_add(self, b: Self, c: Self) -> Self;
}

macro_rules! impl_float {
    ($t:ty) => {
        impl Float for $t {
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn from_f64(x: f64) -> Self {
                x as $t
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn neg_sign(self) -> bool {
                self.is_sign_negative()
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            fn floor(self) -> Self {
                <$t>::floor(self)
            }
            fn ceil(self) -> Self {
                <$t>::ceil(self)
            }
            fn trunc(self) -> Self {
                <$t>::trunc(self)
            }
            fn round(self) -> Self {
                <$t>::round(self)
            }
            fn rint(self) -> Self {
                <$t>::round_ties_even(self)
            }
            fn copysign(self, s: Self) -> Self {
                <$t>::copysign(self, s)
            }
            fn mul_add(self, b: Self, c: Self) -> Self {
                <$t>::mul_add(self, b, c)
            }
        }
    };
}
impl_float!(f32);
impl_float!(f64);

/// A one-operand float operation in format `T` (transcendentals via `f64`).
pub fn float_unary<T: Float>(op: UnaryOp, x: T) -> T {
    let via = |f: fn(f64) -> f64| T::from_f64(f(x.to_f64()));
    match op {
        UnaryOp::Fneg => -x,
        UnaryOp::Fabs => x.abs(),
        UnaryOp::Sqrt => x.sqrt(),
        UnaryOp::Rsqrt => via(|v| 1.0 / v.sqrt()),
        UnaryOp::Floor => x.floor(),
        UnaryOp::Ceil => x.ceil(),
        UnaryOp::Ftrunc => x.trunc(),
        UnaryOp::Round => x.round(),
        UnaryOp::Rint => x.rint(),
        UnaryOp::Exp => via(libm::exp),
        UnaryOp::Exp2 => via(libm::exp2),
        UnaryOp::Exp10 => via(libm::exp10),
        UnaryOp::Expm1 => via(libm::expm1),
        UnaryOp::Log => via(libm::log),
        UnaryOp::Log2 => via(libm::log2),
        UnaryOp::Log10 => via(libm::log10),
        UnaryOp::Log1p => via(libm::log1p),
        UnaryOp::Sin => via(libm::sin),
        UnaryOp::Cos => via(libm::cos),
        UnaryOp::Tan => via(libm::tan),
        UnaryOp::Asin => via(libm::asin),
        UnaryOp::Acos => via(libm::acos),
        UnaryOp::Atan => via(libm::atan),
        UnaryOp::Sinh => via(libm::sinh),
        UnaryOp::Cosh => via(libm::cosh),
        UnaryOp::Tanh => via(libm::tanh),
        UnaryOp::Asinh => via(libm::asinh),
        UnaryOp::Acosh => via(libm::acosh),
        UnaryOp::Atanh => via(libm::atanh),
        UnaryOp::Cbrt => via(libm::cbrt),
        UnaryOp::Erf => via(libm::erf),
        UnaryOp::Erfc => via(libm::erfc),
        UnaryOp::Tgamma => via(libm::tgamma),
        UnaryOp::Lgamma => via(libm::lgamma),
        // Integer operations are not float operations.
        _ => x,
    }
}

/// A two-operand float operation in format `T`.
pub fn float_binary<T: Float>(op: BinaryOp, a: T, b: T) -> T {
    let via = |f: fn(f64, f64) -> f64| T::from_f64(f(a.to_f64(), b.to_f64()));
    match op {
        BinaryOp::Fadd => a + b,
        BinaryOp::Fsub => a - b,
        BinaryOp::Fmul => a * b,
        BinaryOp::Fdiv => a / b,
        // Rust's `%` on floats is C's fmod, exact.
        BinaryOp::Frem => a % b,
        BinaryOp::Fmin => fminmax(a, b, false, T::is_nan, T::neg_sign),
        BinaryOp::Fmax => fminmax(a, b, true, T::is_nan, T::neg_sign),
        BinaryOp::Copysign => a.copysign(b),
        BinaryOp::Pow => via(libm::pow),
        BinaryOp::Atan2 => via(libm::atan2),
        BinaryOp::Hypot => via(libm::hypot),
        // The IEEE remainder is exact, so computing it in f64 is too.
        BinaryOp::Remainder => via(libm::remainder),
        _ => a,
    }
}

/// Dispatches a float unary op on bits of type `ty`.
pub fn float_unary_bits(op: UnaryOp, ty: Type, x: u64) -> u64 {
    if op == UnaryOp::Freeze {
        return x;
    }
    match ty {
        Type::F64 => float_unary(op, f64::from_bits(x)).to_bits(),
        Type::F32 => float_unary(op, f32::from_bits(x as u32)).to_bits() as u64,
        _ => match op {
            // Sign operations are bitwise (and keep NaN payloads).
            UnaryOp::Fneg => (x ^ 0x8000) & 0xffff,
            UnaryOp::Fabs => x & 0x7fff,
            UnaryOp::Sqrt
            | UnaryOp::Floor
            | UnaryOp::Ceil
            | UnaryOp::Ftrunc
            | UnaryOp::Round
            | UnaryOp::Rint => f32_to_f16(float_unary(op, f16_to_f32(x))),
            _ => f64_to_f16(float_unary(op, f16_to_f32(x) as f64)),
        },
    }
}

/// Dispatches a float binary op on bits of type `ty`.
pub fn float_binary_bits(op: BinaryOp, ty: Type, a: u64, b: u64) -> u64 {
    match ty {
        Type::F64 => float_binary(op, f64::from_bits(a), f64::from_bits(b)).to_bits(),
        Type::F32 => {
            float_binary(op, f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits() as u64
        }
        _ => match op {
            BinaryOp::Copysign => (a & 0x7fff) | (b & 0x8000),
            BinaryOp::Fmin | BinaryOp::Fmax => {
                // Pick an operand so that NaN payloads and zeros stay as given.
                let r = float_binary(op, f16_to_f32(a), f16_to_f32(b));
                let fa = f16_to_f32(a);
                if r.to_bits() == fa.to_bits() || (r.is_nan() && fa.is_nan()) {
                    a & 0xffff
                } else {
                    b & 0xffff
                }
            }
            _ => f32_to_f16(float_binary(op, f16_to_f32(a), f16_to_f32(b))),
        },
    }
}

/// Fused multiply-add on bits of type `ty`. `f16` goes through one `f64`
/// fma (exact product) and one rounding to `f16`, except in the rare case
/// where the `f64` sum itself is rounded onto an `f16` tie.
pub fn fma_bits(ty: Type, a: u64, b: u64, c: u64) -> u64 {
    match ty {
        Type::F64 => f64::from_bits(a)
            .mul_add(f64::from_bits(b), f64::from_bits(c))
            .to_bits(),
        Type::F32 => f32::from_bits(a as u32)
            .mul_add(f32::from_bits(b as u32), f32::from_bits(c as u32))
            .to_bits() as u64,
        _ => {
            let (a, b, c) = (
                f16_to_f32(a) as f64,
                f16_to_f32(b) as f64,
                f16_to_f32(c) as f64,
            );
            f64_to_f16(a.mul_add(b, c))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_edge_cases() {
        assert_eq!(int_binary(BinaryOp::Sdiv, 32, 0x8000_0000, 0xffff_ffff), 0);
        assert_eq!(int_binary(BinaryOp::Sdiv, 32, 7, 0), 0);
        assert_eq!(int_binary(BinaryOp::Srem, 32, 0x8000_0000, 0xffff_ffff), 0);
        assert_eq!(
            int_binary(BinaryOp::Sdiv, 32, (-7i32) as u32 as u64, 2),
            (-3i32) as u32 as u64
        );
        assert_eq!(
            int_binary(BinaryOp::Srem, 32, (-7i32) as u32 as u64, 2),
            (-1i32) as u32 as u64
        );
        assert_eq!(int_binary(BinaryOp::Ishl, 32, 1, 33), 2);
        assert_eq!(int_binary(BinaryOp::Sshr, 8, 0x80, 9), 0xc0);
        assert_eq!(int_binary(BinaryOp::Rotl, 8, 0x81, 1), 0x03);
        assert_eq!(int_binary(BinaryOp::Rotr, 8, 0x81, 1), 0xc0);
        assert_eq!(
            int_binary(BinaryOp::Umulhi, 32, 0xffff_ffff, 0xffff_ffff),
            0xffff_fffe
        );
        assert_eq!(
            int_binary(BinaryOp::Smulhi, 32, 0xffff_ffff, 0xffff_ffff),
            0
        );
        assert_eq!(int_binary(BinaryOp::SaddSat, 8, 0x7f, 1), 0x7f);
        assert_eq!(int_binary(BinaryOp::SsubSat, 8, 0x80, 1), 0x80);
        assert_eq!(int_binary(BinaryOp::UaddSat, 64, u64::MAX, 1), u64::MAX);
        assert_eq!(int_unary(UnaryOp::Clz, 32, 0), 32);
        assert_eq!(int_unary(UnaryOp::Clz, 16, 1), 15);
        assert_eq!(int_unary(UnaryOp::Ctz, 8, 0), 8);
        assert_eq!(int_unary(UnaryOp::Bswap, 32, 0x1234_5678), 0x7856_3412);
        assert_eq!(int_unary(UnaryOp::Bitreverse, 8, 1), 0x80);
        assert_eq!(int_unary(UnaryOp::Iabs, 32, 0x8000_0000), 0x8000_0000);
        assert_eq!(int_ternary(TernaryOp::Fshl, 8, 0x12, 0x34, 4), 0x23);
        assert_eq!(int_ternary(TernaryOp::Fshr, 8, 0x12, 0x34, 4), 0x23);
        assert_eq!(int_ternary(TernaryOp::Fshr, 8, 0x12, 0x34, 8), 0x34);
    }

    #[test]
    fn fmin_fmax() {
        let nan = f32::NAN;
        assert_eq!(float_binary(BinaryOp::Fmin, nan, 1.0f32), 1.0);
        assert_eq!(float_binary(BinaryOp::Fmax, 2.0f32, nan), 2.0);
        assert!(float_binary(BinaryOp::Fmax, nan, nan).is_nan());
        assert!(float_binary(BinaryOp::Fmin, 0.0f32, -0.0).is_sign_negative());
        assert!(float_binary(BinaryOp::Fmax, -0.0f32, 0.0).is_sign_positive());
    }
}
