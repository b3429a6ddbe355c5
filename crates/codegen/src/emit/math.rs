//! Vector math the emitter writes inline instead of calling a library:
//! the exponentials (`exp`, `exp2`, `exp10`) and logarithms (`log`,
//! `log2`, `log10`) of `float` vectors, whose calls dominate kernels like
//! Black-Scholes. Inline, LLVM schedules them with the rest of the kernel
//! and keeps its vectors in registers; a call to SLEEF saves and restores
//! every live vector register around it (all are caller-saved).
//!
//! Their errors, measured over the whole range against double precision
//! while they were written (OpenCL allows 3 ulp for each): `exp` 0.90 ulp,
//! `exp2` 0.90, `exp10` 1.05, `log` 0.82, `log2` 1.77, `log10` 1.93.
//! Infinities, NaNs, zeros, subnormal arguments and results follow C99's
//! Annex F.
//!
//! With AVX-512 the exponentials scale their result by `2^n` in one
//! `vscalefps`, which rounds a subnormal result once and gives 0 or
//! infinity past the range: AVX2 needs nine integer and floating-point
//! instructions for the same (Black-Scholes, three `exp`s per option:
//! 10% faster).

use llvm_sys::LLVMOpcode::{LLVMBitCast, LLVMFPToSI, LLVMSIToFP};
use llvm_sys::LLVMRealPredicate::{LLVMRealOEQ, LLVMRealOGT, LLVMRealOLT, LLVMRealUNO};

use super::llvm::{Llvm, V};

/// ln 2 split so that `n · LN2_HI` is exact for every `|n| < 256`: its
/// significand has 16 bits. `LN2_HI + LN2_LO` is ln 2 to 48 bits.
const LN2_HI: f64 = 0.693_145_751_953_125;
const LN2_LO: f64 = 1.428_606_765_330_187e-6;

/// log10(2) split likewise (11 bits in the high part).
const LOG10_2_HI: f64 = 0.301_025_390_625;
const LOG10_2_LO: f64 = std::f64::consts::LOG10_2 - LOG10_2_HI;

/// `e^x`, for a vector of `float`s `x`.
///
/// `x = n·ln 2 + r` with `n` the nearest integer to `x / ln 2` and
/// `|r| ≤ ln 2 / 2` (Cody and Waite's reduction, exact with the split
/// [`LN2_HI`]), then [`exp_of_reduced`]. Arguments are clamped to
/// [-104, 89] first (the results there are already 0 and infinity).
pub fn exp_f32(l: &Llvm, isa: Isa, x: V) -> V {
    let m = Math::new(l, isa, x);
    let xc = m.clamp(x, -104.0, 89.0);
    let n = m.round(l.fmul(xc, m.c(std::f64::consts::LOG2_E)));
    let r = m.fma(n, m.c(-LN2_HI), xc);
    let r = m.fma(n, m.c(-LN2_LO), r);
    m.exp_of_reduced(x, n, r)
}

/// `2^x`, for a vector of `float`s `x`: `x = n + f` with `n` the nearest
/// integer (`f` exact), `2^f = e^(f·ln 2)`, then [`exp_of_reduced`].
pub fn exp2_f32(l: &Llvm, isa: Isa, x: V) -> V {
    let m = Math::new(l, isa, x);
    let xc = m.clamp(x, -151.0, 129.0);
    let n = m.round(xc);
    let r = l.fmul(l.fsub(xc, n), m.c(std::f64::consts::LN_2));
    m.exp_of_reduced(x, n, r)
}

/// `10^x`, for a vector of `float`s `x`: `x·ln 10` as an unevaluated sum
/// `h + lo` (the product's rounding error recovered by a fused
/// multiply-add, ln 10 split in two `float`s), reduced by `n·ln 2` as in
/// [`exp_f32`], then [`exp_of_reduced`].
pub fn exp10_f32(l: &Llvm, isa: Isa, x: V) -> V {
    let m = Math::new(l, isa, x);
    let xc = m.clamp(x, -46.0, 39.0);
    let n = m.round(l.fmul(xc, m.c(std::f64::consts::LOG2_10)));
    let ln10_hi = f64::from(std::f64::consts::LN_10 as f32);
    let ln10_lo = std::f64::consts::LN_10 - ln10_hi;
    let h = l.fmul(xc, m.c(ln10_hi));
    let lo = m.fma(xc, m.c(ln10_hi), l.fneg(h));
    let lo = m.fma(xc, m.c(ln10_lo), lo);
    let r = m.fma(n, m.c(-LN2_HI), h);
    let r = m.fma(n, m.c(-LN2_LO), r);
    m.exp_of_reduced(x, n, l.fadd(r, lo))
}

