//! Programs: from source, SPIR-V or binary, `clBuildProgram`, separate
//! compilation (`clCompileProgram`, `clLinkProgram`), specialization
//! constants, build info and binaries.
//!
//! SPIR-V (`clCreateProgramWithIL`): the module is checked when the
//! program is made (`lockstep_frontend::spirv::Module::parse`: the header,
//! SPIR-V 1.0 to 1.3, every instruction's length, the OpenCL memory model
//! with 64-bit addresses, the `Kernel` capability), so that bytes which
//! are no such module are `CL_INVALID_VALUE` there; building it runs the
//! SPIR-V translator, and a module that declares a capability, extension or
//! instruction set the device does not list (`cl_khr_spirv_queries`), or
//! that the translator rejects, fails the build (`CL_BUILD_PROGRAM_FAILURE`)
//! with the reason as the log.
//!
//! Binaries: a small text container (see [`Binary`]) holding the kind
//! (executable, compiled object or library), the build options, the build
//! log and a body. An executable's body is the program's Lockstep IR as the
//! IR printer writes it (the parser reads it back, so a binary loads without
//! the source or clang). A compiled object's or library's body is the
//! LLVM IR clang made of it (`lockstep_frontend::compile_object`: the
//! compile options and input headers applied, not yet optimized).
//!
//! Devices: a program is for its context's devices, or for those a binary
//! was given for. They are all the same CPU (the root device and its
//! sub-devices), so one executable serves them all: a build for some of
//! them builds for every one, and each device's binary is the same.
//!
//! Linking links the objects' LLVM modules with LLVM's linker
//! (`lockstep_frontend::link`) and builds the result: each object keeps
//! its own declarations (two may both declare `struct bar`, or both carry
//! the default header), `extern` program-scope variables and functions
//! resolve to another object's definitions, `static` names stay private to
//! their object, and a name two objects both define (two kernels `k`) is a
//! link error, as with any linker.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_void, CStr};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::cl::*;
use crate::context::Context;
use crate::device::Device;
use crate::handle::{self, creator, status, ClType, Kind, Object, Retained};
use crate::info::Info;
use crate::platform;

pub type BuildNotify = unsafe extern "C" fn(program: cl_program, user: *mut c_void);

pub struct Program {
    pub context: Retained<Context>,
    /// The devices it is for (the context keeps them alive).
    devices: Vec<Arc<Object<Device>>>,
    /// The source, for programs created from source.
    source: Option<String>,
    /// The SPIR-V module, for programs created from IL.
    il: Option<Il>,
    state: Mutex<ProgramState>,
    /// Live kernel objects of this program (building is then an error).
    pub kernels: AtomicUsize,
}

impl ClType for Program {
    const KIND: Kind = Kind::Program;
    const INVALID: cl_int = CL_INVALID_PROGRAM;
}

/// A program's SPIR-V: the bytes as given (`CL_PROGRAM_IL`) and the
/// checked module.
struct Il {
    bytes: Vec<u8>,
    module: lockstep_frontend::spirv::Module,
}

struct ProgramState {
    status: cl_build_status,
    /// Values of specialization constants, by SpecId, for the next build
    /// (programs from IL).
    spec_constants: Vec<(u32, Vec<u8>)>,
    options: String,
    log: String,
    binary_type: cl_uint,
    /// What the program holds besides its source.
    content: Content,
}

enum Content {
    None,
    /// A built executable.
    Executable(lockstep_runtime::Program),
    /// An executable binary not yet built (`clCreateProgramWithBinary`
    /// needs `clBuildProgram` before kernels can be made).
    LoadedIr {
        ir: String,
        options: String,
        log: String,
    },
    /// A compiled object or library: LLVM IR, and the `-cl-std=` it was
    /// compiled with.
    Object {
        llvm_ir: String,
        options: String,
    },
}

/// The binary container.
struct Binary {
    kind: String,
    options: String,
    log: String,
    body: String,
}

const BINARY_MAGIC: &str = "LOCKSTEP-CL-BINARY 1\n";

