//! Exact conversions between integers and the three float formats, in every
//! OpenCL rounding mode, plus half-precision helpers.
//!
//! All float results go through one routine, [`round_to`], which rounds an
//! exact value `mant × 2^exp` to a target format; it is used for int → float,
//! float → float and the `f16` arithmetic. Doing it once, in integers, is what
//! makes `_rtp`/`_rtn`/`_rtz` exact (the host FPU only rounds to nearest).

use lockstep_ir::{Rounding, Type};

/// An IEEE binary format: fraction bits (without the implicit bit) and
/// exponent bits.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Format {
    pub mant_bits: u32,
    pub exp_bits: u32,
}

pub const F16: Format = Format {
    mant_bits: 10,
    exp_bits: 5,
};
pub const F32: Format = Format {
    mant_bits: 23,
    exp_bits: 8,
};
pub const F64: Format = Format {
    mant_bits: 52,
    exp_bits: 11,
};

impl Format {
    /// The format of a float type (`f64` for anything else).
    pub fn of(ty: Type) -> Format {
        match ty {
            Type::F16 => F16,
            Type::F32 => F32,
            _ => F64,
        }
    }

    fn bias(self) -> i32 {
        (1 << (self.exp_bits - 1)) - 1
    }

    fn sign_bit(self) -> u64 {
        1 << (self.mant_bits + self.exp_bits)
    }

    fn mant_mask(self) -> u64 {
        (1 << self.mant_bits) - 1
    }

    fn exp_mask(self) -> u64 {
        (1 << self.exp_bits) - 1
    }

    fn inf(self, neg: bool) -> u64 {
        (if neg { self.sign_bit() } else { 0 }) | (self.exp_mask() << self.mant_bits)
    }

    fn max_finite(self, neg: bool) -> u64 {
        (if neg { self.sign_bit() } else { 0 })
            | ((self.exp_mask() - 1) << self.mant_bits)
            | self.mant_mask()
    }
}

/// A float value taken apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decoded {
    /// `(-1)^neg × mant × 2^exp` (zero has `mant == 0`).
    Finite {
        neg: bool,
        mant: u64,
        exp: i32,
    },
    Inf {
        neg: bool,
    },
    /// `payload` is the fraction left-aligned in 64 bits (so that it can be
    /// narrowed by keeping the top bits, as hardware does).
    Nan {
        neg: bool,
        payload: u64,
    },
}

/// Takes apart the float `bits` of format `f`.
pub fn decode(bits: u64, f: Format) -> Decoded {
    let neg = bits & f.sign_bit() != 0;
    let e = ((bits >> f.mant_bits) & f.exp_mask()) as i32;
    let frac = bits & f.mant_mask();
    if e as u64 == f.exp_mask() {
        if frac == 0 {
            Decoded::Inf { neg }
        } else {
            Decoded::Nan {
                neg,
                payload: frac << (64 - f.mant_bits),
            }
        }
    } else if e == 0 {
        Decoded::Finite {
            neg,
            mant: frac,
            exp: 1 - f.bias() - f.mant_bits as i32,
        }
    } else {
        Decoded::Finite {
            neg,
            mant: frac | (1 << f.mant_bits),
            exp: e - f.bias() - f.mant_bits as i32,
        }
    }
}

/// A quiet NaN of format `f` keeping the sign and the top payload bits.
fn encode_nan(neg: bool, payload: u64, f: Format) -> u64 {
    let quiet = 1u64 << (f.mant_bits - 1);
    let frac = (payload >> (64 - f.mant_bits)) | quiet;
    f.inf(neg) | frac
}

/// Whether rounding a magnitude up is right, given the kept low bit, the
/// dropped bits `rem` and half of the dropped unit `half` (0 when the
/// dropped unit is beyond 128 bits: then `rem` is below half).
fn round_up(mode: Rounding, neg: bool, kept_odd: bool, rem: u128, half: Option<u128>) -> bool {
    if rem == 0 {
        return false;
    }
    match mode {
        Rounding::Rte => match half {
            Some(half) => rem > half || (rem == half && kept_odd),
            None => false,
        },
        Rounding::Rtz => false,
        Rounding::Rtp => !neg,
        Rounding::Rtn => neg,
    }
}

