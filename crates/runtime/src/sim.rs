//! Simulation files (`.sim`, the format oclgrind-kernel reads): a kernel,
//! its NDRange and its arguments' contents, run and dumped in oclgrind's
//! output format.
//!
//! ```text
//! program.cl            # source file (relative to the .sim file)
//! kernel_name
//! 64 1 1                # global size
//! 16 1 1                # local size
//! <size=4>  256         # a scalar and its value
//! <size=1024 range=0:1:255>
//! <size=64 fill=0 dump>
//! <size=16>             # a __local argument: only its size
//! ```

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::{ArgKind, ArgValue, Buffer, Context, Kernel, NDRange, Program};

/// A problem with a `.sim` file, its program, or the run.
#[derive(Debug, Error)]
pub enum SimError {
    /// The file is malformed: line (1-based) and what was expected.
    #[error("{file}:{line}: {message}")]
    Syntax {
        file: String,
        line: usize,
        message: String,
    },
    #[error("{file}: {message}")]
    Io { file: String, message: String },
    // Transparent: with `{0}` and a source, `anyhow`'s `{:#}` would print
    // the message twice.
    #[error(transparent)]
    Build(#[from] crate::BuildError),
    #[error(transparent)]
    Launch(#[from] crate::LaunchError),
}

/// The largest buffer a `.sim` file may ask for (`size=`): 64 GiB. Larger
/// sizes, and any the memory cannot hold, are an error, not an abort.
pub const MAX_BUFFER_SIZE: usize = 64 << 30;

/// Element types a `.sim` header can name.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ElemType {
    Char,
    Uchar,
    Short,
    Ushort,
    Int,
    Uint,
    Long,
    Ulong,
    Float,
    Double,
}

impl ElemType {
    const NAMED: [(&'static str, ElemType); 10] = [
        ("char", ElemType::Char),
        ("uchar", ElemType::Uchar),
        ("short", ElemType::Short),
        ("ushort", ElemType::Ushort),
        ("int", ElemType::Int),
        ("uint", ElemType::Uint),
        ("long", ElemType::Long),
        ("ulong", ElemType::Ulong),
        ("float", ElemType::Float),
        ("double", ElemType::Double),
    ];

    fn from_name(name: &str) -> Option<ElemType> {
        ElemType::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }

    /// The element type of an argument's type name (`uint4*` → uint).
    fn from_type_name(type_name: &str) -> Option<ElemType> {
        let order = [
            "uchar", "char", "ushort", "short", "uint", "int", "ulong", "long", "float", "double",
        ];
        if type_name.starts_with("void") {
            return Some(ElemType::Uchar);
        }
        order
            .iter()
            .find(|p| type_name.starts_with(*p))
            .and_then(|p| ElemType::from_name(p))
    }

    pub fn size(self) -> usize {
        match self {
            ElemType::Char | ElemType::Uchar => 1,
            ElemType::Short | ElemType::Ushort => 2,
            ElemType::Int | ElemType::Uint | ElemType::Float => 4,
            ElemType::Long | ElemType::Ulong | ElemType::Double => 8,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, ElemType::Float | ElemType::Double)
    }

    fn is_signed(self) -> bool {
        matches!(
            self,
            ElemType::Char | ElemType::Short | ElemType::Int | ElemType::Long
        )
    }

    /// Parses one value as this type's little-endian bytes.
    fn parse(self, token: &str, hex: bool) -> Result<Vec<u8>, String> {
        if self.is_float() {
            let x: f64 = token
                .parse()
                .map_err(|_| format!("expected a floating-point value, found '{token}'"))?;
            return Ok(if self == ElemType::Float {
                (x as f32).to_le_bytes().to_vec()
            } else {
                x.to_le_bytes().to_vec()
            });
        }
        let (neg, digits) = match token.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, token.strip_prefix('+').unwrap_or(token)),
        };
        let digits = if hex {
            digits.strip_prefix("0x").unwrap_or(digits)
        } else {
            digits
        };
        let magnitude = i128::from_str_radix(digits, if hex { 16 } else { 10 })
            .map_err(|_| format!("expected an integer value, found '{token}'"))?;
        let v = if neg { -magnitude } else { magnitude };
        let bits = self.size() as u32 * 8;
        let (min, max) = if self.is_signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else if self.size() > 1 {
            // Like `istream >> unsigned`, a minus sign wraps around.
            (-((1i128 << bits) - 1), (1i128 << bits) - 1)
        } else {
            (0, 255)
        };
        if v < min || v > max {
            return Err(format!(
                "value '{token}' is out of range for {}",
                self.name()
            ));
        }
        Ok((v as u128 as u64).to_le_bytes()[..self.size()].to_vec())
    }