impl Binary {
    fn to_bytes(&self) -> Vec<u8> {
        let mut out = String::from(BINARY_MAGIC);
        out.push_str(&self.kind);
        out.push('\n');
        for field in [&self.options, &self.log, &self.body] {
            out.push_str(&format!("{}\n{}\n", field.len(), field));
        }
        out.into_bytes()
    }

    fn parse(bytes: &[u8]) -> Option<Binary> {
        let text = std::str::from_utf8(bytes).ok()?;
        let rest = text.strip_prefix(BINARY_MAGIC)?;
        let (kind, mut rest) = rest.split_once('\n')?;
        let mut fields = Vec::new();
        for _ in 0..3 {
            let (len, after) = rest.split_once('\n')?;
            let len: usize = len.parse().ok()?;
            let field = after.get(..len)?;
            rest = after.get(len..)?.strip_prefix('\n')?;
            fields.push(field.to_string());
        }
        let body = fields.pop()?;
        let log = fields.pop()?;
        let options = fields.pop()?;
        ["executable", "object", "library"]
            .contains(&kind)
            .then(|| Binary {
                kind: kind.to_string(),
                options,
                log,
                body,
            })
    }
}

/// Loads a program binary as `clCreateProgramWithBinary` then
/// `clBuildProgram` would, short of compiling OpenCL C: the container is
/// parsed, and an executable's IR parsed and verified. `Err` is the code
/// the API would return. (The entry point of the binary-loader fuzz target.)
pub fn load_binary(bytes: &[u8]) -> Result<(), cl_int> {
    let binary = Binary::parse(bytes).ok_or(CL_INVALID_BINARY)?;
    if binary.kind == "executable" {
        let program = lockstep_runtime::Program::from_ir(
            platform::runtime(),
            &binary.body,
            &binary.options,
            &binary.log,
        )
        .map_err(|_| CL_INVALID_BINARY)?;
        // What clGetProgramInfo(CL_PROGRAM_KERNEL_NAMES) and clCreateKernel do.
        for name in program.kernel_names() {
            program.kernel(&name).map_err(|_| CL_INVALID_KERNEL_NAME)?;
        }
    }
    Ok(())
}

pub fn get(program: cl_program) -> Result<Arc<Object<Program>>, cl_int> {
    handle::get::<Program>(program)
}

impl Program {
    fn lock(&self) -> std::sync::MutexGuard<'_, ProgramState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The built executable, or `CL_INVALID_PROGRAM_EXECUTABLE`.
    pub fn executable(&self) -> Result<lockstep_runtime::Program, cl_int> {
        match &self.lock().content {
            Content::Executable(p) => Ok(p.clone()),
            _ => Err(CL_INVALID_PROGRAM_EXECUTABLE),
        }
    }

    /// The binary the program would hand out (empty if it has none).
    fn binary(&self) -> Vec<u8> {
        let state = self.lock();
        let b = match &state.content {
            Content::None => return Vec::new(),
            Content::Executable(p) => Binary {
                kind: "executable".into(),
                options: p.options().to_string(),
                log: state.log.clone(),
                body: p.ir_text(),
            },
            Content::LoadedIr { ir, options, log } => Binary {
                kind: "executable".into(),
                options: options.clone(),
                log: log.clone(),
                body: ir.clone(),
            },
            Content::Object { llvm_ir, options } => Binary {
                kind: if state.binary_type == CL_PROGRAM_BINARY_TYPE_LIBRARY {
                    "library".into()
                } else {
                    "object".into()
                },
                options: options.clone(),
                log: state.log.clone(),
                body: llvm_ir.clone(),
            },
        };
        b.to_bytes()
    }
}

/// A program for every device of its context.
fn new_program(
    context: Arc<Object<Context>>,
    source: Option<String>,
    state: ProgramState,
) -> Arc<Object<Program>> {
    let devices = context.devices().cloned().collect();
    new_program_with_il(context, devices, source, None, state)
}

fn new_program_with_il(
    context: Arc<Object<Context>>,
    devices: Vec<Arc<Object<Device>>>,
    source: Option<String>,
    il: Option<Il>,
    state: ProgramState,
) -> Arc<Object<Program>> {
    handle::create(Program {
        context: Retained::new(&context),
        devices,
        source,
        il,
        state: Mutex::new(state),
        kernels: AtomicUsize::new(0),
    })
}

