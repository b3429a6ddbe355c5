//! SPIR-V programs: checks a module of the OpenCL environment, sets its
//! specialization constants, and translates it to LLVM IR with the
//! Khronos SPIRV-LLVM-Translator (`llvm-spirv`), after which it is built
//! like clang's output ([`crate::compile_spirv`]).
//!
//! Two steps, so that each error comes where OpenCL wants it:
//!
//! * [`Module::parse`] reads the words in-process: the header (magic
//!   number in either byte order, SPIR-V 1.0 to 1.4), every instruction's
//!   length, the memory model (64-bit physical addressing, the OpenCL
//!   memory model), the `Kernel` capability, and the specialization
//!   constants (their ids, types and where their default values are). A
//!   module that fails here is not SPIR-V for this device:
//!   `clCreateProgramWithIL` returns `CL_INVALID_VALUE`. It also notes the
//!   capabilities, extensions and extended instruction sets the module
//!   declares.
//! * [`translate`] first checks that the device supports what the module
//!   declares ([`CAPABILITIES`], [`EXTENSIONS`],
//!   [`EXTENDED_INSTRUCTION_SETS`], which `cl_khr_spirv_queries` reports),
//!   then runs `llvm-spirv -r` on the module, with the values of
//!   its specialization constants written into the words (what
//!   specializing means; the translator then reads them as defaults) and
//!   SPIR-V 1.4's instructions the translator cannot read rewritten as
//!   1.0 ones ([`crate::spirv14`]). A
//!   module the translator rejects fails the build with its message as the
//!   build log (`CL_BUILD_PROGRAM_FAILURE`).
//!
//! The translator is found by [`find_translator`]. Debian ships it as
//! `llvm-spirv-15` (LLVM 15 bitcode, which LLVM 19 reads); its reverse
//! translation with `--spirv-target-env=CL2.0` calls OpenCL builtins by the
//! mangled OpenCL C names clang uses (`_Z13get_global_idj`, `_Z4sqrtf`,
//! `_Z21atomic_fetch_add_explicit…`), which the builtin library defines and
//! the importer knows.

use std::fmt;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use crate::error::{CompileError, CompileResult};

/// The SPIR-V magic number (word 0), as written by a little-endian producer.
pub const MAGIC: u32 = 0x0723_0203;

/// The SPIR-V versions Lockstep accepts, (major, minor):
/// `CL_DEVICE_IL_VERSION` and `CL_DEVICE_ILS_WITH_VERSION` list them.
/// SPIR-V 1.4's instructions the translator lacks are rewritten first
/// ([`crate::spirv14`]).
pub const VERSIONS: &[(u32, u32)] = &[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4)];

/// The extended instruction sets a module may import (`OpExtInstImport`):
/// what `CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR` reports.
pub const EXTENDED_INSTRUCTION_SETS: &[&str] = &["OpenCL.std"];

/// The SPIR-V extensions a module may declare (`OpExtension`), each read
/// by the translator and run by the device: what
/// `CL_DEVICE_SPIRV_EXTENSIONS_KHR` reports. Those of the device's OpenCL
/// C extensions (`cl_khr_extended_bit_ops`, `cl_khr_integer_dot_product`,
/// `cl_khr_subgroup_rotate`), and two that only SPIR-V has
/// ([`DEVICE_EXTENSIONS`]).
pub const EXTENSIONS: &[&str] = &[
    "SPV_KHR_bit_instructions",
    "SPV_KHR_integer_dot_product",
    "SPV_KHR_subgroup_rotate",
    "SPV_KHR_no_integer_wrap_decoration",
    "SPV_KHR_linkonce_odr",
];

/// The device extensions about SPIR-V alone: the queries below, and the
/// two SPIR-V extensions that no OpenCL C extension brings.
pub const DEVICE_EXTENSIONS: &[&str] = &[
    "cl_khr_spirv_queries",
    "cl_khr_spirv_no_integer_wrap_decoration",
    "cl_khr_spirv_linkonce_odr",
];

