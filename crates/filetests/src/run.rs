//! `test run`: executes kernels of the file on the interpreter, as parsed
//! and as the pass pipeline leaves them, and compares their buffers with
//! the expected values (Cranelift's `; run:` lines, for kernels).
//!
//! ```text
//! ; run: @kernel global 16 local 8 (i32[16], i32 3, local 64) => arg0 = 0 3 6 9 …
//! ```
//!
//! * `global G[,G[,G]]` and `local L[,L[,L]]`: the NDRange (1 to 3
//!   dimensions; `local` defaults to `global`); `width W` (optional): the
//!   subgroup size, and the one SIMD width the pipeline runs for.
//! * Arguments, in parameter order: `T[N]` a buffer of `N` elements of `T`
//!   filled with zeros, `T[N] = v v …` one with values (repeating the last
//!   to fill it), `T v` a scalar, `local B` `B` bytes of `__local` memory.
//!   `T` is `i8 i16 i32 i64 f32 f64`; integers may be negative.
//! * After `=>`, `argK = v v …` checks (separated by `;`): buffer `K` holds
//!   exactly these values afterwards.
//!
//! Each run line is executed on the module as written, then after the
//! whole pipeline for SIMD widths 4 and 16, or the line's `width` (with the
//! run's local size):
//! every configuration must give the expected values, so a pass that
//! changes what a kernel computes fails here without any code generation.
//! A kernel already in gang-level IR (`gang W`) runs as written only.

use anyhow::{anyhow, bail, Context, Result};
use lockstep_interp::{run_kernel, KernelArg, NdRange, Options};
use lockstep_ir::{FuncId, Module};
use lockstep_passes::analysis::UniformityConfig;
use lockstep_passes::pipeline::{self, RefillMode};
use lockstep_passes::transform::linearize::Scheme;

/// One `; run:` line.
#[derive(Clone, Debug)]
pub struct RunLine {
    kernel: String,
    range: NdRange,
    /// `width W`: the subgroup size as written, and the only width the
    /// pipeline runs for (kernels with subgroups).
    width: Option<u32>,
    args: Vec<RunArg>,
    expect: Vec<(usize, Vec<String>)>,
}

#[derive(Clone, Debug)]
enum RunArg {
    Buffer {
        ty: Elem,
        values: Vec<String>,
        len: usize,
    },
    Scalar {
        ty: Elem,
        value: String,
    },
    Local(usize),
}

#[derive(Copy, Clone, Debug, PartialEq)]
enum Elem {
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
}

impl Elem {
    fn parse(s: &str) -> Result<Elem> {
        Ok(match s {
            "i8" => Elem::I8,
            "i16" => Elem::I16,
            "i32" => Elem::I32,
            "i64" => Elem::I64,
            "f32" => Elem::F32,
            "f64" => Elem::F64,
            _ => bail!("unknown element type `{s}` (i8 i16 i32 i64 f32 f64)"),
        })
    }

    fn bytes(self) -> usize {
        match self {
            Elem::I8 => 1,
            Elem::I16 => 2,
            Elem::I32 | Elem::F32 => 4,
            Elem::I64 | Elem::F64 => 8,
        }
    }

    /// The little-endian bytes of `text` as this type.
    fn encode(self, text: &str) -> Result<Vec<u8>> {
        let int = || -> Result<i128> {
            text.parse::<i128>()
                .with_context(|| format!("`{text}` is not an integer"))
        };
        let float = || -> Result<f64> {
            text.parse::<f64>()
                .with_context(|| format!("`{text}` is not a number"))
        };
        Ok(match self {
            Elem::F32 => (float()? as f32).to_le_bytes().to_vec(),
            Elem::F64 => float()?.to_le_bytes().to_vec(),
            _ => int()?.to_le_bytes()[..self.bytes()].to_vec(),
        })
    }