fn empty_state() -> ProgramState {
    ProgramState {
        status: CL_BUILD_NONE,
        spec_constants: Vec::new(),
        options: String::new(),
        log: String::new(),
        binary_type: CL_PROGRAM_BINARY_TYPE_NONE,
        content: Content::None,
    }
}

pub unsafe extern "C" fn clCreateProgramWithSource(
    context: cl_context,
    count: cl_uint,
    strings: *const *const c_char,
    lengths: *const usize,
    errcode_ret: *mut cl_int,
) -> cl_program {
    creator(errcode_ret, || {
        let c = crate::context::get(context)?;
        if count == 0 || strings.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let mut source = Vec::new();
        for i in 0..count as usize {
            let s = *strings.add(i);
            if s.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let len = if lengths.is_null() {
                0
            } else {
                *lengths.add(i)
            };
            if len == 0 {
                source.extend_from_slice(CStr::from_ptr(s).to_bytes());
            } else {
                source.extend_from_slice(std::slice::from_raw_parts(s as *const u8, len));
            }
        }
        let source = String::from_utf8_lossy(&source).into_owned();
        Ok(handle::handle(&new_program(c, Some(source), empty_state())))
    })
}

pub unsafe extern "C" fn clCreateProgramWithBinary(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    lengths: *const usize,
    binaries: *const *const u8,
    binary_status: *mut cl_int,
    errcode_ret: *mut cl_int,
) -> cl_program {
    creator(errcode_ret, || {
        let c = crate::context::get(context)?;
        if num_devices == 0 || device_list.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let n = num_devices as usize;
        let mut devices: Vec<Arc<Object<Device>>> = Vec::with_capacity(n);
        for &d in std::slice::from_raw_parts(device_list, n) {
            let d = c.device(d)?;
            if devices.iter().any(|e| Arc::ptr_eq(e, &d)) {
                // A device listed twice would have two binaries.
                return Err(CL_INVALID_DEVICE);
            }
            devices.push(d);
        }
        if lengths.is_null() || binaries.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let lengths = std::slice::from_raw_parts(lengths, n);
        let binaries = std::slice::from_raw_parts(binaries, n);
        if (0..n).any(|i| binaries[i].is_null() || lengths[i] == 0) {
            return Err(CL_INVALID_VALUE);
        }
        // Each device's binary is checked; the devices share one
        // executable, so the first binary's is loaded.
        let parsed: Vec<Option<Binary>> = (0..n)
            .map(|i| Binary::parse(std::slice::from_raw_parts(binaries[i], lengths[i])))
            .collect();
        if !binary_status.is_null() {
            for (i, b) in parsed.iter().enumerate() {
                *binary_status.add(i) = if b.is_some() {
                    CL_SUCCESS
                } else {
                    CL_INVALID_BINARY
                };
            }
        }
        let Some(Some(binary)) = parsed.into_iter().next() else {
            return Err(CL_INVALID_BINARY);
        };
        let mut state = empty_state();
        state.options = binary.options.clone();
        state.log = binary.log.clone();
        match binary.kind.as_str() {
            "executable" => {
                state.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
                state.content = Content::LoadedIr {
                    ir: binary.body,
                    options: binary.options,
                    log: binary.log,
                };
            }
            kind => {
                state.binary_type = if kind == "library" {
                    CL_PROGRAM_BINARY_TYPE_LIBRARY
                } else {
                    CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT
                };
                state.content = Content::Object {
                    llvm_ir: binary.body,
                    options: binary.options,
                };
            }
        }
        Ok(handle::handle(&new_program_with_il(
            c, devices, None, None, state,
        )))
    })
}

pub unsafe extern "C" fn clCreateProgramWithBuiltInKernels(
    context: cl_context,
    _num_devices: cl_uint,
    _device_list: *const cl_device_id,
    kernel_names: *const c_char,
    errcode_ret: *mut cl_int,
) -> cl_program {
    creator(errcode_ret, || {
        crate::context::get(context)?;
        let _ = kernel_names;
        // The device has no built-in kernels.
        Err(CL_INVALID_VALUE)
    })
}

