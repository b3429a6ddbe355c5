//! Checked mode: uninitialized values in registers.
//!
//! Each register of scalar IR has a *shadow* beside it: the bits of its
//! value that are uninitialized (0: all initialized). `undef` (what the
//! front end makes of LLVM's `undef` and `poison`, such as an
//! uninitialized variable after mem2reg) is all uninitialized; a load
//! takes the shadow of the `__private` or `__local` bytes it reads (see the
//! `check` module); every other operation computes its result's shadow
//! from its operands' here, as MemorySanitizer does: bit by bit for the
//! bitwise operations, shifts by an initialized amount and integer
//! conversions (so that the bytes of a partly initialized struct that
//! SROA packed into an integer stay apart), and all-or-nothing for
//! arithmetic. A `select` gives the chosen operand's shadow (everything, if
//! its condition is uninitialized); block arguments and call arguments
//! carry their shadow along.
//!
//! Nothing is reported here: an uninitialized value is only an error
//! where it is *observed* (Oclgrind's `--uninitialized`), which the
//! interpreter checks: a branch or switch on it, a memory access at an
//! address computed from it, a store of it to `__global` memory (the host
//! reads it), or an argument of a builtin with an effect (printf, atomics,
//! the lane a subgroup broadcast or shuffle reads, a `memcpy`/`memset`
//! size). `__private` and `__local` memory keep the shadows of what is
//! stored there, and subgroup collectives give the shadows of what they
//! combine. Values that are never observed, such as the undefined lanes of
//! a vector LLVM built and then took apart, or a `__local` slot a
//! work-item fills with an uninitialized value nobody reads, are not
//! reported.

use lockstep_ir::{BinaryOp, ConvertOp, Rounding, Type, UnaryOp};

use crate::arith::{int_binary, int_unary, mask};
use crate::decode::{Op, Reg};

/// All bits of a value, when any operand bit is uninitialized.
#[inline]
fn all_if(any: u64, bits: u32) -> u64 {
    if any != 0 {
        mask(bits)
    } else {
        0
    }
}

/// Sets the shadow of the register a pure data operation `op` defines
/// from its operands' values `regs` and shadows `sh`. Returns false for
/// the operations it does not cover (memory, calls, control flow, ...).
#[inline]
pub fn propagate(op: &Op, regs: &[u64], sh: &mut [u64]) -> bool {
    let r = |x: Reg| x as usize;
    let (dst, shadow) = match *op {
        Op::IntUnary { op, bits, dst, a } => {
            let s = sh[r(a)];
            let out = match op {
                UnaryOp::Bnot | UnaryOp::Bswap | UnaryOp::Bitreverse => int_unary(op, bits, s),
                UnaryOp::Freeze => 0,
                _ => all_if(s, bits),
            };
            (dst, out)
        }
        Op::FloatUnary {
            op: UnaryOp::Freeze,
            dst,
            ..
        } => (dst, 0),
        Op::FloatUnary { ty, dst, a, .. } => (dst, all_if(sh[r(a)], ty.bits())),
        Op::IntBinary {
            op,
            bits,
            dst,
            a,
            b,
        } => {
            let (va, vb, sa, sb) = (regs[r(a)], regs[r(b)], sh[r(a)], sh[r(b)]);
            let out = match op {
                // A result bit is known where a known operand bit decides it.
                BinaryOp::Band => (sa & sb) | (sa & vb) | (sb & va),
                BinaryOp::Bor => (sa & sb) | (sa & !vb) | (sb & !va),
                BinaryOp::Bxor => sa | sb,
                BinaryOp::Ishl
                | BinaryOp::Ushr
                | BinaryOp::Sshr
                | BinaryOp::Rotl
                | BinaryOp::Rotr
                    if sb == 0 =>
                {
                    int_binary(op, bits, sa, vb)
                }
                _ => all_if(sa | sb, bits),
            };
            (dst, out & mask(bits))
        }
        Op::FloatBinary { ty, dst, a, b, .. } => (dst, all_if(sh[r(a)] | sh[r(b)], ty.bits())),
        Op::IntTernary {
            bits, dst, a, b, c, ..
        } => (dst, all_if(sh[r(a)] | sh[r(b)] | sh[r(c)], bits)),
        Op::Fma { ty, dst, a, b, c } => (dst, all_if(sh[r(a)] | sh[r(b)] | sh[r(c)], ty.bits())),
        Op::Icmp { dst, a, b, .. } | Op::Fcmp { dst, a, b, .. } => {
            (dst, (sh[r(a)] | sh[r(b)] != 0) as u64)
        }
        Op::Select { dst, c, a, b } => {
            let out = if sh[r(c)] & 1 != 0 {
                u64::MAX
            } else if regs[r(c)] & 1 != 0 {
                sh[r(a)]
            } else {
                sh[r(b)]
            };
            (dst, out)
        }
        Op::Convert {
            op,
            from,
            to,
            dst,
            a,
            ..
        } => (dst, convert_shadow(op, from, to, sh[r(a)])),
        Op::PtrAdd { dst, a, b } => (dst, all_if(sh[r(a)] | sh[r(b)], 64)),
        Op::StackAddr { dst, .. } | Op::WorkItem { dst, .. } | Op::NextItem { dst } => (dst, 0),
        _ => return false,
    };
    sh[r(dst)] = shadow;
    true
}

/// The shadow of a conversion's result: integer conversions move the
/// bits as they move the value's (a sign extension copies the sign bit's
/// shadow), the others compute a new value from all of them.
fn convert_shadow(op: ConvertOp, from: Type, to: Type, s: u64) -> u64 {
    match op {
        ConvertOp::FpExt
        | ConvertOp::FpTrunc
        | ConvertOp::SiToFp
        | ConvertOp::UiToFp
        | ConvertOp::FpToSi
        | ConvertOp::FpToUi => all_if(s, to.bits()),
        _ => crate::exec::convert(op, from, to, Rounding::Rte, s),
    }
}