/// The SPIR-V capabilities a module may declare (number, name): what
/// `CL_DEVICE_SPIRV_CAPABILITIES_KHR` reports. The OpenCL environment's
/// core ones; 64-bit integers and their atomics, doubles; images (1D,
/// buffer, read-write, sampler literals); the generic address space,
/// work-group and subgroup functions, pipes and device-side enqueue; a
/// required subgroup size (`SubgroupDispatch`); and those of the device's
/// extensions: the `cl_khr_subgroup_*` functions (SPIR-V 1.3's
/// GroupNonUniform instructions), extended bit operations and integer dot
/// products. A module declaring another one is not built.
pub const CAPABILITIES: &[(u32, &str)] = &[
    (4, "Addresses"),
    (5, "Linkage"),
    (6, "Kernel"),
    (7, "Vector16"),
    (8, "Float16Buffer"),
    (10, "Float64"),
    (11, "Int64"),
    (12, "Int64Atomics"),
    (13, "ImageBasic"),
    (14, "ImageReadWrite"),
    (17, "Pipes"),
    (18, "Groups"),
    (19, "DeviceEnqueue"),
    (20, "LiteralSampler"),
    (22, "Int16"),
    (38, "GenericPointer"),
    (39, "Int8"),
    (43, "Sampled1D"),
    (44, "Image1D"),
    (46, "SampledBuffer"),
    (47, "ImageBuffer"),
    (58, "SubgroupDispatch"),
    (61, "GroupNonUniform"),
    (62, "GroupNonUniformVote"),
    (63, "GroupNonUniformArithmetic"),
    (64, "GroupNonUniformBallot"),
    (65, "GroupNonUniformShuffle"),
    (66, "GroupNonUniformShuffleRelative"),
    (67, "GroupNonUniformClustered"),
    (6017, "DotProductInput4x8Bit"),
    (6018, "DotProductInput4x8BitPacked"),
    (6019, "DotProduct"),
    (6025, "BitInstructions"),
    (6026, "GroupNonUniformRotateKHR"),
];

/// A module's words as the bytes of a little-endian file.
fn little_endian_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// True if `bytes` start with the SPIR-V magic number (either byte order).
pub fn is_spirv(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && {
        let word = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        word == MAGIC || word.swap_bytes() == MAGIC
    }
}

/// The type of a specialization constant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SpecType {
    Bool,
    Int { bits: u32 },
    Float { bits: u32 },
}

impl SpecType {
    /// Its size in bytes, as `clSetProgramSpecializationConstant` wants it
    /// (a `bool` is one byte).
    pub fn size(self) -> usize {
        match self {
            SpecType::Bool => 1,
            SpecType::Int { bits } | SpecType::Float { bits } => (bits as usize).div_ceil(8),
        }
    }
}

impl fmt::Display for SpecType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecType::Bool => f.write_str("bool"),
            SpecType::Int { bits } => write!(f, "i{bits}"),
            SpecType::Float { bits } => write!(f, "f{bits}"),
        }
    }
}

/// A scalar specialization constant (`OpSpecConstant`, `OpSpecConstantTrue`,
/// `OpSpecConstantFalse` decorated with `SpecId`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecConstant {
    /// Its `SpecId`, what the API names it by.
    pub spec_id: u32,
    pub ty: SpecType,
    /// The index of its instruction's first word in the module.
    inst: usize,
}

/// A checked SPIR-V module: its words in host order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Module {
    words: Vec<u32>,
    /// (major, minor).
    pub version: (u32, u32),
    pub spec_constants: Vec<SpecConstant>,
    /// The kernels' names (`OpEntryPoint Kernel`).
    pub entry_points: Vec<String>,
    /// What it declares: capabilities (numbers), extensions and the
    /// extended instruction sets it imports.
    pub capabilities: Vec<u32>,
    pub extensions: Vec<String>,
    pub extended_instruction_sets: Vec<String>,
}

/// The value given to a specialization constant: its bytes, in host order,
/// as many as [`SpecType::size`].
pub type SpecValue = (u32, Vec<u8>);