pub unsafe extern "C" fn clCreateProgramWithIL(
    context: cl_context,
    il: *const c_void,
    length: usize,
    errcode_ret: *mut cl_int,
) -> cl_program {
    creator(errcode_ret, || {
        let c = crate::context::get(context)?;
        if il.is_null() || length == 0 {
            return Err(CL_INVALID_VALUE);
        }
        let bytes = std::slice::from_raw_parts(il as *const u8, length).to_vec();
        let module =
            lockstep_frontend::spirv::Module::parse(&bytes).map_err(|_| CL_INVALID_VALUE)?;
        let il = Il { bytes, module };
        let devices = c.devices().cloned().collect();
        Ok(handle::handle(&new_program_with_il(
            c,
            devices,
            None,
            Some(il),
            empty_state(),
        )))
    })
}

pub unsafe extern "C" fn clRetainProgram(program: cl_program) -> cl_int {
    status(|| {
        get(program)?.retain();
        Ok(())
    })
}

pub unsafe extern "C" fn clReleaseProgram(program: cl_program) -> cl_int {
    status(|| {
        get(program)?.release();
        Ok(())
    })
}

/// Checks a device list given to a build or link (NULL: all of them):
/// each device must be one of `devices` (the program's, or the context's).
unsafe fn check_devices(
    devices: &[Arc<Object<Device>>],
    num: cl_uint,
    list: *const cl_device_id,
) -> Result<(), cl_int> {
    let listed = handle::get_list::<Device>(num, list, CL_INVALID_VALUE).map_err(|e| {
        if e == CL_INVALID_VALUE {
            e
        } else {
            CL_INVALID_DEVICE
        }
    })?;
    if listed
        .iter()
        .all(|d| devices.iter().any(|e| Arc::ptr_eq(d, e)))
    {
        Ok(())
    } else {
        Err(CL_INVALID_DEVICE)
    }
}

unsafe fn options_string(options: *const c_char) -> String {
    if options.is_null() {
        String::new()
    } else {
        CStr::from_ptr(options).to_string_lossy().into_owned()
    }
}

/// The options a source is built with: the application's, with OpenCL C
/// 1.2 when it names no version (what the spec asks of a 3.0 device).
fn effective_options(options: &str) -> String {
    if options.contains("-cl-std=") {
        options.to_string()
    } else {
        format!("-cl-std=CL1.2 {options}").trim().to_string()
    }
}

/// Builds SPIR-V into an executable: the program or (status, log).
fn build_il(
    il: &Il,
    spec_constants: &[(u32, Vec<u8>)],
    options: &str,
) -> Result<(lockstep_runtime::Program, String), (cl_int, String)> {
    match lockstep_runtime::Program::build_spirv(
        platform::runtime(),
        "program.spv",
        &il.bytes,
        spec_constants,
        options,
    ) {
        Ok(p) => {
            let log = p.build_log().to_string();
            Ok((p, log))
        }
        Err(lockstep_runtime::BuildError::Options(m)) => Err((CL_INVALID_BUILD_OPTIONS, m)),
        Err(e) => Err((CL_BUILD_PROGRAM_FAILURE, e.build_log())),
    }
}

/// Builds OpenCL C into an executable: the program or (status, log).
fn build_source(
    source: &str,
    options: &str,
) -> Result<(lockstep_runtime::Program, String), (cl_int, String)> {
    match lockstep_runtime::Program::build(platform::runtime(), source, options) {
        Ok(p) => {
            let log = p.build_log().to_string();
            Ok((p, log))
        }
        Err(lockstep_runtime::BuildError::Options(m)) => Err((CL_INVALID_BUILD_OPTIONS, m)),
        Err(e) => Err((CL_BUILD_PROGRAM_FAILURE, e.build_log())),
    }
}