    fn name(self) -> &'static str {
        ElemType::NAMED
            .iter()
            .find(|(_, t)| *t == self)
            .map(|(n, _)| *n)
            .unwrap_or("?")
    }

    /// Formats one element as oclgrind does (C++ stream defaults).
    fn format(self, bytes: &[u8], hex: bool) -> String {
        let mut raw = [0u8; 8];
        raw[..bytes.len()].copy_from_slice(bytes);
        let bits = u64::from_le_bytes(raw);
        if self.is_float() {
            let x = if self == ElemType::Float {
                f32::from_bits(bits as u32) as f64
            } else {
                f64::from_bits(bits)
            };
            let s = format_g(x);
            return if hex {
                format!("0x{s:0>width$}", width = 2 * self.size())
            } else {
                s
            };
        }
        let shift = 64 - 8 * self.size() as u32;
        let signed = ((bits << shift) as i64) >> shift;
        if hex {
            // A char is printed as an int, so a negative one shows 8 digits.
            let shown = if self == ElemType::Char {
                signed as u32 as u64
            } else {
                bits
            };
            return format!("0x{shown:0width$x}", width = 2 * self.size());
        }
        if self.is_signed() {
            signed.to_string()
        } else {
            bits.to_string()
        }
    }
}

/// C's `%g` with the default precision 6 (what `cout << double` prints).
pub fn format_g(x: f64) -> String {
    if x.is_nan() {
        return if x.is_sign_negative() {
            "-nan".into()
        } else {
            "nan".into()
        };
    }
    if x.is_infinite() {
        return if x < 0.0 { "-inf".into() } else { "inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0".into()
        } else {
            "0".into()
        };
    }
    let sci = format!("{x:.5e}");
    let (mantissa, exp) = sci
        .split_once('e')
        .expect("scientific format has an exponent");
    let exp: i32 = exp.parse().expect("exponent is an integer");
    if (-4..6).contains(&exp) {
        let mut s = format!("{x:.prec$}", prec = (5 - exp) as usize);
        trim_fraction(&mut s);
        s
    } else {
        let mut m = mantissa.to_string();
        trim_fraction(&mut m);
        format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

fn trim_fraction(s: &mut String) {
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
}

/// The tokens of a `.sim` file with their line numbers.
struct Reader {
    file: String,
    tokens: Vec<(usize, String)>,
    pos: usize,
}

impl Reader {
    fn new(file: &str, text: &str) -> Reader {
        let mut tokens = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("");
            let mut rest = line;
            while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
                rest = &rest[start..];
                // A header runs from '<' to the last '>' on its line.
                let end = if rest.starts_with('<') {
                    rest.rfind('>').map_or(rest.len(), |e| e + 1)
                } else {
                    rest.find(char::is_whitespace).unwrap_or(rest.len())
                };
                tokens.push((i + 1, rest[..end].to_string()));
                rest = &rest[end..];
            }
        }
        Reader {
            file: file.to_string(),
            tokens,
            pos: 0,
        }
    }

    fn line(&self) -> usize {
        self.tokens
            .get(self.pos)
            .or(self.tokens.last())
            .map_or(1, |t| t.0)
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, SimError> {
        Err(SimError::Syntax {
            file: self.file.clone(),
            line: self.line(),
            message: message.into(),
        })
    }

    /// An error on the line of the token read last (a header whose
    /// contents are wrong, a value that does not parse).
    fn error_prev<T>(&self, message: impl Into<String>) -> Result<T, SimError> {
        let line = self
            .pos
            .checked_sub(1)
            .and_then(|p| self.tokens.get(p))
            .map_or_else(|| self.line(), |t| t.0);
        Err(SimError::Syntax {
            file: self.file.clone(),
            line,
            message: message.into(),
        })
    }

    fn next(&mut self, what: &str) -> Result<String, SimError> {
        match self.tokens.get(self.pos) {
            Some((_, t)) => {
                self.pos += 1;
                Ok(t.clone())
            }
            None => self.error(format!("unexpected end of file: expected {what}")),
        }
    }

    fn number(&mut self, what: &str) -> Result<u64, SimError> {
        let t = self.next(what)?;
        match t.parse() {
            Ok(n) => Ok(n),
            Err(_) => {
                self.pos -= 1;
                self.error(format!(
                    "expected {what} (a non-negative integer), found '{t}'"
                ))
            }
        }
    }
}

/// Every `.sim` file under `dir`, sorted.
pub fn simulation_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "sim") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A parsed and set-up simulation, ready to run.
pub struct Simulation {
    pub kernel: Kernel,
    pub range: NDRange,
    /// Buffers to print after the run: argument name, buffer, element type, hex.
    dumps: Vec<(String, Buffer<u8>, ElemType, bool)>,
    /// Every buffer with its initial contents (see [`Simulation::reset`]).
    buffers: Vec<(Buffer<u8>, Vec<u8>)>,
}