    /// The value of `bytes` as this type, printed.
    fn decode(self, bytes: &[u8]) -> String {
        let mut b = [0u8; 8];
        b[..bytes.len()].copy_from_slice(bytes);
        let bits = u64::from_le_bytes(b);
        match self {
            Elem::I8 => (bits as i8).to_string(),
            Elem::I16 => (bits as i16).to_string(),
            Elem::I32 => (bits as i32).to_string(),
            Elem::I64 => (bits as i64).to_string(),
            Elem::F32 => f32::from_bits(bits as u32).to_string(),
            Elem::F64 => f64::from_bits(bits).to_string(),
        }
    }
}

/// The `; run:` lines of a file's source.
pub fn run_lines(source: &str) -> Result<Vec<RunLine>> {
    source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("; run:"))
        .map(|l| parse_line(l.trim()).with_context(|| format!("in `; run: {}`", l.trim())))
        .collect()
}

fn sizes(text: &str) -> Result<Vec<u64>> {
    text.split(',')
        .map(|n| {
            n.trim()
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| anyhow!("`{n}` is not a positive size"))
        })
        .collect()
}

fn parse_line(line: &str) -> Result<RunLine> {
    let (call, checks) = line
        .split_once("=>")
        .ok_or_else(|| anyhow!("missing `=>` before the expected values"))?;
    let open = call.find('(').ok_or_else(|| anyhow!("missing `(`"))?;
    let close = call.rfind(')').ok_or_else(|| anyhow!("missing `)`"))?;
    let mut head = call[..open].split_whitespace();
    let kernel = head
        .next()
        .and_then(|k| k.strip_prefix('@'))
        .ok_or_else(|| anyhow!("the line starts with @kernel"))?
        .to_string();
    let (mut global, mut local, mut width) = (None, None, None);
    while let Some(word) = head.next() {
        let value = head.next().ok_or_else(|| anyhow!("`{word}` needs sizes"))?;
        match word {
            "global" => global = Some(sizes(value)?),
            "local" => local = Some(sizes(value)?),
            "width" => {
                width = Some(
                    value
                        .parse::<u32>()
                        .ok()
                        .filter(|w| matches!(w, 4 | 8 | 16 | 32))
                        .ok_or_else(|| anyhow!("`width {value}`: 4, 8, 16 or 32"))?,
                )
            }
            _ => bail!("unknown `{word}` (global, local, width)"),
        }
    }
    let global = global.ok_or_else(|| anyhow!("missing `global`"))?;
    let local = local.unwrap_or_else(|| global.clone());
    if global.len() != local.len() || global.len() > 3 {
        bail!("global and local need the same 1 to 3 dimensions");
    }
    let mut range = NdRange {
        work_dim: global.len() as u32,
        global_size: [1; 3],
        local_size: [1; 3],
        global_offset: [0; 3],
    };
    range.global_size[..global.len()].copy_from_slice(&global);
    range.local_size[..local.len()].copy_from_slice(&local);
    let args = call[open + 1..close]
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(parse_arg)
        .collect::<Result<Vec<_>>>()?;
    let expect = checks
        .split(';')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| {
            let (arg, values) = c
                .split_once('=')
                .ok_or_else(|| anyhow!("`{c}`: expected `argK = values`"))?;
            let k = arg
                .trim()
                .strip_prefix("arg")
                .and_then(|k| k.parse::<usize>().ok())
                .ok_or_else(|| anyhow!("`{}` is not `argK`", arg.trim()))?;
            Ok((k, values.split_whitespace().map(String::from).collect()))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(RunLine {
        kernel,
        range,
        width,
        args,
        expect,
    })
}

fn parse_arg(text: &str) -> Result<RunArg> {
    if let Some(bytes) = text.strip_prefix("local ") {
        return Ok(RunArg::Local(bytes.trim().parse().context("local size")?));
    }
    if let Some((ty, rest)) = text.split_once('[') {
        let (len, values) = rest
            .split_once(']')
            .ok_or_else(|| anyhow!("`{text}`: missing `]`"))?;
        let values = match values.trim().strip_prefix('=') {
            Some(v) => v.split_whitespace().map(String::from).collect(),
            None if values.trim().is_empty() => Vec::new(),
            None => bail!("`{text}`: expected `= values` after the length"),
        };
        return Ok(RunArg::Buffer {
            ty: Elem::parse(ty.trim())?,
            values,
            len: len.trim().parse().context("buffer length")?,
        });
    }
    let (ty, value) = text
        .split_once(' ')
        .ok_or_else(|| anyhow!("`{text}`: expected `T value`, `T[N]` or `local B`"))?;
    Ok(RunArg::Scalar {
        ty: Elem::parse(ty)?,
        value: value.trim().to_string(),
    })
}

/// Runs every line on `module` as written and after the pipeline; returns
/// an error naming the first configuration whose buffers differ.
pub fn check_runs(module: &Module, lines: &[RunLine]) -> Result<()> {
    if lines.is_empty() {
        bail!("`test run` needs at least one `; run:` line");
    }
    for line in lines {
        let (id, _) = module
            .kernels()
            .find(|(_, f)| f.name == line.kernel)
            .ok_or_else(|| anyhow!("no kernel @{}", line.kernel))?;
        run_once(module, id, line).context("as written")?;
        if module.functions[id].gang.is_some() {
            // Already gang-level IR: the pipeline's output, not its input.
            continue;
        }
        let widths = line.width.map_or(vec![4, 16], |w| vec![w]);
        for width in widths {
            for scheme in Scheme::ALL {
                for refill in [RefillMode::Auto, RefillMode::On] {
                    let config = UniformityConfig {
                        local_size: line.range.local_size.map(|n| n as u32),
                        width,
                    };
                    let settings = pipeline::Settings {
                        linearization: scheme,
                        refill,
                    };
                    let after = pipeline::transformed_module(module, id, &config, settings)?;
                    run_once(&after, id, line).with_context(|| {
                        format!(
                            "after the passes for width {width}, linearized by {scheme}, refill {refill}"
                        )
                    })?;
                }
            }
        }
    }
    Ok(())
}

fn run_once(module: &Module, kernel: FuncId, line: &RunLine) -> Result<()> {
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for arg in &line.args {
        if let RunArg::Buffer { ty, values, len } = arg {
            let mut bytes = Vec::with_capacity(len * ty.bytes());
            for i in 0..*len {
                match values.get(i).or(values.last()) {
                    Some(v) => bytes.extend(ty.encode(v)?),
                    None => bytes.extend(std::iter::repeat_n(0, ty.bytes())),
                }
            }
            buffers.push(bytes);
        }
    }
    let mut pending = buffers.iter_mut();
    let mut args = line
        .args
        .iter()
        .map(|arg| {
            Ok(match arg {
                RunArg::Buffer { .. } => KernelArg::Buffer(pending.next().expect("one per buffer")),
                RunArg::Scalar { ty, value } => KernelArg::Scalar(ty.encode(value)?),
                RunArg::Local(n) => KernelArg::Local(*n),
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let options = Options {
        checked: false,
        max_steps: Some(100_000_000),
        sub_group_size: line.width,
        ..Options::default()
    };
    run_kernel(module, kernel, &mut args, &line.range, &options)?;
    drop(args);
    for (k, want) in &line.expect {
        let Some(RunArg::Buffer { ty, .. }) = line.args.get(*k) else {
            bail!("arg{k} is not a buffer");
        };
        let index = line.args[..*k]
            .iter()
            .filter(|a| matches!(a, RunArg::Buffer { .. }))
            .count();
        let got: Vec<String> = buffers[index]
            .chunks(ty.bytes())
            .map(|c| ty.decode(c))
            .collect();
        if got != *want {
            bail!("arg{k} = {}\nexpected {}", got.join(" "), want.join(" "));
        }
    }
    Ok(())
}