/// Splits `mant` at bit `shift`: the kept high part and whether to round it up.
fn shift_round(mant: u128, shift: u32, mode: Rounding, neg: bool) -> u128 {
    if shift == 0 {
        return mant;
    }
    let (kept, rem, half) = if shift >= 129 {
        (0, mant, None)
    } else if shift == 128 {
        (0, mant, Some(1u128 << 127))
    } else {
        (
            mant >> shift,
            mant & ((1u128 << shift) - 1),
            Some(1u128 << (shift - 1)),
        )
    };
    kept + round_up(mode, neg, kept & 1 == 1, rem, half) as u128
}

/// Rounds the exact value `(-1)^neg × mant × 2^exp` to format `f` in `mode`,
/// giving its bits (with overflow to infinity or the largest finite value as
/// the mode dictates, and gradual underflow).
pub fn round_to(neg: bool, mant: u128, exp: i32, f: Format, mode: Rounding) -> u64 {
    let sign = if neg { f.sign_bit() } else { 0 };
    if mant == 0 {
        return sign;
    }
    let p = f.mant_bits as i32 + 1;
    let emin = 1 - f.bias();
    let msb = 127 - mant.leading_zeros() as i32;
    let e = msb + exp;
    let mut q = e.max(emin) - (p - 1);
    let shift = q - exp;
    let mut m = if shift <= 0 {
        mant << (-shift) as u32
    } else {
        shift_round(mant, shift as u32, mode, neg)
    };
    if m == 1u128 << p {
        m >>= 1;
        q += 1;
    }
    if m >= 1u128 << (p - 1) {
        let e_final = q + p - 1;
        if e_final > f.bias() {
            let to_inf = match mode {
                Rounding::Rte => true,
                Rounding::Rtz => false,
                Rounding::Rtp => !neg,
                Rounding::Rtn => neg,
            };
            return if to_inf {
                f.inf(neg)
            } else {
                f.max_finite(neg)
            };
        }
        let biased = (e_final + f.bias()) as u64;
        sign | (biased << f.mant_bits) | (m as u64 & f.mant_mask())
    } else {
        sign | m as u64
    }
}

/// Converts float bits between formats (exact when widening).
pub fn float_to_float(bits: u64, from: Format, to: Format, mode: Rounding) -> u64 {
    match decode(bits, from) {
        Decoded::Finite { neg, mant, exp } => round_to(neg, mant as u128, exp, to, mode),
        Decoded::Inf { neg } => to.inf(neg),
        Decoded::Nan { neg, payload } => encode_nan(neg, payload, to),
    }
}

/// Converts an integer (given as an exact `i128`) to a float format.
pub fn int_to_float(value: i128, to: Format, mode: Rounding) -> u64 {
    round_to(value < 0, value.unsigned_abs(), 0, to, mode)
}

/// Rounds a float to an integer in `mode`; `None` for NaN, `Some(Err(neg))`
/// when the magnitude does not fit in 127 bits (or is infinite).
pub fn float_to_int(bits: u64, from: Format, mode: Rounding) -> Option<Result<i128, bool>> {
    match decode(bits, from) {
        Decoded::Nan { .. } => None,
        Decoded::Inf { neg } => Some(Err(neg)),
        Decoded::Finite { neg, mant, exp } => {
            let mant = mant as u128;
            let mag = if exp >= 0 {
                if exp as u32 + (128 - mant.leading_zeros()) > 126 {
                    return Some(Err(neg));
                }
                mant << exp as u32
            } else {
                shift_round(mant, (-exp) as u32, mode, neg)
            };
            let v = mag as i128;
            Some(Ok(if neg { -v } else { v }))
        }
    }
}