impl Simulation {
    /// Reads `path`, builds its program with `build_options` and binds the arguments.
    pub fn load(ctx: &Context, path: &Path, build_options: &str) -> Result<Simulation, SimError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| SimError::Io {
            file: file.clone(),
            message: e.to_string(),
        })?;
        let mut r = Reader::new(&file, &text);
        let program_name = r.next("the program file name")?;
        let program_path: PathBuf = path.parent().unwrap_or(Path::new(".")).join(&program_name);
        if !program_path.is_file() {
            r.pos -= 1;
            return r.error(format!(
                "program file '{}' not found",
                program_path.display()
            ));
        }
        let (kernel_name, global, local) = parse_sizes(&mut r)?;
        let program = Program::from_file(ctx, &program_path, build_options)?;
        let mut kernel = program.kernel(&kernel_name)?;
        let dims = if global[2] > 1 || local[2] > 1 {
            3
        } else if global[1] > 1 || local[1] > 1 {
            2
        } else {
            1
        };
        let range = NDRange::new(dims, global).local(local);
        let mut dumps = Vec::new();
        let mut buffers = Vec::new();
        let metas = kernel.args().to_vec();
        let args = parse_args(&mut r, &metas, MAX_BUFFER_SIZE)?;
        for (index, (meta, arg)) in metas.iter().zip(args).enumerate() {
            let value = match arg {
                SimArg::Null => ArgValue::Null,
                SimArg::Local(size) => ArgValue::Local(size),
                SimArg::Data {
                    bytes,
                    elem,
                    dump,
                    hex,
                    access,
                } => match meta.kind {
                    ArgKind::GlobalBuffer | ArgKind::ConstantBuffer => {
                        let buffer = Buffer::try_from_slice(&bytes).map_err(|e| SimError::Io {
                            file: file.clone(),
                            message: format!("argument {index} ('{}'): {e}", meta.name),
                        })?;
                        buffer.set_kernel_access(access);
                        if dump {
                            dumps.push((meta.name.clone(), buffer.clone(), elem, hex));
                        }
                        buffers.push((buffer.clone(), bytes));
                        ArgValue::from(&buffer)
                    }
                    _ => ArgValue::Bytes(bytes),
                },
            };
            kernel.set_arg(index, value)?;
        }
        Ok(Simulation {
            kernel,
            range,
            dumps,
            buffers,
        })
    }

    /// Restores every buffer's initial contents, so the simulation can run again.
    pub fn reset(&self) {
        for (buffer, initial) in &self.buffers {
            buffer.write(initial);
        }
    }

    /// Runs the kernel once.
    pub fn run(&self, ctx: &Context) -> Result<crate::LaunchReport, SimError> {
        Ok(ctx.launch(&self.kernel, &self.range)?)
    }

    /// The dumped buffers in oclgrind's format.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        for (name, buffer, elem, hex) in &self.dumps {
            let bytes = buffer.read_bytes();
            let _ = writeln!(out, "\nArgument '{name}': {} bytes", bytes.len());
            for (i, chunk) in bytes.chunks_exact(elem.size()).enumerate() {
                let _ = writeln!(out, "  {name}[{i}] = {}", elem.format(chunk, *hex));
            }
            out.push('\n');
        }
        out
    }
}