pub unsafe extern "C" fn clBuildProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    pfn_notify: Option<BuildNotify>,
    user_data: *mut c_void,
) -> cl_int {
    status(|| {
        let p = get(program)?;
        check_devices(&p.devices, num_devices, device_list)?;
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if p.kernels.load(Ordering::SeqCst) > 0 {
            return Err(CL_INVALID_OPERATION);
        }
        let user_options = options_string(options);
        let result = {
            let mut state = p.lock();
            let outcome = match (&p.source, &state.content) {
                _ if p.il.is_some() => build_il(
                    p.il.as_ref().expect("checked"),
                    &state.spec_constants,
                    &user_options,
                ),
                (_, Content::LoadedIr { ir, options, log }) => {
                    lockstep_runtime::Program::from_ir(platform::runtime(), ir, options, log)
                        .map(|prog| (prog, log.clone()))
                        .map_err(|e| (CL_INVALID_BINARY, e.to_string()))
                }
                (Some(source), _) => build_source(source, &effective_options(&user_options)),
                (None, Content::Object { llvm_ir, options }) => {
                    let options = format!("{} {}", cl_std_of(options), user_options);
                    link_objects(&[llvm_ir.as_str()], options.trim())
                }
                (None, Content::Executable(prog)) => Ok((prog.clone(), state.log.clone())),
                (None, Content::None) => Err((CL_INVALID_PROGRAM, String::new())),
            };
            state.options = user_options;
            match outcome {
                Ok((prog, log)) => {
                    state.status = CL_BUILD_SUCCESS;
                    state.log = log;
                    state.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
                    state.content = Content::Executable(prog);
                    Ok(())
                }
                Err((code, log)) => {
                    state.status = CL_BUILD_ERROR;
                    state.log = log;
                    if matches!(state.content, Content::Executable(_)) {
                        state.content = Content::None;
                        state.binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
                    }
                    Err(code)
                }
            }
        };
        if let Some(f) = pfn_notify {
            f(program, user_data);
        }
        result
    })
}

/// The `-cl-std=` option in an option string, if any.
fn cl_std_of(options: &str) -> &str {
    options
        .split_whitespace()
        .find(|w| w.starts_with("-cl-std="))
        .unwrap_or("")
}

/// Compiles a compile unit with its options and the directory of its
/// input headers: the object's LLVM IR and clang's log, or (error, log).
fn compile_object(
    source: &str,
    options: &str,
    header_dir: &Path,
) -> Result<(String, String), (cl_int, String)> {
    let parsed = lockstep_frontend::BuildOptions::parse(options)
        .map_err(|e| (CL_INVALID_COMPILER_OPTIONS, e.to_string()))?;
    let src = lockstep_frontend::Source {
        name: "program.cl".to_string(),
        text: source.to_string(),
        include_dir: Some(header_dir.to_path_buf()),
    };
    match lockstep_frontend::compile_object(&src, &parsed) {
        Ok(object) => Ok((object.llvm_ir, object.log)),
        Err(e @ lockstep_frontend::CompileError::ClangNotFound) => {
            Err((CL_COMPILER_NOT_AVAILABLE, e.to_string()))
        }
        Err(e) => Err((CL_COMPILE_PROGRAM_FAILURE, e.build_log())),
    }
}

/// Translates a program's SPIR-V into an object (LLVM IR), or the log.
fn compile_il(il: &Il, spec_constants: &[(u32, Vec<u8>)]) -> Result<String, String> {
    lockstep_frontend::compile_spirv_object(&il.module, spec_constants, "program.spv")
        .map(|object| object.llvm_ir)
        .map_err(|e| e.build_log())
}

/// Links objects' LLVM IR into an executable: the program and its log, or
/// (error, log).
fn link_objects(
    objects: &[&str],
    options: &str,
) -> Result<(lockstep_runtime::Program, String), (cl_int, String)> {
    match lockstep_runtime::Program::link(platform::runtime(), objects, options) {
        Ok(p) => {
            let log = p.build_log().to_string();
            Ok((p, log))
        }
        Err(lockstep_runtime::BuildError::Options(m)) => Err((CL_INVALID_LINKER_OPTIONS, m)),
        Err(e) => Err((CL_LINK_PROGRAM_FAILURE, e.build_log())),
    }
}