// Opcodes and operands this module reads.
const OP_SOURCE: u32 = 3;
const OP_EXTENSION: u32 = 10;
const OP_EXT_INST_IMPORT: u32 = 11;
const OP_MEMORY_MODEL: u32 = 14;
const OP_ENTRY_POINT: u32 = 15;
const OP_CAPABILITY: u32 = 17;
const OP_TYPE_BOOL: u32 = 20;
const OP_TYPE_INT: u32 = 21;
const OP_TYPE_FLOAT: u32 = 22;
const OP_SPEC_CONSTANT_TRUE: u32 = 48;
const OP_SPEC_CONSTANT_FALSE: u32 = 49;
const OP_SPEC_CONSTANT: u32 = 50;
const OP_DECORATE: u32 = 71;
const DECORATION_SPEC_ID: u32 = 1;
const CAPABILITY_SHADER: u32 = 1;
const CAPABILITY_KERNEL: u32 = 6;
const ADDRESSING_PHYSICAL32: u32 = 1;
const ADDRESSING_PHYSICAL64: u32 = 2;
const MEMORY_MODEL_OPENCL: u32 = 2;
const EXECUTION_MODEL_KERNEL: u32 = 6;

impl Module {
    /// Checks `bytes` as a SPIR-V module for this device (see the module
    /// documentation); the error says what is wrong.
    pub fn parse(bytes: &[u8]) -> Result<Module, String> {
        if bytes.is_empty() {
            return Err("the SPIR-V module is empty".into());
        }
        if !bytes.len().is_multiple_of(4) {
            return Err(format!(
                "a SPIR-V module is a sequence of 32-bit words, but it has {} bytes",
                bytes.len()
            ));
        }
        let mut words: Vec<u32> = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        match words[0] {
            MAGIC => {}
            w if w.swap_bytes() == MAGIC => words.iter_mut().for_each(|w| *w = w.swap_bytes()),
            w => {
                return Err(format!(
                "not a SPIR-V module: it starts with 0x{w:08x}, not the magic number 0x{MAGIC:08x}"
            ))
            }
        }
        if words.len() < 5 {
            return Err(format!(
                "the SPIR-V header has 5 words, but the module has {}",
                words.len()
            ));
        }
        let version = words[1];
        let (major, minor) = ((version >> 16) & 0xff, (version >> 8) & 0xff);
        if version & 0xff00_00ff != 0 || !VERSIONS.contains(&(major, minor)) {
            return Err(format!(
                "SPIR-V version {major}.{minor} (word 0x{version:08x}) is not supported: Lockstep accepts SPIR-V 1.0 to 1.4"
            ));
        }
        let bound = words[3];
        if bound == 0 {
            return Err("the SPIR-V header's id bound is 0".into());
        }
        if words[4] != 0 {
            return Err(format!(
                "the SPIR-V header's reserved word is 0x{:08x}, not 0",
                words[4]
            ));
        }

        let mut module = Module {
            words: Vec::new(),
            version: (major, minor),
            spec_constants: Vec::new(),
            entry_points: Vec::new(),
            capabilities: Vec::new(),
            extensions: Vec::new(),
            extended_instruction_sets: Vec::new(),
        };
        let mut kernel_capability = false;
        let mut memory_model = None;
        // SpecId decorations (target id, spec id), and the scalar types
        // and spec constants by result id.
        let mut spec_ids: Vec<(u32, u32)> = Vec::new();
        let mut types: Vec<(u32, SpecType)> = Vec::new();
        let mut constants: Vec<(u32, u32, usize)> = Vec::new(); // (result, type, inst)
        let mut at = 5;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let opcode = words[at] & 0xffff;
            if count == 0 {
                return Err(format!(
                    "instruction at word {at} (opcode {opcode}) has a word count of 0"
                ));
            }
            let Some(inst) = words.get(at..at + count) else {
                return Err(format!(
                    "instruction at word {at} (opcode {opcode}) has {count} words, past the end of the module ({} words)",
                    words.len()
                ));
            };
            let operand = |i: usize| -> Result<u32, String> {
                inst.get(i).copied().ok_or_else(|| {
                    format!("instruction at word {at} (opcode {opcode}) is missing operand {i}")
                })
            };
            let id = |i: usize| -> Result<u32, String> {
                let v = operand(i)?;
                if v == 0 || v >= bound {
                    return Err(format!(
                        "instruction at word {at} (opcode {opcode}) uses id {v}, outside the id bound {bound}"
                    ));
                }
                Ok(v)
            };
            let string = |i: usize| -> Result<String, String> {
                literal_string(&inst[i.min(inst.len())..]).ok_or_else(|| {
                    format!("instruction at word {at} (opcode {opcode}) has an unterminated string")
                })
            };
            match opcode {
                OP_CAPABILITY => {
                    let capability = operand(1)?;
                    match capability {
                        CAPABILITY_KERNEL => kernel_capability = true,
                        CAPABILITY_SHADER => {
                            return Err(
                                "the module declares the Shader capability: it is a graphics (Vulkan) module, not an OpenCL kernel module".into(),
                            )
                        }
                        _ => {}
                    }
                    module.capabilities.push(capability);
                }
                OP_EXTENSION => module.extensions.push(string(1)?),
                OP_EXT_INST_IMPORT => module.extended_instruction_sets.push(string(2)?),
                OP_MEMORY_MODEL => {
                    if memory_model.is_some() {
                        return Err("the module has two OpMemoryModel instructions".into());
                    }
                    memory_model = Some((operand(1)?, operand(2)?));
                }
                OP_ENTRY_POINT => {
                    if operand(1)? != EXECUTION_MODEL_KERNEL {
                        return Err(format!(
                            "entry point at word {at} has execution model {}, not Kernel: only OpenCL kernels can run on this device",
                            operand(1)?
                        ));
                    }
                    id(2)?;
                    module
                        .entry_points
                        .push(literal_string(&inst[3..]).ok_or_else(|| {
                            format!("entry point at word {at} has an unterminated name")
                        })?);
                }
                OP_DECORATE if operand(2)? == DECORATION_SPEC_ID => {
                    spec_ids.push((id(1)?, operand(3)?));
                }
                OP_TYPE_BOOL => types.push((id(1)?, SpecType::Bool)),
                OP_TYPE_INT => types.push((id(1)?, SpecType::Int { bits: operand(2)? })),
                OP_TYPE_FLOAT => types.push((id(1)?, SpecType::Float { bits: operand(2)? })),
                OP_SPEC_CONSTANT_TRUE | OP_SPEC_CONSTANT_FALSE | OP_SPEC_CONSTANT => {
                    constants.push((id(2)?, id(1)?, at));
                }
                OP_SOURCE => {}
                _ => {}
            }
            at += count;
        }
        match memory_model {
            None => return Err("the module has no OpMemoryModel instruction".into()),
            Some((ADDRESSING_PHYSICAL64, MEMORY_MODEL_OPENCL)) => {}
            Some((ADDRESSING_PHYSICAL32, _)) => {
                return Err(
                    "the module uses 32-bit addressing (Physical32); this device's address bits are 64 (Physical64)".into(),
                )
            }
            Some((addressing, MEMORY_MODEL_OPENCL)) => {
                return Err(format!(
                    "the module's addressing model is {addressing}, not Physical64 (2)"
                ))
            }
            Some((_, memory)) => {
                return Err(format!(
                    "the module's memory model is {memory}, not OpenCL (2): it is not an OpenCL kernel module"
                ))
            }
        }
        if !kernel_capability {
            return Err(
                "the module does not declare the Kernel capability that OpenCL modules need".into(),
            );
        }
        for (target, spec_id) in spec_ids {
            // A SpecId on something else (a composite) is left to the translator.
            let Some(&(_, ty_id, inst)) = constants.iter().find(|c| c.0 == target) else {
                continue;
            };
            let Some(&(_, ty)) = types.iter().find(|t| t.0 == ty_id) else {
                continue;
            };
            let opcode = words[inst] & 0xffff;
            let count = (words[inst] >> 16) as usize;
            let fits = match (opcode, ty) {
                (OP_SPEC_CONSTANT_TRUE | OP_SPEC_CONSTANT_FALSE, SpecType::Bool) => count == 3,
                (OP_SPEC_CONSTANT, SpecType::Int { bits } | SpecType::Float { bits }) => {
                    matches!(bits, 8 | 16 | 32 | 64) && count == 3 + (bits as usize).div_ceil(32)
                }
                _ => false,
            };
            if !fits {
                return Err(format!(
                    "specialization constant {spec_id} (instruction at word {inst}) does not match its type {ty}"
                ));
            }
            if module.spec_constants.iter().any(|c| c.spec_id == spec_id) {
                return Err(format!(
                    "two specialization constants have SpecId {spec_id}"
                ));
            }
            module
                .spec_constants
                .push(SpecConstant { spec_id, ty, inst });
        }
        module.words = words;
        Ok(module)
    }

    /// The module's bytes in host order, with each given specialization
    /// constant's value as its default. Values must have been checked with
    /// [`Module::check_spec_value`]; ids the module lacks are ignored.
    pub fn specialized_bytes(&self, values: &[SpecValue]) -> Vec<u8> {
        little_endian_bytes(&self.specialized_words(values))
    }

    /// [`Module::specialized_bytes`] as words.
    fn specialized_words(&self, values: &[SpecValue]) -> Vec<u32> {
        let mut words = self.words.clone();
        for (spec_id, bytes) in values {
            let Some(c) = self.spec_constants.iter().find(|c| c.spec_id == *spec_id) else {
                continue;
            };
            match c.ty {
                SpecType::Bool => {
                    let opcode = if bytes.iter().any(|&b| b != 0) {
                        OP_SPEC_CONSTANT_TRUE
                    } else {
                        OP_SPEC_CONSTANT_FALSE
                    };
                    words[c.inst] = (words[c.inst] & 0xffff_0000) | opcode;
                }
                SpecType::Int { .. } | SpecType::Float { .. } => {
                    // Literal words hold the value's low-order bits first;
                    // narrower integers are sign- or zero-extended in the
                    // word, which the translator reads back truncated.
                    let mut value = [0u8; 8];
                    value[..bytes.len().min(8)].copy_from_slice(&bytes[..bytes.len().min(8)]);
                    let value = u64::from_ne_bytes(value);
                    let n = c.ty.size().div_ceil(4);
                    for i in 0..n {
                        words[c.inst + 3 + i] = (value >> (32 * i)) as u32;
                    }
                }
            }
        }
        words
    }

    /// Checks a value for specialization constant `spec_id`: `Err(false)`
    /// if the module has no such constant, `Err(true)` if `size` is not its
    /// size.
    pub fn check_spec_value(&self, spec_id: u32, size: usize) -> Result<(), bool> {
        let c = self
            .spec_constants
            .iter()
            .find(|c| c.spec_id == spec_id)
            .ok_or(false)?;
        if c.ty.size() == size {
            Ok(())
        } else {
            Err(true)
        }
    }

    /// What the module declares that the device does not support (a
    /// capability, extension or extended instruction set not in
    /// [`CAPABILITIES`], [`EXTENSIONS`], [`EXTENDED_INSTRUCTION_SETS`]), as
    /// the build log says it; `None` if all is supported.
    pub fn unsupported(&self) -> Option<String> {
        let mut why = Vec::new();
        for &c in &self.capabilities {
            if !CAPABILITIES.iter().any(|&(n, _)| n == c) {
                why.push(format!(
                    "the module declares the SPIR-V capability {}, which this device does not support",
                    capability_name(c)
                ));
            }
        }
        for e in &self.extensions {
            if !EXTENSIONS.contains(&e.as_str()) {
                why.push(format!(
                    "the module declares the SPIR-V extension {e}, which this device does not support"
                ));
            }
        }
        for set in &self.extended_instruction_sets {
            if !EXTENDED_INSTRUCTION_SETS.contains(&set.as_str()) {
                why.push(format!(
                    "the module imports the extended instruction set {set}, which this device does not support"
                ));
            }
        }
        if why.is_empty() {
            return None;
        }
        why.push(
            "(CL_DEVICE_SPIRV_CAPABILITIES_KHR, CL_DEVICE_SPIRV_EXTENSIONS_KHR and CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR list what it supports)".into(),
        );
        Some(why.join("\n"))
    }

    /// The module's size in bytes.
    pub fn len(&self) -> usize {
        self.words.len() * 4
    }

    /// Never: a module has at least its header.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }
}

