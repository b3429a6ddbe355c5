//! OpenCL `printf` formatting.
//!
//! Conversions `d i u x X o c s p f F e E g G a A %` with the flags
//! `- + space # 0`, a width and a precision (numbers or `*`), the length
//! modifiers `hh h hl l` and OpenCL C 3.1's `z t` (`size_t`, `ptrdiff_t`:
//! 64 bits here), and OpenCL's vector form `%vNT` (`%v4f`, `%v2hld`): the
//! scalarized IR passes a vector's components as `N` consecutive
//! arguments, printed separated by commas. Output follows C99 /
//! glibc: `inf`/`nan` (with their sign), `%p` as `0x…` hex of the tagged
//! address (`(nil)` for null), `%a` with a leading `1.` (`0.` for
//! subnormals). Floats may arrive as `f64` (C's promotion) or `f16`/`f32`;
//! they are widened exactly.
//!
//! Widths and precisions up to [`MAX_FIELD`] are honoured exactly, however
//! large (`%.70000f` prints 70000 digits, the exact expansion then zeros);
//! a larger one makes `printf` return -1 rather than build gigabytes of
//! output per work-item.

use lockstep_ir::Type;

use crate::arith::sext;
use crate::convert::float_to_f64;

/// Why a `printf` could not be formatted.
#[derive(Debug)]
pub enum PrintfError<E> {
    /// A malformed format or missing argument: `printf` returns -1.
    Format(String),
    /// Reading a `%s` string failed.
    Read(E),
}

/// The largest field width or precision `printf` formats (1 MiB of text).
pub const MAX_FIELD: usize = 1 << 20;

/// More fraction digits than any `f64`'s exact decimal expansion has
/// (1074 for the smallest subnormal): digits beyond are zeros.
const EXACT_DIGITS: usize = 1100;

#[derive(Default, Clone, Copy)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    alt: bool,
    zero: bool,
    width: usize,
    precision: Option<usize>,
}