pub unsafe extern "C" fn clCompileProgram(
    program: cl_program,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_headers: cl_uint,
    input_headers: *const cl_program,
    header_include_names: *const *const c_char,
    pfn_notify: Option<BuildNotify>,
    user_data: *mut c_void,
) -> cl_int {
    status(|| {
        let p = get(program)?;
        check_devices(&p.devices, num_devices, device_list)?;
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if (num_input_headers == 0) != input_headers.is_null()
            || (num_input_headers == 0) != header_include_names.is_null()
        {
            return Err(CL_INVALID_VALUE);
        }
        let headers =
            handle::get_list::<Program>(num_input_headers, input_headers, CL_INVALID_VALUE)?;
        if p.kernels.load(Ordering::SeqCst) > 0 {
            return Err(CL_INVALID_OPERATION);
        }
        if let Some(il) = &p.il {
            // Input headers are for OpenCL C; a module has everything.
            lockstep_frontend::BuildOptions::parse(&options_string(options))
                .map_err(|_| CL_INVALID_COMPILER_OPTIONS)?;
            let spec_constants = p.lock().spec_constants.clone();
            let outcome = compile_il(il, &spec_constants);
            let result = {
                let mut state = p.lock();
                state.options = options_string(options);
                match outcome {
                    Ok(llvm_ir) => {
                        state.status = CL_BUILD_SUCCESS;
                        state.log = String::new();
                        state.binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
                        state.content = Content::Object {
                            llvm_ir,
                            options: String::new(),
                        };
                        Ok(())
                    }
                    Err(log) => {
                        state.status = CL_BUILD_ERROR;
                        state.log = log;
                        Err(CL_COMPILE_PROGRAM_FAILURE)
                    }
                }
            };
            if let Some(f) = pfn_notify {
                f(program, user_data);
            }
            return result;
        }
        let Some(source) = p.source.clone() else {
            return Err(CL_INVALID_OPERATION);
        };
        let header_dir = tempfile::tempdir().map_err(|_| CL_OUT_OF_HOST_MEMORY)?;
        for (i, h) in headers.iter().enumerate() {
            let name = *header_include_names.add(i);
            if name.is_null() {
                return Err(CL_INVALID_VALUE);
            }
            let name = CStr::from_ptr(name).to_string_lossy().into_owned();
            let text = h.source.clone().ok_or(CL_INVALID_VALUE)?;
            let path = header_dir.path().join(&name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|_| CL_INVALID_VALUE)?;
            }
            std::fs::write(&path, text).map_err(|_| CL_OUT_OF_HOST_MEMORY)?;
        }
        let user_options = options_string(options);
        let options = effective_options(&user_options);
        let outcome = compile_object(&source, &options, header_dir.path());
        let result = {
            let mut state = p.lock();
            state.options = user_options;
            match outcome {
                Ok((llvm_ir, log)) => {
                    state.status = CL_BUILD_SUCCESS;
                    state.log = log;
                    state.binary_type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
                    state.content = Content::Object {
                        llvm_ir,
                        options: cl_std_of(&options).to_string(),
                    };
                    Ok(())
                }
                Err((code, log)) => {
                    state.status = CL_BUILD_ERROR;
                    state.log = log;
                    Err(code)
                }
            }
        };
        if let Some(f) = pfn_notify {
            f(program, user_data);
        }
        result
    })
}

/// Options `clLinkProgram` accepts (the rest are `CL_INVALID_LINKER_OPTIONS`).
const LINK_OPTIONS: &[&str] = &[
    "-create-library",
    "-enable-link-options",
    "-cl-denorms-are-zero",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-no-subgroup-ifp",
];