/// A capability's name as SPIR-V's grammar spells it, for the ones this
/// device supports and the common others; else its number.
fn capability_name(capability: u32) -> String {
    const OTHERS: &[(u32, &str)] = &[
        (0, "Matrix"),
        (9, "Float16"),
        (15, "ImageMipmap"),
        (21, "AtomicStorage"),
        (59, "NamedBarrier"),
        (60, "PipeStorage"),
        (68, "GroupNonUniformQuad"),
        (71, "UniformDecoration"),
        (5629, "ExpectAssumeKHR"),
        (6016, "DotProductInputAll"),
    ];
    CAPABILITIES
        .iter()
        .chain(OTHERS)
        .find(|&&(n, _)| n == capability)
        .map_or_else(
            || capability.to_string(),
            |&(_, name)| format!("{name} ({capability})"),
        )
}

/// A SPIR-V literal string: UTF-8 bytes, NUL-terminated, packed four to a
/// word, low-order byte first.
fn literal_string(words: &[u32]) -> Option<String> {
    let mut bytes = Vec::new();
    for w in words {
        for b in w.to_le_bytes() {
            if b == 0 {
                return Some(String::from_utf8_lossy(&bytes).into_owned());
            }
            bytes.push(b);
        }
    }
    None
}

/// Names of the translator on `PATH`, in order of preference.
const TRANSLATOR_NAMES: &[&str] = &["llvm-spirv-15", "llvm-spirv"];