/// Formats `fmt` with `args` (register bits and IR types); `read_string`
/// reads the NUL-terminated string for a `%s` argument.
pub fn format<E>(
    fmt: &str,
    args: &[(u64, Type)],
    read_string: &mut dyn FnMut(u64) -> Result<Vec<u8>, E>,
) -> Result<String, PrintfError<E>> {
    let bad = |m: &str| PrintfError::Format(m.to_string());
    let f = fmt.as_bytes();
    let mut out: Vec<u8> = Vec::new();
    let mut next = 0usize;
    let mut take = || {
        let a = args.get(next).copied();
        next += 1;
        a.ok_or_else(|| bad("too few arguments"))
    };
    let mut i = 0;
    while i < f.len() {
        if f[i] != b'%' {
            out.push(f[i]);
            i += 1;
            continue;
        }
        i += 1;
        if f.get(i) == Some(&b'%') {
            out.push(b'%');
            i += 1;
            continue;
        }
        let mut spec = Spec::default();
        while let Some(&c) = f.get(i) {
            match c {
                b'-' => spec.left = true,
                b'+' => spec.plus = true,
                b' ' => spec.space = true,
                b'#' => spec.alt = true,
                b'0' => spec.zero = true,
                _ => break,
            }
            i += 1;
        }
        if f.get(i) == Some(&b'*') {
            i += 1;
            let (bits, ty) = take()?;
            let w = sext(bits, ty.bits()) as i32;
            if w < 0 {
                spec.left = true;
            }
            spec.width = w.unsigned_abs() as usize;
        } else {
            spec.width = digits(f, &mut i);
        }
        if f.get(i) == Some(&b'.') {
            i += 1;
            if f.get(i) == Some(&b'*') {
                i += 1;
                let (bits, ty) = take()?;
                let p = sext(bits, ty.bits()) as i32;
                spec.precision = (p >= 0).then_some(p as usize);
            } else {
                spec.precision = Some(digits(f, &mut i));
            }
        }
        if spec.width > MAX_FIELD || spec.precision.is_some_and(|p| p > MAX_FIELD) {
            return Err(bad("field width or precision over 1048576"));
        }
        let mut vector = None;
        if f.get(i) == Some(&b'v') {
            i += 1;
            let n = digits(f, &mut i);
            if ![2, 3, 4, 8, 16].contains(&n) {
                return Err(bad("bad vector size"));
            }
            vector = Some(n);
        }
        let length: Option<u32> = if f[i..].starts_with(b"hh") {
            i += 2;
            Some(8)
        } else if f[i..].starts_with(b"hl") {
            i += 2;
            Some(32)
        } else if f[i..].starts_with(b"h") {
            i += 1;
            Some(16)
        } else if f[i..].starts_with(b"ll") {
            i += 2;
            Some(64)
        } else if f[i..].starts_with(b"l") {
            i += 1;
            Some(64)
        } else if f[i..].starts_with(b"z") || f[i..].starts_with(b"t") {
            // size_t and ptrdiff_t (OpenCL C 3.1): 64 bits on this device.
            i += 1;
            Some(64)
        } else {
            None
        };
        let Some(&conv) = f.get(i) else {
            return Err(bad("incomplete conversion"));
        };
        i += 1;
        let count = vector.unwrap_or(1);
        for k in 0..count {
            if k > 0 {
                out.push(b',');
            }
            let (bits, ty) = take()?;
            // Scalars are promoted to int (32 bits) unless a length says
            // otherwise; vector components keep their own width.
            let width = length.unwrap_or(if vector.is_some() {
                ty.bits().max(8)
            } else {
                32
            });
            let text = match conv {
                b'd' | b'i' => {
                    let v = sext(int_bits(bits, ty), width.min(ty_bits(ty)));
                    let v = sext(v as u64, width);
                    int_text(v < 0, v.unsigned_abs() as u128, 10, false, true, &spec)
                }
                b'u' | b'x' | b'X' | b'o' => {
                    let v = int_bits(bits, ty);
                    let v = if ty_bits(ty) < width {
                        // A narrower value was sign- or zero-extended by C's
                        // promotion; we only know its bits, so zero-extend.
                        v
                    } else {
                        v & crate::arith::mask(width)
                    };
                    let radix = match conv {
                        b'u' => 10,
                        b'o' => 8,
                        _ => 16,
                    };
                    int_text(false, v as u128, radix, conv == b'X', false, &spec)
                }
                b'c' => pad(vec![bits as u8], &spec, false),
                b's' => {
                    let mut s = read_string(bits).map_err(PrintfError::Read)?;
                    if let Some(p) = spec.precision {
                        s.truncate(p);
                    }
                    pad(s, &spec, false)
                }
                b'p' => {
                    let body = if bits == 0 {
                        b"(nil)".to_vec()
                    } else {
                        format!("0x{bits:x}").into_bytes()
                    };
                    pad(body, &spec, false)
                }
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                    let x = if ty.is_float() {
                        float_to_f64(bits, ty)
                    } else if ty.bits() == 32 {
                        f32::from_bits(bits as u32) as f64
                    } else {
                        f64::from_bits(bits)
                    };
                    float_text(x, conv, &spec)
                }
                _ => return Err(bad("unknown conversion")),
            };
            out.extend_from_slice(&text);
        }
    }
    if next < args.len() {
        // Extra arguments are ignored, as in C.
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

fn ty_bits(ty: Type) -> u32 {
    ty.bits().max(1)
}

fn int_bits(bits: u64, ty: Type) -> u64 {
    if ty.is_int() || ty.is_ptr() {
        bits & ty.int_mask()
    } else {
        bits
    }
}

fn digits(f: &[u8], i: &mut usize) -> usize {
    let mut n = 0usize;
    while let Some(&c) = f.get(*i) {
        if !c.is_ascii_digit() {
            break;
        }
        n = n.saturating_mul(10).saturating_add((c - b'0') as usize);
        *i += 1;
    }
    n
}

/// Pads `body` to the width (zeros go after `prefix_len` sign/prefix bytes).
fn pad_with(mut body: Vec<u8>, spec: &Spec, zero: bool, prefix_len: usize) -> Vec<u8> {
    if body.len() >= spec.width {
        return body;
    }
    let fill = spec.width - body.len();
    if spec.left {
        body.extend(vec![b' '; fill]);
        body
    } else if zero {
        let mut out = body[..prefix_len].to_vec();
        out.extend(vec![b'0'; fill]);
        out.extend_from_slice(&body[prefix_len..]);
        out
    } else {
        let mut out = vec![b' '; fill];
        out.extend(body);
        out
    }
}

fn pad(body: Vec<u8>, spec: &Spec, zero: bool) -> Vec<u8> {
    pad_with(body, spec, zero, 0)
}

fn sign_text(neg: bool, spec: &Spec) -> &'static str {
    if neg {
        "-"
    } else if spec.plus {
        "+"
    } else if spec.space {
        " "
    } else {
        ""
    }
}