/// `ln x`, for a vector of `float`s `x`: `x = 2^e · m` and
/// `ln x = e·ln 2 + ln m` ([`LogParts`]), with ln 2 split as in
/// [`exp_f32`] so that `e · LN2_HI` is exact.
pub fn log_f32(l: &Llvm, isa: Isa, x: V) -> V {
    let m = Math::new(l, isa, x);
    let p = m.log_parts(x);
    // ln m = f - (hfsq - s·t), the low parts gathered before f is added.
    let lo = m.fma(p.s, p.t, l.fmul(p.e, m.c(LN2_LO)));
    let result = l.fadd(l.fmul(p.e, m.c(LN2_HI)), l.fsub(p.f, l.fsub(p.hfsq, lo)));
    m.log_specials(x, result)
}

/// `log2 x`, for a vector of `float`s `x`: `e + ln m · log2(e)`.
pub fn log2_f32(l: &Llvm, isa: Isa, x: V) -> V {
    let m = Math::new(l, isa, x);
    let p = m.log_parts(x);
    let ln_m = p.ln_m(&m);
    let result = m.fma(ln_m, m.c(std::f64::consts::LOG2_E), p.e);
    m.log_specials(x, result)
}

/// `log10 x`, for a vector of `float`s `x`: `e·log10(2) + ln m · log10(e)`,
/// with log10(2) split as [`LOG10_2_HI`] so that `e · LOG10_2_HI` is exact.
pub fn log10_f32(l: &Llvm, isa: Isa, x: V) -> V {
    let m = Math::new(l, isa, x);
    let p = m.log_parts(x);
    let ln_m = p.ln_m(&m);
    let low = m.fma(
        ln_m,
        m.c(std::f64::consts::LOG10_E),
        l.fmul(p.e, m.c(LOG10_2_LO)),
    );
    let result = l.fadd(l.fmul(p.e, m.c(LOG10_2_HI)), low);
    m.log_specials(x, result)
}

/// A logarithm's argument `x = 2^e · m`, `m` in [√½, √2) (a subnormal `x`
/// scaled by 2^23 first), in the terms of `ln m = 2 atanh s =
/// f - hfsq + s·t`: `f = m - 1` (exact), `s = f / (2 + f)`,
/// `hfsq = f²/2`, `t = hfsq + R` with `R = 2s²/3 + 2s⁴/5 + 2s⁶/7 + 2s⁸/9`
/// (`|s| < 0.172`: the next term is below 2^-28 relative). In this form
/// `f`, exact, carries the result and the rest is a small correction.
struct LogParts {
    /// The exponent `e`, as a `float`.
    e: V,
    f: V,
    s: V,
    hfsq: V,
    t: V,
}

impl LogParts {
    /// `ln m`, rounded once more than [`log_f32`]'s sum.
    fn ln_m(&self, m: &Math) -> V {
        let l = m.l;
        l.fsub(self.f, l.fsub(self.hfsq, l.fmul(self.s, self.t)))
    }
}

/// What the target offers the functions above beyond AVX2's operations.
#[derive(Copy, Clone, Debug, Default)]
pub struct Isa {
    /// AVX-512F's `vscalefps` for vectors of this many lanes (or of 16
    /// lanes, for a multiple of 16).
    pub scalef: bool,
}

impl Isa {
    /// What the compilation target offers for vectors of `lanes` lanes:
    /// `vscalefps` in pieces of 16 lanes, or of 8 or 4 with AVX-512VL (see
    /// [`Math::scalef`]).
    pub fn for_lanes(lanes: u32) -> Isa {
        Isa {
            scalef: crate::target().is_ok_and(|t| {
                t.has_feature("avx512f")
                    && (lanes.is_multiple_of(16)
                        || (lanes.is_power_of_two() && lanes >= 4 && t.has_feature("avx512vl")))
            }),
        }
    }
}