/// `f16` bits to `f32` (exact).
pub fn f16_to_f32(bits: u64) -> f32 {
    f32::from_bits(float_to_float(bits & 0xffff, F16, F32, Rounding::Rte) as u32)
}

/// `f32` to `f16` bits, rounding to nearest even.
pub fn f32_to_f16(x: f32) -> u64 {
    float_to_float(x.to_bits() as u64, F32, F16, Rounding::Rte)
}

/// `f64` to `f16` bits, rounding to nearest even (one rounding).
pub fn f64_to_f16(x: f64) -> u64 {
    float_to_float(x.to_bits(), F64, F16, Rounding::Rte)
}

/// Float bits of type `ty` as an `f64` (exact).
pub fn float_to_f64(bits: u64, ty: Type) -> f64 {
    match ty {
        Type::F16 => f16_to_f32(bits) as f64,
        Type::F32 => f32::from_bits(bits as u32) as f64,
        _ => f64::from_bits(bits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_round_trip_and_rounding() {
        assert_eq!(f32_to_f16(1.0), 0x3c00);
        assert_eq!(f32_to_f16(65504.0), 0x7bff);
        assert_eq!(f32_to_f16(65520.0), 0x7c00); // ties to even: overflows
        assert_eq!(f32_to_f16(65519.0), 0x7bff);
        assert_eq!(f32_to_f16(-0.0), 0x8000);
        assert_eq!(f32_to_f16(5.960_464_5e-8), 0x0001); // smallest subnormal
        assert_eq!(f32_to_f16(2.980_232_2e-8), 0x0000); // half of it: ties to even
        assert_eq!(f16_to_f32(0x0001), 5.960_464_5e-8);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert!(f16_to_f32(0x7e00).is_nan());
        for bits in 0..0x7c00u64 {
            assert_eq!(f32_to_f16(f16_to_f32(bits)), bits);
        }
    }

    #[test]
    fn matches_host_rounding_to_nearest() {
        let xs = [
            1.0f64,
            0.1,
            1e-40,
            1e-45,
            3.4028235677973366e38,
            3.5e38,
            -2.5e-310,
            123456789.123,
        ];
        for x in xs {
            let got = float_to_float(x.to_bits(), F64, F32, Rounding::Rte);
            assert_eq!(got, (x as f32).to_bits() as u64, "{x}");
        }
        for v in [
            0i128,
            1,
            -1,
            16777217,
            -16777217,
            i64::MAX as i128,
            u64::MAX as i128,
        ] {
            assert_eq!(
                int_to_float(v, F32, Rounding::Rte),
                (v as f32).to_bits() as u64
            );
            assert_eq!(int_to_float(v, F64, Rounding::Rte), (v as f64).to_bits());
        }
    }

    #[test]
    fn directed_rounding() {
        let v = 16777217i128; // 2^24 + 1: between two floats
        assert_eq!(
            int_to_float(v, F32, Rounding::Rtz),
            16777216f32.to_bits() as u64
        );
        assert_eq!(
            int_to_float(v, F32, Rounding::Rtn),
            16777216f32.to_bits() as u64
        );
        assert_eq!(
            int_to_float(v, F32, Rounding::Rtp),
            16777218f32.to_bits() as u64
        );
        assert_eq!(
            int_to_float(-v, F32, Rounding::Rtp),
            (-16777216f32).to_bits() as u64
        );
        assert_eq!(
            float_to_int(2.5f64.to_bits(), F64, Rounding::Rte),
            Some(Ok(2))
        );
        assert_eq!(
            float_to_int((-2.5f64).to_bits(), F64, Rounding::Rtn),
            Some(Ok(-3))
        );
        assert_eq!(
            float_to_int((-2.5f64).to_bits(), F64, Rounding::Rtp),
            Some(Ok(-2))
        );
        assert_eq!(
            float_to_int(1e300f64.to_bits(), F64, Rounding::Rtz),
            Some(Err(false))
        );
    }
}