/// The kernel name, global size and local size after the program name.
fn parse_sizes(r: &mut Reader) -> Result<(String, [u64; 3], [u64; 3]), SimError> {
    let kernel_name = r.next("the kernel name")?;
    let mut global = [0u64; 3];
    for g in &mut global {
        *g = r.number("a global size")?;
    }
    let mut local = [0u64; 3];
    for l in &mut local {
        *l = r.number("a local size")?;
    }
    Ok((kernel_name, global, local))
}

/// One header (and its values) per argument of `metas`, then the end of
/// the file; buffers of more than `max_buffer` bytes are an error.
fn parse_args(
    r: &mut Reader,
    metas: &[crate::ArgMeta],
    max_buffer: usize,
) -> Result<Vec<SimArg>, SimError> {
    let mut args = Vec::with_capacity(metas.len());
    for (index, meta) in metas.iter().enumerate() {
        let what = format!("argument {index} ('{}')", meta.name);
        if matches!(meta.kind, ArgKind::Image(_) | ArgKind::Sampler) {
            return r.error(format!(
                "{what}: the .sim format has no form for {} arguments; run image kernels \
                 through the runtime API or the OpenCL platform",
                meta.type_name
            ));
        }
        let header = r.next(&format!("the header <...> of {what}"))?;
        let Some(body) = header.strip_prefix('<').and_then(|h| h.strip_suffix('>')) else {
            r.pos -= 1;
            return r.error(format!(
                "expected the header <...> of {what}, found '{header}'"
            ));
        };
        args.push(parse_header(
            r,
            body,
            &meta.kind,
            &meta.type_name,
            &what,
            max_buffer,
        )?);
    }
    if r.pos < r.tokens.len() {
        let t = r.tokens[r.pos].1.clone();
        return r.error(format!(
            "unexpected '{t}' after the last argument (the kernel takes {} arguments)",
            metas.len()
        ));
    }
    Ok(args)
}

/// Parses the text of a `.sim` file for a kernel whose arguments are
/// `metas`, without reading the program or building anything: what
/// [`Simulation::load`] checks, for tests and fuzzing. Buffers of more
/// than `max_buffer` bytes are an error.
pub fn parse_text(
    file: &str,
    text: &str,
    metas: &[crate::ArgMeta],
    max_buffer: usize,
) -> Result<(), SimError> {
    let mut r = Reader::new(file, text);
    r.next("the program file name")?;
    parse_sizes(&mut r)?;
    parse_args(&mut r, metas, max_buffer.min(MAX_BUFFER_SIZE))?;
    Ok(())
}