/// Where Debian's `llvm-spirv-15` package also puts it.
const TRANSLATOR_LIB_PATH: &str = "/usr/lib/llvm-15/bin/llvm-spirv";

/// Finds the SPIR-V to LLVM translator: `$LOCKSTEP_LLVM_SPIRV` (which must
/// exist), else `llvm-spirv-15`, then `llvm-spirv` on `PATH`, else
/// `/usr/lib/llvm-15/bin/llvm-spirv`. A translator for an LLVM newer than
/// 19 would write bitcode LLVM 19 cannot read.
pub fn find_translator() -> CompileResult<PathBuf> {
    if let Some(path) = std::env::var_os("LOCKSTEP_LLVM_SPIRV") {
        let path = PathBuf::from(path);
        if path.is_file() {
            return Ok(path);
        }
        return Err(CompileError::SpirvTranslatorNotFound {
            why: format!(
                "LOCKSTEP_LLVM_SPIRV names {}, which does not exist",
                path.display()
            ),
        });
    }
    if let Some(path) = TRANSLATOR_NAMES
        .iter()
        .find_map(|name| crate::driver::search_path(name))
    {
        return Ok(path);
    }
    let lib = PathBuf::from(TRANSLATOR_LIB_PATH);
    if lib.is_file() {
        return Ok(lib);
    }
    Err(CompileError::SpirvTranslatorNotFound {
        why: format!(
            "neither {} is on PATH, nor is there {TRANSLATOR_LIB_PATH}",
            TRANSLATOR_NAMES.join(" nor ")
        ),
    })
}