pub unsafe extern "C" fn clLinkProgram(
    context: cl_context,
    num_devices: cl_uint,
    device_list: *const cl_device_id,
    options: *const c_char,
    num_input_programs: cl_uint,
    input_programs: *const cl_program,
    pfn_notify: Option<BuildNotify>,
    user_data: *mut c_void,
    errcode_ret: *mut cl_int,
) -> cl_program {
    let mut link_status = CL_SUCCESS;
    let program = creator(errcode_ret, || {
        let c = crate::context::get(context)?;
        let context_devices: Vec<_> = c.devices().cloned().collect();
        check_devices(&context_devices, num_devices, device_list)?;
        if pfn_notify.is_none() && !user_data.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        if num_input_programs == 0 || input_programs.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let inputs =
            handle::get_list::<Program>(num_input_programs, input_programs, CL_INVALID_VALUE)?;
        let user_options = options_string(options);
        let words: Vec<&str> = user_options.split_whitespace().collect();
        if words.iter().any(|w| !LINK_OPTIONS.contains(w)) {
            return Err(CL_INVALID_LINKER_OPTIONS);
        }
        let library = words.contains(&"-create-library");
        let mut objects = Vec::new();
        let mut cl_std = String::new();
        for p in &inputs {
            if !Arc::ptr_eq(&p.context, &c) {
                return Err(CL_INVALID_CONTEXT);
            }
            match &p.lock().content {
                Content::Object { llvm_ir, options } => {
                    objects.push(llvm_ir.clone());
                    if cl_std.is_empty() {
                        cl_std = cl_std_of(options).to_string();
                    }
                }
                _ => return Err(CL_INVALID_OPERATION),
            }
        }
        let objects: Vec<&str> = objects.iter().map(String::as_str).collect();
        let mut state = empty_state();
        state.options = user_options.clone();
        if library {
            match lockstep_frontend::link_objects(&objects) {
                Ok(llvm_ir) => {
                    state.status = CL_BUILD_SUCCESS;
                    state.binary_type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
                    state.content = Content::Object {
                        llvm_ir,
                        options: cl_std,
                    };
                }
                Err(e) => {
                    state.status = CL_BUILD_ERROR;
                    state.log = e.build_log();
                    link_status = CL_LINK_PROGRAM_FAILURE;
                }
            }
        } else {
            let build_options: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| *w != "-enable-link-options")
                .collect();
            let options = format!("{cl_std} {}", build_options.join(" "));
            match link_objects(&objects, options.trim()) {
                Ok((prog, log)) => {
                    state.status = CL_BUILD_SUCCESS;
                    state.log = log;
                    state.binary_type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
                    state.content = Content::Executable(prog);
                }
                Err((_, log)) => {
                    state.status = CL_BUILD_ERROR;
                    state.log = log;
                    link_status = CL_LINK_PROGRAM_FAILURE;
                }
            }
        }
        let program = new_program(c, None, state);
        Ok(handle::handle(&program))
    });
    if !program.is_null() {
        if let Some(f) = pfn_notify {
            f(program, user_data);
        }
        if link_status != CL_SUCCESS && !errcode_ret.is_null() {
            // The program is returned so that its log can be read.
            *errcode_ret = link_status;
        }
    }
    program
}