enum SimArg {
    Null,
    Local(usize),
    Data {
        bytes: Vec<u8>,
        elem: ElemType,
        dump: bool,
        hex: bool,
        /// `ro` / `wo`: `lockstep_ir::abi::arg_flags` (checked mode reports
        /// accesses that break them).
        access: u64,
    },
}

fn parse_header(
    r: &mut Reader,
    body: &str,
    kind: &ArgKind,
    type_name: &str,
    what: &str,
    max_buffer: usize,
) -> Result<SimArg, SimError> {
    let mut size = None;
    let mut elem = None;
    let (mut fill, mut range) = (None, None);
    let (mut dump, mut hex, mut null, mut noinit) = (false, false, false, false);
    let mut access = 0;
    for tok in body.split_whitespace() {
        if let Some(t) = ElemType::from_name(tok) {
            if elem.replace(t).is_some() {
                return r.error_prev(format!("{what}: element type given twice"));
            }
        } else if let Some(v) = tok.strip_prefix("size=") {
            size = Some(v.parse::<usize>().or_else(|_| {
                r.error_prev(format!(
                    "{what}: size must be a number of bytes, found '{v}'"
                ))
            })?);
        } else if let Some(v) = tok.strip_prefix("fill=") {
            fill = Some(v.to_string());
        } else if let Some(v) = tok.strip_prefix("range=") {
            range = Some(v.to_string());
        } else {
            match tok {
                "dump" => dump = true,
                "hex" => hex = true,
                "null" => null = true,
                "noinit" => noinit = true,
                "ro" => access |= lockstep_ir::abi::arg_flags::READ_ONLY,
                "wo" => access |= lockstep_ir::abi::arg_flags::WRITE_ONLY,
                other => return r.error_prev(format!("{what}: unknown header entry '{other}' (expected size=, a type, fill=, range=, noinit, dump, hex, ro, wo or null)")),
            }
        }
    }
    if null {
        return Ok(SimArg::Null);
    }
    let Some(size) = size else {
        return r.error_prev(format!("{what}: the header needs size=BYTES"));
    };
    if *kind == ArgKind::LocalMemory {
        return Ok(SimArg::Local(size));
    }
    let Some(elem) = elem.or_else(|| ElemType::from_type_name(type_name)) else {
        return r.error_prev(format!("{what}: name an element type in the header (the argument's type '{type_name}' has no default)"));
    };
    if size % elem.size() != 0 {
        return r.error_prev(format!(
            "{what}: size {size} is not a multiple of the {} element size {}",
            elem.name(),
            elem.size()
        ));
    }
    let n = size / elem.size();
    if [noinit, fill.is_some(), range.is_some()]
        .iter()
        .filter(|b| **b)
        .count()
        > 1
    {
        return r.error_prev(format!("{what}: more than one initializer"));
    }
    let value = |r: &Reader, t: &str| {
        elem.parse(t, hex)
            .or_else(|m| r.error_prev(format!("{what}: {m}")))
    };
    let mut bytes = Vec::new();
    if size > max_buffer || bytes.try_reserve_exact(size).is_err() {
        return r.error_prev(format!(
            "{what}: size={size} bytes cannot be allocated (the most a .sim buffer may have is {max_buffer} bytes, and memory must allow it)"
        ));
    }
    if noinit {
        bytes.resize(size, 0);
    } else if let Some(f) = fill {
        let one = value(r, &f)?;
        for _ in 0..n {
            bytes.extend_from_slice(&one);
        }
    } else if let Some(spec) = range {
        let parts: Vec<&str> = spec.split(':').collect();
        if parts.len() != 3 {
            return r.error_prev(format!("{what}: range must be START:INC:END"));
        }
        let (start, inc) = (value(r, parts[0])?, value(r, parts[1])?);
        let end = value(r, parts[2])?;
        match range_len(elem, &start, &inc, &end) {
            Some(len) if len == n as u128 => {}
            len => {
                let len = len.map_or("no sequence of".to_string(), |l| format!("{l}"));
                return r.error_prev(format!(
                    "{what}: range={spec} gives {len} values, but the argument holds {n} (size={size} bytes of {})",
                    elem.name()
                ));
            }
        }
        let mut current = start;
        for _ in 0..n {
            bytes.extend_from_slice(&current);
            current = add_elem(elem, &current, &inc);
        }
    } else {
        for _ in 0..n {
            let t = r.next(&format!("{n} values for {what}"))?;
            if t.starts_with('<') {
                r.pos -= 1;
                return r.error(format!(
                    "{what}: expected {n} values, found the next header"
                ));
            }
            let v = value(r, &t)?;
            bytes.extend_from_slice(&v);
        }
    }
    Ok(SimArg::Data {
        bytes,
        elem,
        dump,
        hex,
        access,
    })
}