/// How long the translator may run on one module.
const TRANSLATE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(120);

/// Translates `module` (with `spec` values for its specialization
/// constants) to LLVM bitcode with `llvm-spirv -r`.
pub fn translate(module: &Module, spec: &[SpecValue]) -> CompileResult<Vec<u8>> {
    if let Some(log) = module.unsupported() {
        return Err(CompileError::SpirvTranslation { log });
    }
    let translator = find_translator()?;
    let dir = tempfile::tempdir().map_err(|e| CompileError::Io {
        what: "creating a temporary directory".into(),
        message: e.to_string(),
    })?;
    let input = dir.path().join("program.spv");
    let output = dir.path().join("program.bc");
    let words = crate::spirv14::lower(&module.specialized_words(spec))
        .map_err(|log| CompileError::SpirvTranslation { log })?;
    std::fs::write(&input, little_endian_bytes(&words)).map_err(|e| CompileError::Io {
        what: format!("writing {}", input.display()),
        message: e.to_string(),
    })?;
    let log_path = dir.path().join("translator.log");
    let io_error = |what: String| {
        move |e: std::io::Error| CompileError::Io {
            what,
            message: e.to_string(),
        }
    };
    let log_file = std::fs::File::create(&log_path)
        .map_err(io_error(format!("creating {}", log_path.display())))?;
    let mut child = Command::new(&translator)
        .arg("-r")
        .arg("--spirv-target-env=CL2.0")
        // Argument type names as the producer wrote them (`uint*`, with
        // `const`), where it kept them in OpStrings; else the translator
        // derives them from SPIR-V's types, which have no signedness.
        .arg("--preserve-ocl-kernel-arg-type-metadata-through-string")
        .arg("-o")
        .arg(&output)
        .arg(&input)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log_file)
        .spawn()
        .map_err(io_error(format!("running {}", translator.display())))?;
    // The translator answers in milliseconds; one that runs on (a module
    // made to make it loop) is stopped rather than hang the build.
    let deadline = std::time::Instant::now() + TRANSLATE_TIMEOUT;
    let status = loop {
        if let Some(status) = child
            .try_wait()
            .map_err(io_error(format!("waiting for {}", translator.display())))?
        {
            break Some(status);
        }
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    };
    let log = std::fs::read_to_string(&log_path)
        .unwrap_or_default()
        .trim()
        .to_string();
    let how = match status {
        Some(status) if status.success() => None,
        Some(status) => Some(match status.code() {
            Some(code) => format!("exit status {code}"),
            None => {
                use std::os::unix::process::ExitStatusExt;
                format!("signal {}", status.signal().unwrap_or(0))
            }
        }),
        None => Some(format!("stopped after {} s", TRANSLATE_TIMEOUT.as_secs())),
    };
    if let Some(how) = how {
        return Err(CompileError::SpirvTranslation {
            log: format!(
                "{} rejected the SPIR-V module ({how}){}{log}",
                translator.display(),
                if log.is_empty() { "" } else { ":\n" }
            ),
        });
    }
    std::fs::read(&output).map_err(|e| CompileError::Io {
        what: format!("reading {}'s output", translator.display()),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A minimal OpenCL module: header, `Kernel` and `Addresses`
    /// capabilities, the memory model, an `int` type and spec constant 7
    /// (default 5), and a bool spec constant 3 (default false).
    fn minimal(version: u32) -> Vec<u32> {
        let op = |opcode: u32, operands: &[u32]| {
            let mut v = vec![((operands.len() as u32 + 1) << 16) | opcode];
            v.extend_from_slice(operands);
            v
        };
        let mut w = vec![MAGIC, version, 0, 10, 0];
        w.extend(op(OP_CAPABILITY, &[4]));
        w.extend(op(OP_CAPABILITY, &[CAPABILITY_KERNEL]));
        w.extend(op(
            OP_MEMORY_MODEL,
            &[ADDRESSING_PHYSICAL64, MEMORY_MODEL_OPENCL],
        ));
        w.extend(op(OP_DECORATE, &[2, DECORATION_SPEC_ID, 7]));
        w.extend(op(OP_DECORATE, &[5, DECORATION_SPEC_ID, 3]));
        w.extend(op(OP_TYPE_INT, &[1, 32, 0]));
        w.extend(op(OP_SPEC_CONSTANT, &[1, 2, 5]));
        w.extend(op(OP_TYPE_BOOL, &[4]));
        w.extend(op(OP_SPEC_CONSTANT_FALSE, &[4, 5]));
        w
    }

    use super::little_endian_bytes as bytes;

    #[test]
    fn a_minimal_module_parses_in_either_byte_order() {
        let m = Module::parse(&bytes(&minimal(0x0001_0200))).expect("parses");
        assert_eq!(m.version, (1, 2));
        let ids: Vec<(u32, SpecType)> =
            m.spec_constants.iter().map(|c| (c.spec_id, c.ty)).collect();
        assert_eq!(ids, [(7, SpecType::Int { bits: 32 }), (3, SpecType::Bool)]);
        let swapped: Vec<u8> = minimal(0x0001_0000)
            .iter()
            .flat_map(|w| w.to_be_bytes())
            .collect();
        let m2 = Module::parse(&swapped).expect("big-endian parses");
        assert_eq!(m2.version, (1, 0));
        assert!(is_spirv(&swapped));
        // Written back in host order.
        assert_eq!(m2.specialized_bytes(&[]), bytes(&minimal(0x0001_0000)));
    }

    #[test]
    fn specialization_writes_the_values_into_the_words() {
        let m = Module::parse(&bytes(&minimal(0x0001_0000))).unwrap();
        assert_eq!(m.check_spec_value(7, 4), Ok(()));
        assert_eq!(m.check_spec_value(7, 8), Err(true));
        assert_eq!(m.check_spec_value(3, 1), Ok(()));
        assert_eq!(m.check_spec_value(9, 4), Err(false));
        let out = m.specialized_bytes(&[(7, 42i32.to_ne_bytes().to_vec()), (3, vec![1])]);
        let again = Module::parse(&out).unwrap();
        let words: Vec<u32> = out
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let int = &again.spec_constants[0];
        assert_eq!(words[int.inst + 3], 42);
        let b = &again.spec_constants[1];
        assert_eq!(words[b.inst] & 0xffff, OP_SPEC_CONSTANT_TRUE);
    }

    /// What a fuzz target would do, in-process: corrupt the minimal module
    /// (words flipped, cut short, lengthened) many times; parsing never
    /// panics, and what parses specializes and parses again.
    #[test]
    fn corrupted_modules_never_panic() {
        let good = minimal(0x0001_0000);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut parsed = 0;
        for _ in 0..20_000 {
            let mut w = good.clone();
            for _ in 0..1 + next() % 3 {
                if w.is_empty() {
                    break;
                }
                let i = (next() % w.len() as u64) as usize;
                match next() % 4 {
                    0 => w[i] ^= 1 << (next() % 32),
                    1 => w[i] = next() as u32,
                    2 => w.truncate(i),
                    _ => w.insert(i, (next() % 0x30000) as u32),
                }
            }
            let mut b = bytes(&w);
            if next() % 8 == 0 {
                b.truncate(b.len().saturating_sub(1 + (next() % 3) as usize));
            }
            if let Ok(m) = Module::parse(&b) {
                parsed += 1;
                let spec: Vec<SpecValue> = m
                    .spec_constants
                    .iter()
                    .map(|c| (c.spec_id, vec![0xa5; c.ty.size()]))
                    .collect();
                let again = Module::parse(&m.specialized_bytes(&spec)).expect("re-parses");
                assert_eq!(again.spec_constants.len(), m.spec_constants.len());
            }
        }
        assert!(parsed > 100, "{parsed}");
    }

    #[test]
    fn malformed_modules_are_rejected_with_a_reason() {
        let good = minimal(0x0001_0000);
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (Vec::new(), "empty"),
            (vec![3, 2, 0x23, 7, 0], "32-bit words"),
            (bytes(&[0xdead_beef; 8]), "magic number"),
            (bytes(&good[..4]), "header has 5 words"),
            (bytes(&minimal(0x0001_0500)), "version 1.5"),
            (bytes(&minimal(0x0002_0000)), "version 2.0"),
            (
                {
                    let mut w = good.clone();
                    w[3] = 0;
                    bytes(&w)
                },
                "id bound",
            ),
            (
                {
                    let mut w = good.clone();
                    w.push(0);
                    bytes(&w)
                },
                "word count of 0",
            ),
            (
                {
                    let mut w = good.clone();
                    w.push((9 << 16) | OP_SOURCE);
                    bytes(&w)
                },
                "past the end",
            ),
            (
                {
                    let mut w = good.clone();
                    // The Kernel capability becomes Shader.
                    w[8] = CAPABILITY_SHADER;
                    bytes(&w)
                },
                "Shader",
            ),
            (
                {
                    let mut w = good.clone();
                    w[10] = ADDRESSING_PHYSICAL32;
                    bytes(&w)
                },
                "32-bit addressing",
            ),
            (
                {
                    let mut w = good.clone();
                    w[11] = 1;
                    bytes(&w)
                },
                "memory model is 1",
            ),
            (
                {
                    let mut w = good.clone();
                    // The SpecId decoration targets an id past the bound.
                    w[13] = 99;
                    bytes(&w)
                },
                "outside the id bound",
            ),
        ];
        for (input, want) in cases {
            let err = Module::parse(&input).expect_err(want);
            assert!(err.contains(want), "expected '{want}' in: {err}");
        }
    }
}