pub unsafe extern "C" fn clGetProgramInfo(
    program: cl_program,
    param_name: cl_program_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let p = get(program)?;
        let info = match param_name {
            CL_PROGRAM_REFERENCE_COUNT => Info::from(p.ref_count()),
            CL_PROGRAM_CONTEXT => Info::ptr(handle::handle(&p.context)),
            CL_PROGRAM_NUM_DEVICES => Info::from(p.devices.len() as cl_uint),
            CL_PROGRAM_DEVICES => Info::list(
                &p.devices
                    .iter()
                    .map(handle::handle)
                    .collect::<Vec<cl_device_id>>(),
            ),
            CL_PROGRAM_SOURCE => Info::string(p.source.as_deref().unwrap_or("")),
            CL_PROGRAM_IL => match &p.il {
                Some(il) => Info(il.bytes.clone()),
                None => Info::empty(),
            },
            // One binary per device, all the same.
            CL_PROGRAM_BINARY_SIZES => Info::list(&vec![p.binary().len(); p.devices.len()]),
            CL_PROGRAM_BINARIES => {
                let n = std::mem::size_of::<*mut u8>() * p.devices.len();
                if !value.is_null() {
                    if size < n {
                        return Err(CL_INVALID_VALUE);
                    }
                    let bytes = p.binary();
                    for i in 0..p.devices.len() {
                        let dst = *(value as *const *mut u8).add(i);
                        if !dst.is_null() {
                            std::ptr::copy_nonoverlapping(bytes.as_ptr(), dst, bytes.len());
                        }
                    }
                }
                if !size_ret.is_null() {
                    *size_ret = n;
                }
                return Ok(());
            }
            CL_PROGRAM_NUM_KERNELS => Info::from(p.executable()?.kernel_names().len()),
            CL_PROGRAM_KERNEL_NAMES => Info::string(&p.executable()?.kernel_names().join(";")),
            CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT | CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT => {
                Info::bool(false)
            }
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

pub unsafe extern "C" fn clGetProgramBuildInfo(
    program: cl_program,
    device: cl_device_id,
    param_name: cl_program_build_info,
    size: usize,
    value: *mut c_void,
    size_ret: *mut usize,
) -> cl_int {
    status(|| {
        let p = get(program)?;
        let d = crate::device::get(device)?;
        if !p.devices.iter().any(|e| Arc::ptr_eq(e, &d)) {
            return Err(CL_INVALID_DEVICE);
        }
        let state = p.lock();
        let info = match param_name {
            CL_PROGRAM_BUILD_STATUS => Info::from(state.status),
            CL_PROGRAM_BUILD_OPTIONS => Info::string(&state.options),
            CL_PROGRAM_BUILD_LOG => Info::string(&state.log),
            CL_PROGRAM_BINARY_TYPE => Info::from(state.binary_type),
            CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE => Info::from(match &state.content {
                Content::Executable(prog) => prog
                    .module()
                    .globals
                    .values()
                    .filter(|g| g.space != lockstep_ir::AddrSpace::Local)
                    .map(|g| g.size as usize)
                    .sum::<usize>(),
                _ => 0,
            }),
            _ => return Err(CL_INVALID_VALUE),
        };
        match info.write(size, value, size_ret) {
            CL_SUCCESS => Ok(()),
            e => Err(e),
        }
    })
}

pub unsafe extern "C" fn clSetProgramReleaseCallback(
    program: cl_program,
    _pfn_notify: *const c_void,
    _user_data: *mut c_void,
) -> cl_int {
    status(|| {
        get(program)?;
        // Deprecated in 3.0 and only for global destructors, which
        // CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT says there are none of.
        Err(CL_INVALID_OPERATION)
    })
}

pub unsafe extern "C" fn clSetProgramSpecializationConstant(
    program: cl_program,
    spec_id: cl_uint,
    spec_size: usize,
    spec_value: *const c_void,
) -> cl_int {
    status(|| {
        let p = get(program)?;
        // Only programs from IL have specialization constants.
        let il = p.il.as_ref().ok_or(CL_INVALID_PROGRAM)?;
        match il.module.check_spec_value(spec_id, spec_size) {
            Err(false) => return Err(CL_INVALID_SPEC_ID),
            Err(true) => return Err(CL_INVALID_VALUE),
            Ok(()) => {}
        }
        if spec_value.is_null() {
            return Err(CL_INVALID_VALUE);
        }
        let value = std::slice::from_raw_parts(spec_value as *const u8, spec_size).to_vec();
        let mut state = p.lock();
        state.spec_constants.retain(|(id, _)| *id != spec_id);
        state.spec_constants.push((spec_id, value));
        Ok(())
    })
}

/// The devices a program is for (for kernels).
pub fn devices_of(p: &Object<Program>) -> &[Arc<Object<Device>>] {
    &p.devices
}

/// The context of a program (for kernels).
pub fn context_of(p: &Object<Program>) -> &Arc<Object<Context>> {
    &p.context
}

/// The options the executable was built with (uniform work-groups follow).
pub fn built_options(p: &Object<Program>) -> String {
    match &p.lock().content {
        Content::Executable(prog) => prog.options().to_string(),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::Binary;

    #[test]
    fn binaries_round_trip_and_garbage_is_rejected() {
        let b = Binary {
            kind: "executable".into(),
            options: "-cl-std=CL1.2 -D N=3".into(),
            log: "warning: x\n".into(),
            body: "kernel @k() {\n}\n".into(),
        };
        let back = Binary::parse(&b.to_bytes()).expect("parses");
        assert_eq!(
            (back.kind, back.options, back.log, back.body),
            (b.kind, b.options, b.log, b.body)
        );
        assert!(Binary::parse(b"not a binary").is_none());
        let mut truncated = Binary {
            kind: "object".into(),
            options: String::new(),
            log: String::new(),
            body: "kernel void k() {}".into(),
        }
        .to_bytes();
        truncated.truncate(truncated.len() - 5);
        assert!(Binary::parse(&truncated).is_none());
    }
}