/// The number of values `START:INC:END` gives: START, START+INC, … up to
/// END (inclusive, as oclgrind counts them); `None` when INC is zero or
/// points away from END.
fn range_len(elem: ElemType, start: &[u8], inc: &[u8], end: &[u8]) -> Option<u128> {
    let get = |x: &[u8]| {
        let mut raw = [0u8; 8];
        raw[..x.len()].copy_from_slice(x);
        u64::from_le_bytes(raw)
    };
    let (s, i, e) = (get(start), get(inc), get(end));
    if elem.is_float() {
        let f = |b: u64| {
            if elem == ElemType::Float {
                f32::from_bits(b as u32) as f64
            } else {
                f64::from_bits(b)
            }
        };
        let steps = (f(e) - f(s)) / f(i);
        // Only finite, non-negative step counts (INC 0 gives inf or NaN).
        return (0.0..1e30)
            .contains(&steps)
            .then(|| steps.floor() as u128 + 1);
    }
    let int = |b: u64| -> i128 {
        let shift = 64 - 8 * elem.size() as u32;
        if elem.is_signed() {
            (((b << shift) as i64) >> shift) as i128
        } else {
            ((b << shift) >> shift) as i128
        }
    };
    // The increment is signed: `0:-1:...` counts down in any type.
    let shift = 64 - 8 * elem.size() as u32;
    let inc = (((i << shift) as i64) >> shift) as i128;
    let span = int(e) - int(s);
    if inc == 0 || (span != 0 && (span < 0) != (inc < 0)) {
        return None;
    }
    Some((span / inc) as u128 + 1)
}

/// `a + b` in the element type (wrapping for integers).
fn add_elem(elem: ElemType, a: &[u8], b: &[u8]) -> Vec<u8> {
    let get = |x: &[u8]| {
        let mut raw = [0u8; 8];
        raw[..x.len()].copy_from_slice(x);
        u64::from_le_bytes(raw)
    };
    let (x, y) = (get(a), get(b));
    let sum = match elem {
        ElemType::Float => (f32::from_bits(x as u32) + f32::from_bits(y as u32)).to_bits() as u64,
        ElemType::Double => (f64::from_bits(x) + f64::from_bits(y)).to_bits(),
        _ => x.wrapping_add(y),
    };
    sum.to_le_bytes()[..elem.size()].to_vec()
}

#[cfg(test)]
mod tests {
    use super::format_g;

    #[test]
    fn format_g_matches_c() {
        let cases = [
            (1.0, "1"),
            (0.1f32 as f64, "0.1"),
            (1e6, "1e+06"),
            (1234567.0, "1.23457e+06"),
            (-0.0, "-0"),
            (123456.0, "123456"),
            (0.0001, "0.0001"),
            (0.00001234, "1.234e-05"),
            (1.23456789, "1.23457"),
            (-2.5e-300, "-2.5e-300"),
            (999999.5, "1e+06"),
            (f64::INFINITY, "inf"),
        ];
        for (x, want) in cases {
            assert_eq!(format_g(x), want, "format_g({x})");
        }
    }
}