/// The operations the functions above are written in, on `float` vectors
/// shaped like one argument.
struct Math<'l> {
    l: &'l Llvm,
    isa: Isa,
    like: V,
}

impl<'l> Math<'l> {
    fn new(l: &'l Llvm, isa: Isa, like: V) -> Self {
        Math { l, isa, like }
    }

    /// `value` as a `float` vector.
    fn c(&self, value: f64) -> V {
        // SAFETY: a constant of LLVM's `float` type, in the emitter's context.
        let c = unsafe { llvm_sys::core::LLVMConstReal(self.l.f32(), value) };
        self.splat(c)
    }

    /// `value` as an `i32` vector.
    fn i(&self, value: i64) -> V {
        self.splat(self.l.const_int(self.l.i32(), value as u64))
    }

    fn splat(&self, scalar: V) -> V {
        self.l.const_vector(&vec![scalar; self.lanes() as usize])
    }

    fn lanes(&self) -> u32 {
        // SAFETY: `like` is a vector value (the emitter calls these
        // functions for vectors only).
        unsafe { llvm_sys::core::LLVMGetVectorSize(self.l.type_of(self.like)) }
    }

    fn float_type(&self) -> llvm_sys::prelude::LLVMTypeRef {
        self.l.type_of(self.like)
    }

    fn int_type(&self) -> llvm_sys::prelude::LLVMTypeRef {
        self.l.vec(self.l.i32(), self.lanes())
    }

    fn fma(&self, a: V, b: V, acc: V) -> V {
        self.l
            .intrinsic("llvm.fma", &[self.float_type()], &[a, b, acc])
    }

    /// The nearest integer, ties to even.
    fn round(&self, x: V) -> V {
        self.l
            .intrinsic("llvm.roundeven", &[self.float_type()], &[x])
    }

    /// `x` clamped to [lo, hi]; a NaN stays NaN (one `vmaxps` and one
    /// `vminps` with the operands in the order that returns the second
    /// for NaN).
    fn clamp(&self, x: V, lo: f64, hi: f64) -> V {
        let (lo, hi) = (self.c(lo), self.c(hi));
        let x = self.l.select(self.l.fcmp(LLVMRealOLT, x, lo), lo, x);
        self.l.select(self.l.fcmp(LLVMRealOGT, x, hi), hi, x)
    }

    /// `e^r · 2^n` for `|r| ≲ ln 2 / 2` and an integral `n` from -151 to
    /// 129; NaN where `x` is NaN (`n` and `r` are then NaN too). `e^r` by
    /// its Taylor polynomial of degree 7 (the first term left out is below
    /// 2^-27 relative); the scaling by `vscalefps`, or in two steps,
    /// `2^⌊n/2⌋ · 2^(n - ⌊n/2⌋)`, so that each factor is a normal `float`
    /// and a subnormal result is rounded once.
    fn exp_of_reduced(&self, x: V, n: V, r: V) -> V {
        let l = self.l;
        // 1/7!, 1/6!, ..., 1/1!, 1/0!
        let factorials = [5040.0, 720.0, 120.0, 24.0, 6.0, 2.0, 1.0, 1.0];
        let mut p = self.c(1.0 / factorials[0]);
        for k in &factorials[1..] {
            p = self.fma(p, r, self.c(1.0 / k));
        }
        if self.isa.scalef {
            return self.scalef(p, n);
        }
        let ni = l.cast(LLVMFPToSI, n, self.int_type());
        let half = l.ashr(ni, self.i(1));
        let rest = l.sub(ni, half);
        let scaled = l.fmul(p, self.power_of_two(half));
        let result = l.fmul(scaled, self.power_of_two(rest));
        let nan = l.fcmp(LLVMRealUNO, x, x);
        l.select(nan, x, result)
    }