fn int_text(neg: bool, mag: u128, radix: u32, upper: bool, signed: bool, spec: &Spec) -> Vec<u8> {
    let mut digits = match radix {
        8 => format!("{mag:o}"),
        16 if upper => format!("{mag:X}"),
        16 => format!("{mag:x}"),
        _ => format!("{mag}"),
    };
    if let Some(p) = spec.precision {
        if p == 0 && mag == 0 {
            digits.clear();
        }
        if digits.len() < p {
            digits = "0".repeat(p - digits.len()) + &digits;
        }
    }
    let mut prefix = String::from(if signed { sign_text(neg, spec) } else { "" });
    if spec.alt {
        if radix == 8 && !digits.starts_with('0') {
            digits.insert(0, '0');
        }
        if radix == 16 && mag != 0 {
            prefix.push_str(if upper { "0X" } else { "0x" });
        }
    }
    let plen = prefix.len();
    let zero = spec.zero && spec.precision.is_none() && !spec.left;
    pad_with((prefix + &digits).into_bytes(), spec, zero, plen)
}

/// C's exponent: a sign and at least two digits.
fn c_exponent(e: i32, upper: bool, p: bool) -> String {
    let letter = match (p, upper) {
        (true, false) => 'p',
        (true, true) => 'P',
        (false, false) => 'e',
        (false, true) => 'E',
    };
    let sign = if e < 0 { '-' } else { '+' };
    if p {
        format!("{letter}{sign}{}", e.unsigned_abs())
    } else {
        format!("{letter}{sign}{:02}", e.unsigned_abs())
    }
}

/// `x` (finite, non-negative) with `prec` digits after the point. Rust's
/// formatter takes precisions up to `u16::MAX` only; past the exact
/// expansion every digit is zero, so those are appended.
fn fixed(x: f64, prec: usize) -> String {
    let exact = prec.min(EXACT_DIGITS);
    let mut s = format!("{x:.exact$}");
    s.extend(std::iter::repeat_n('0', prec - exact));
    s
}