    /// `p · 2^⌊n⌋` rounded once (AVX-512F's `vscalefps`, on pieces of at
    /// most 16 lanes): 0 or infinity past the range, NaN for a NaN operand.
    fn scalef(&self, p: V, n: V) -> V {
        let l = self.l;
        let lanes = self.lanes();
        let piece = lanes.min(16);
        let (name, mask_bits) = match piece {
            16 => ("llvm.x86.avx512.mask.scalef.ps.512", 16),
            8 => ("llvm.x86.avx512.mask.scalef.ps.256", 8),
            _ => ("llvm.x86.avx512.mask.scalef.ps.128", 8),
        };
        let pt = l.vec(l.f32(), piece);
        let all = l.const_int(l.int(mask_bits), u64::MAX);
        let parts: Vec<V> = (0..lanes)
            .step_by(piece as usize)
            .map(|start| {
                let take = |v: V| {
                    if piece == lanes {
                        v
                    } else {
                        let idx: Vec<u32> = (start..start + piece).collect();
                        l.shuffle(v, l.poison(self.float_type()), &idx)
                    }
                };
                let mut args = vec![take(p), take(n), l.poison(pt), all];
                if piece == 16 {
                    // _MM_FROUND_CUR_DIRECTION
                    args.push(l.const_int(l.i32(), 4));
                }
                l.intrinsic(name, &[], &args)
            })
            .collect();
        parts
            .into_iter()
            .reduce(|a, b| {
                let idx: Vec<u32> = (0..2 * l.vec_len(a)).collect();
                l.shuffle(a, b, &idx)
            })
            .expect("a vector has lanes")
    }

    /// `2^n` for integers `n` from -126 to 127: the exponent field alone.
    fn power_of_two(&self, n: V) -> V {
        let biased = self.l.add(n, self.i(127));
        let bits = self.l.shl(biased, self.i(23));
        self.l.cast(LLVMBitCast, bits, self.float_type())
    }

    /// [`LogParts`] of `x` (meaningful for positive finite `x`; the rest is
    /// [`Math::log_specials`]'s).
    fn log_parts(&self, x: V) -> LogParts {
        let l = self.l;
        let subnormal = l.fcmp(LLVMRealOLT, x, self.c(f64::from(f32::MIN_POSITIVE)));
        let scaled = l.fmul(x, self.c(8_388_608.0)); // 2^23
        let xs = l.select(subnormal, scaled, x);
        let bits = l.cast(LLVMBitCast, xs, self.int_type());
        // Moving the bits of √½ to 1.0 makes the exponent field e + 1 for
        // m ≥ √2, and the significand then goes back to [√½, √2).
        const SQRT_HALF_BITS: i64 = 0x3f35_04f3;
        let moved = l.add(bits, self.i(0x3f80_0000 - SQRT_HALF_BITS));
        let biased = l.ashr(moved, self.i(23));
        let bias = l.select(subnormal, self.i(127 + 23), self.i(127));
        let e = l.cast(LLVMSIToFP, l.sub(biased, bias), self.float_type());
        let significand = l.add(l.and(moved, self.i(0x007f_ffff)), self.i(SQRT_HALF_BITS));
        let m = l.cast(LLVMBitCast, significand, self.float_type());
        let f = l.fsub(m, self.c(1.0));
        let s = l.fdiv(f, l.fadd(self.c(2.0), f));
        let z = l.fmul(s, s);
        let mut r = self.c(2.0 / 9.0);
        for k in [2.0 / 7.0, 2.0 / 5.0, 2.0 / 3.0] {
            r = self.fma(r, z, self.c(k));
        }
        let r = l.fmul(r, z);
        let hfsq = l.fmul(l.fmul(self.c(0.5), f), f);
        let t = l.fadd(hfsq, r);
        LogParts { e, f, s, hfsq, t }
    }

    /// A logarithm's `result` where `x` is positive and finite; -inf at ±0,
    /// the NaN an invalid operation makes on x86 (sign bit set, as the C
    /// library returns) for negative `x`, `x` itself at NaN and inf.
    fn log_specials(&self, x: V, result: V) -> V {
        let l = self.l;
        let zero = l.fcmp(LLVMRealOEQ, x, self.c(0.0));
        let result = l.select(zero, self.c(f64::NEG_INFINITY), result);
        let negative = l.fcmp(LLVMRealOLT, x, self.c(0.0));
        let invalid = self.splat(l.const_real_bits(l.f32(), 32, 0xffc0_0000));
        let result = l.select(negative, invalid, result);
        let infinite = l.fcmp(LLVMRealOEQ, x, self.c(f64::INFINITY));
        let passed_through = l.or(infinite, l.fcmp(LLVMRealUNO, x, x));
        l.select(passed_through, x, result)
    }
}