/// `x` (finite, non-negative) in `%e` style: mantissa text and exponent.
fn exp_parts(x: f64, prec: usize) -> (String, i32) {
    let exact = prec.min(EXACT_DIGITS);
    let s = format!("{x:.exact$e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let mut m = m.to_string();
    m.extend(std::iter::repeat_n('0', prec - exact));
    (m, e.parse().unwrap_or(0))
}

fn strip_zeros(s: &mut String) {
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
}

fn float_text(x: f64, conv: u8, spec: &Spec) -> Vec<u8> {
    let upper = conv.is_ascii_uppercase();
    let neg = x.is_sign_negative();
    let sign = sign_text(neg, spec);
    if !x.is_finite() {
        let body = if x.is_nan() { "nan" } else { "inf" };
        let body = if upper {
            body.to_ascii_uppercase()
        } else {
            body.to_string()
        };
        return pad(format!("{sign}{body}").into_bytes(), spec, false);
    }
    let a = x.abs();
    let mut prefix_len = sign.len();
    let body = match conv.to_ascii_lowercase() {
        b'f' => {
            let p = spec.precision.unwrap_or(6);
            let mut s = fixed(a, p);
            if spec.alt && p == 0 {
                s.push('.');
            }
            s
        }
        b'e' => {
            let p = spec.precision.unwrap_or(6);
            let (mut m, e) = exp_parts(a, p);
            if spec.alt && p == 0 {
                m.push('.');
            }
            m + &c_exponent(e, upper, false)
        }
        b'g' => {
            let p = match spec.precision {
                Some(0) => 1,
                Some(p) => p,
                None => 6,
            };
            let (_, x_exp) = exp_parts(a, p - 1);
            let mut s = if (x_exp as i64) < p as i64 && x_exp >= -4 {
                let fp = (p as i64 - 1 - x_exp as i64) as usize;
                let mut s = fixed(a, fp);
                if !spec.alt {
                    strip_zeros(&mut s);
                } else if !s.contains('.') {
                    s.push('.');
                }
                s
            } else {
                let (mut m, e) = exp_parts(a, p - 1);
                if !spec.alt {
                    strip_zeros(&mut m);
                } else if !m.contains('.') {
                    m.push('.');
                }
                m + &c_exponent(e, upper, false)
            };
            if upper {
                s = s.to_ascii_uppercase();
            }
            s
        }
        _ => {
            prefix_len += 2;
            hex_float(a, spec.precision, upper, spec.alt)
        }
    };
    let zero = spec.zero && !spec.left;
    pad_with(format!("{sign}{body}").into_bytes(), spec, zero, prefix_len)
}

/// `%a` of a finite non-negative `x`.
fn hex_float(x: f64, precision: Option<usize>, upper: bool, alt: bool) -> String {
    let bits = x.to_bits();
    let biased = (bits >> 52) & 0x7ff;
    let frac = bits & ((1 << 52) - 1);
    let (mut lead, exp) = if x == 0.0 {
        (0u64, 0i32)
    } else if biased == 0 {
        (0, -1022)
    } else {
        (1, biased as i32 - 1023)
    };
    let digits = match precision {
        None => {
            let mut d = format!("{frac:013x}");
            while d.ends_with('0') {
                d.pop();
            }
            d
        }
        Some(p) if p >= 13 => format!("{frac:013x}") + &"0".repeat(p - 13),
        Some(p) => {
            let shift = (13 - p) * 4;
            let value = (lead << (p * 4)) | (frac >> shift);
            let rem = frac & ((1u64 << shift) - 1);
            let half = 1u64 << (shift - 1);
            let up = rem > half || (rem == half && value & 1 == 1);
            let value = value + up as u64;
            lead = value >> (p * 4);
            let kept = value & ((1u64 << (p * 4)) - 1);
            if p == 0 {
                String::new()
            } else {
                format!("{kept:0p$x}")
            }
        }
    };
    let mut s = format!("0x{lead}");
    if !digits.is_empty() || alt {
        s.push('.');
        s.push_str(&digits);
    }
    s.push_str(&c_exponent(exp, false, true));
    if upper {
        s = s.to_ascii_uppercase();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(f: &str, args: &[(u64, Type)]) -> String {
        format::<()>(f, args, &mut |_| Ok(b"str".to_vec())).unwrap()
    }

    fn d(x: f64) -> (u64, Type) {
        (x.to_bits(), Type::F64)
    }

    fn i(x: i32) -> (u64, Type) {
        (x as u32 as u64, Type::I32)
    }

    #[test]
    fn like_glibc() {
        assert_eq!(
            fmt(
                "%d|%5d|%-5d|%05d|%+d|% d",
                &[i(42), i(-42), i(7), i(-7), i(3), i(3)]
            ),
            "42|  -42|7    |-0007|+3| 3"
        );
        assert_eq!(
            fmt(
                "%x %X %#x %#o %o %u",
                &[i(255), i(255), i(255), i(8), i(0), i(-1)]
            ),
            "ff FF 0xff 010 0 4294967295"
        );
        assert_eq!(
            fmt("%.3d|%.0d|%8.3x", &[i(5), i(0), i(10)]),
            "005||     00a"
        );
        assert_eq!(
            fmt("%hhd %hd %hhu", &[i(300), i(70000), i(-1)]),
            "44 4464 255"
        );
        assert_eq!(fmt("%ld", &[(u64::MAX, Type::I64)]), "-1");
        assert_eq!(
            fmt(
                "%f %.2f %10.3f %-10.1f|",
                &[d(1.5), d(2.675), d(-3.25159), d(0.05)]
            ),
            "1.500000 2.67     -3.252 0.1       |"
        );
        assert_eq!(
            fmt(
                "%e %.2E %g %g %g %G",
                &[
                    d(12345.678),
                    d(0.000123),
                    d(100000.0),
                    d(1e6),
                    d(0.0001),
                    d(1e-5)
                ]
            ),
            "1.234568e+04 1.23E-04 100000 1e+06 0.0001 1E-05"
        );
        assert_eq!(
            fmt("%#g %g %.3g", &[d(1.0), d(0.0), d(3.25159)]),
            "1.00000 0 3.25"
        );
        assert_eq!(
            fmt("%a %a %.1a %A", &[d(1.0), d(3.0), d(1.96875), d(0.5)]),
            "0x1p+0 0x1.8p+1 0x2.0p+0 0X1P-1"
        );
        assert_eq!(
            fmt(
                "%f %F %e %5.1f",
                &[
                    d(f64::INFINITY),
                    d(f64::NEG_INFINITY),
                    d(f64::NAN),
                    d(f64::INFINITY)
                ]
            ),
            "inf -INF nan   inf"
        );
        assert_eq!(
            fmt(
                "%c%c %s %5s|%-4s|%.1s",
                &[
                    i(72),
                    i(105),
                    (0, Type::I64),
                    (0, Type::I64),
                    (0, Type::I64),
                    (0, Type::I64)
                ]
            ),
            "Hi str   str|str |s"
        );
        assert_eq!(
            fmt(
                "%v4hld|%v2f|%%",
                &[
                    i(1),
                    i(-2),
                    i(3),
                    i(4),
                    (1.5f32.to_bits() as u64, Type::F32),
                    (2.25f32.to_bits() as u64, Type::F32)
                ]
            ),
            "1,-2,3,4|1.500000,2.250000|%"
        );
        assert_eq!(
            fmt("%08.3f|%-8d|%+.1e", &[d(-3.25159), i(5), d(12345.0)]),
            "-003.252|5       |+1.2e+04"
        );
        assert_eq!(fmt("%*d|%.*f", &[i(4), i(7), i(2), d(1.0)]), "   7|1.00");
        assert!(matches!(
            format::<()>("%d", &[], &mut |_| Ok(vec![])),
            Err(PrintfError::Format(_))
        ));
    }

    #[test]
    fn huge_precisions_are_exact_and_never_panic() {
        // Rust's formatter stops at u16::MAX digits; C prints them all.
        let text = fmt("%.70000f", &[d(0.1)]);
        assert_eq!(text.len(), 2 + 70000);
        // 0.1 as a double expands exactly to 55 fraction digits, then zeros.
        assert!(text.starts_with("0.1000000000000000055511151231257827021181583404541015625000"));
        assert!(text[2 + 55..].bytes().all(|b| b == b'0'));
        // The smallest subnormal has 1074 fraction digits; the last is 5.
        let tiny = fmt("%.70000f", &[d(f64::from_bits(1))]);
        assert_eq!(&tiny[2 + 1073..2 + 1075], "50");
        let e = fmt("%.70000e", &[d(1.5)]);
        assert!(e.starts_with("1.5000") && e.ends_with("0e+00") && e.len() == 2 + 70000 + 4);
        let g = fmt("%#.70000g", &[d(2.0)]);
        assert_eq!(g.len(), 1 + 70000);
        assert_eq!(fmt("%.*f", &[i(70000), d(1.0)]).len(), 2 + 70000);
        assert_eq!(fmt("%70000d", &[i(1)]).len(), 70000);
        for bad in ["%.2000000f", "%2000000d", "%99999999999999999999999d"] {
            assert!(
                matches!(
                    format::<()>(bad, &[d(1.0)], &mut |_| Ok(vec![])),
                    Err(PrintfError::Format(_))
                ),
                "{bad}"
            );
        }
    }
}
