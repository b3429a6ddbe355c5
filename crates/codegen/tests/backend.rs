//! Back end tests: hand-built SIMD modules go through `default<O3>`, object
//! emission and the ORC JIT, and are called; the object cache round-trips
//! and rejects damaged files.

use std::sync::atomic::{AtomicI32, Ordering};

use inkwell::attributes::AttributeLoc;
use inkwell::builder::Builder;
use inkwell::context::Context;
use inkwell::intrinsics::Intrinsic;
use inkwell::module::Module;
use inkwell::types::VectorType;
use inkwell::values::{BasicMetadataValueEnum, BasicValue, VectorValue};
use inkwell::AddressSpace;
use inkwell::IntPredicate;
use lockstep_codegen::backend::cache::{compiler_version, ObjectCache};
use lockstep_codegen::backend::target::{self, BackendError, HostTarget};
use lockstep_codegen::backend::Jit;

/// What `lockstep_test_record` was last called with.
static RECORDED: AtomicI32 = AtomicI32::new(0);

/// A runtime helper the generated code calls through an absolute symbol.
extern "C" fn lockstep_test_record(x: i32) -> i32 {
    RECORDED.store(x, Ordering::SeqCst);
    x * 2
}

fn host() -> HostTarget {
    HostTarget::detect().expect("the host target is detected")
}

/// The SLEEF sine for the host's widest vectors, if the host has AVX2 at
/// least: (symbol, lanes).
fn sleef_sine(host: &HostTarget) -> Option<(&'static str, u32)> {
    if host.has_feature("avx512f") {
        Some(("Sleef_sinf16_u10", 16))
    } else if host.has_feature("avx2") {
        Some(("Sleef_sinf8_u10", 8))
    } else {
        None
    }
}

fn splat<'c>(
    builder: &Builder<'c>,
    context: &'c Context,
    ty: VectorType<'c>,
    value: inkwell::values::BasicValueEnum<'c>,
) -> VectorValue<'c> {
    let undef = ty.get_undef();
    let zero = context.i32_type().const_zero();
    let first = builder
        .build_insert_element(undef, value, zero, "splat.first")
        .unwrap();
    let mask = VectorType::const_vector(&vec![zero; ty.get_size() as usize]);
    builder
        .build_shuffle_vector(first, undef, mask, "splat")
        .unwrap()
}

/// Builds the test module:
/// * `gang_fma(a, b, out, n)`: `out[i] = a[i] * b[i] + 1` for the 16 lanes
///   `i < n`, with `llvm.masked.load` / `llvm.masked.store`;
/// * `call_runtime(x)`: `lockstep_test_record(x) + 1`;
/// * `call_sinf(x)`: libm's `sinf(x)`;
/// * `call_sleef(in, out)`: `out = sleef(in)` over `lanes` floats, if given.
fn build_module<'c>(context: &'c Context, sleef: Option<(&str, u32)>) -> Module<'c> {
    let module = context.create_module("backend_test");
    let builder = context.create_builder();
    let f32_ty = context.f32_type();
    let i32_ty = context.i32_type();
    let ptr_ty = context.ptr_type(AddressSpace::default());
    let void_ty = context.void_type();
    let v16f32 = f32_ty.vec_type(16);
    let v16i32 = i32_ty.vec_type(16);

    // gang_fma
    let function = module.add_function(
        "gang_fma",
        void_ty.fn_type(
            &[ptr_ty.into(), ptr_ty.into(), ptr_ty.into(), i32_ty.into()],
            false,
        ),
        None,
    );
    builder.position_at_end(context.append_basic_block(function, "entry"));
    let a = function.get_nth_param(0).unwrap().into_pointer_value();
    let b = function.get_nth_param(1).unwrap().into_pointer_value();
    let out = function.get_nth_param(2).unwrap().into_pointer_value();
    let n = function.get_nth_param(3).unwrap();
    let iota = VectorType::const_vector(
        &(0..16)
            .map(|i| i32_ty.const_int(i, false))
            .collect::<Vec<_>>(),
    );
    let n_splat = splat(&builder, context, v16i32, n);
    let mask = builder
        .build_int_compare(IntPredicate::ULT, iota, n_splat, "mask")
        .unwrap();
    let masked_load = Intrinsic::find("llvm.masked.load")
        .unwrap()
        .get_declaration(&module, &[v16f32.into(), ptr_ty.into()])
        .unwrap();
    let masked_store = Intrinsic::find("llvm.masked.store")
        .unwrap()
        .get_declaration(&module, &[v16f32.into(), ptr_ty.into()])
        .unwrap();
    let align = i32_ty.const_int(4, false);
    let zeros = v16f32.const_zero();
    let load = |ptr, name| {
        let args: [BasicMetadataValueEnum; 4] = [ptr, align.into(), mask.into(), zeros.into()];
        builder
            .build_call(masked_load, &args, name)
            .unwrap()
            .try_as_basic_value()
            .basic()
            .unwrap()
            .into_vector_value()
    };
    let va = load(a.into(), "a");
    let vb = load(b.into(), "b");
    let product = builder.build_float_mul(va, vb, "product").unwrap();
    let ones = splat(&builder, context, v16f32, f32_ty.const_float(1.0).into());
    let sum = builder.build_float_add(product, ones, "sum").unwrap();
    builder
        .build_call(
            masked_store,
            &[sum.into(), out.into(), align.into(), mask.into()],
            "",
        )
        .unwrap();
    builder.build_return(None).unwrap();

    // call_runtime
    let record = module.add_function(
        "lockstep_test_record",
        i32_ty.fn_type(&[i32_ty.into()], false),
        None,
    );
    let function = module.add_function(
        "call_runtime",
        i32_ty.fn_type(&[i32_ty.into()], false),
        None,
    );
    builder.position_at_end(context.append_basic_block(function, "entry"));
    let x = function.get_nth_param(0).unwrap();
    let doubled = builder
        .build_call(record, &[x.into()], "doubled")
        .unwrap()
        .try_as_basic_value()
        .basic()
        .unwrap()
        .into_int_value();
    let result = builder
        .build_int_add(doubled, i32_ty.const_int(1, false), "result")
        .unwrap();
    builder.build_return(Some(&result)).unwrap();

    // call_sinf
    let sinf = module.add_function("sinf", f32_ty.fn_type(&[f32_ty.into()], false), None);
    let function = module.add_function("call_sinf", f32_ty.fn_type(&[f32_ty.into()], false), None);
    builder.position_at_end(context.append_basic_block(function, "entry"));
    let x = function.get_nth_param(0).unwrap();
    let y = builder
        .build_call(sinf, &[x.into()], "y")
        .unwrap()
        .try_as_basic_value()
        .basic()
        .unwrap();
    builder.build_return(Some(&y)).unwrap();

    // call_sleef
    if let Some((name, lanes)) = sleef {
        let vector = f32_ty.vec_type(lanes);
        let sleef = module.add_function(name, vector.fn_type(&[vector.into()], false), None);
        let function = module.add_function(
            "call_sleef",
            void_ty.fn_type(&[ptr_ty.into(), ptr_ty.into()], false),
            None,
        );
        builder.position_at_end(context.append_basic_block(function, "entry"));
        let input = function.get_nth_param(0).unwrap().into_pointer_value();
        let output = function.get_nth_param(1).unwrap().into_pointer_value();
        let x = builder.build_load(vector, input, "x").unwrap();
        x.as_instruction_value().unwrap().set_alignment(4).unwrap();
        let y = builder
            .build_call(sleef, &[x.into()], "y")
            .unwrap()
            .try_as_basic_value()
            .basic()
            .unwrap();
        builder
            .build_store(output, y)
            .unwrap()
            .set_alignment(4)
            .unwrap();
        builder.build_return(None).unwrap();
    }
    module
}

#[test]
fn host_target_is_described() {
    let host = host();
    assert!(host.triple().starts_with("x86_64"), "{}", host.triple());
    assert!(!host.cpu().is_empty());
    assert!(host.has_feature("sse2"), "{}", host.features());
    assert!(!host.has_feature("no-such-feature"));
    let expected = if host.has_feature("avx512f") {
        16
    } else if host.has_feature("avx2") {
        8
    } else {
        4
    };
    assert_eq!(host.preferred_width_32(), expected);
    let fingerprint = host.fingerprint();
    assert!(fingerprint.contains(host.cpu()) && fingerprint.contains(host.triple()));
    assert!(host.target_machine().is_ok());
}

#[test]
fn preferred_width_follows_features() {
    let t = "x86_64-pc-linux-gnu";
    assert_eq!(
        HostTarget::from_parts(t, "skylake-avx512", "+avx2,+avx512f").preferred_width_32(),
        16
    );
    assert_eq!(
        HostTarget::from_parts(t, "znver3", "+avx2,-avx512f").preferred_width_32(),
        8
    );
    assert_eq!(
        HostTarget::from_parts(t, "x86-64", "+sse2,-avx2").preferred_width_32(),
        4
    );
}

#[test]
fn a_named_cpu_gets_llvms_features_and_its_width() {
    // What LOCKSTEP_CPU=znver3 compiles for: AVX2 and FMA, no AVX-512, so
    // 8 lanes of 32 bits, whatever the host is.
    let zen3 = HostTarget::for_cpu("znver3").expect("LLVM knows znver3");
    assert_eq!(zen3.cpu(), "znver3");
    assert_eq!(zen3.triple(), host().triple());
    assert!(zen3.has_feature("avx2") && zen3.has_feature("fma"));
    assert!(!zen3.has_feature("avx512f"), "{}", zen3.features());
    assert!(zen3.features().contains("-avx512f"), "{}", zen3.features());
    assert_eq!(zen3.preferred_width_32(), 8);
    let zen4 = HostTarget::for_cpu("znver4").expect("LLVM knows znver4");
    assert_eq!(zen4.preferred_width_32(), 16);
    // The cache key differs with the CPU.
    assert_ne!(zen3.fingerprint(), zen4.fingerprint());
    // znver3's code runs on a znver4, not the other way round.
    assert!(zen3.missing_on(&zen4).is_empty());
    let missing = zen4.missing_on(&zen3);
    assert!(missing.iter().any(|f| f == "avx512f"), "{missing:?}");
    // Emission for it uses 256-bit registers only.
    let context = Context::create();
    let module = add16_module(&context);
    let asm = target::emit_assembly(&zen3, &module).expect("assembly");
    assert!(asm.contains("ymm") && !asm.contains("zmm"), "{asm}");
}

#[test]
fn an_unknown_cpu_is_an_error_naming_it() {
    let err = HostTarget::for_cpu("no-such-cpu").expect_err("no such CPU");
    match &err {
        BackendError::UnknownCpu { cpu, known, .. } => {
            assert_eq!(cpu, "no-such-cpu");
            assert!(known.split(' ').any(|k| k == "znver3"), "{known}");
        }
        other => panic!("{other:?}"),
    }
    let message = err.to_string();
    assert!(
        message.starts_with("LOCKSTEP_CPU=no-such-cpu: LLVM knows no CPU"),
        "{message}"
    );
}

#[test]
fn jit_runs_simd_runtime_libm_and_sleef() {
    let host = host();
    let jit = Jit::new(&[(
        "lockstep_test_record",
        lockstep_test_record as extern "C" fn(i32) -> i32 as usize,
    )])
    .expect("the JIT is created");
    let sleef = if jit.has_sleef() {
        sleef_sine(&host)
    } else {
        None
    };
    let context = Context::create();
    let module = build_module(&context, sleef);
    let object = target::optimize_and_emit_object(&host, &module).expect("object emitted");
    assert!(object.starts_with(b"\x7fELF"), "an ELF object");
    jit.add_object(&object).expect("object added");

    // Masked SIMD: lanes 13..16 are neither read nor written.
    let gang_fma: extern "C" fn(*const f32, *const f32, *mut f32, i32) =
        // SAFETY: `gang_fma` was defined with exactly this signature.
        unsafe { std::mem::transmute(jit.lookup("gang_fma").expect("gang_fma")) };
    let a: Vec<f32> = (0..16).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..16).map(|i| 0.5 * i as f32).collect();
    let mut out = vec![-7.0f32; 16];
    gang_fma(a.as_ptr(), b.as_ptr(), out.as_mut_ptr(), 13);
    for i in 0..16 {
        let expected = if i < 13 { a[i] * b[i] + 1.0 } else { -7.0 };
        assert_eq!(out[i], expected, "lane {i}");
    }

    // The absolute symbol is the Rust function above.
    let call_runtime: extern "C" fn(i32) -> i32 =
        // SAFETY: `call_runtime` was defined with exactly this signature.
        unsafe { std::mem::transmute(jit.lookup("call_runtime").expect("call_runtime")) };
    assert_eq!(call_runtime(21), 43);
    assert_eq!(RECORDED.load(Ordering::SeqCst), 21);

    // libm from the process.
    let call_sinf: extern "C" fn(f32) -> f32 =
        // SAFETY: `call_sinf` was defined with exactly this signature.
        unsafe { std::mem::transmute(jit.lookup("call_sinf").expect("call_sinf")) };
    assert!((call_sinf(0.5) - 0.5f32.sin()).abs() < 1e-6);

    // SLEEF's vector sine at the host's width.
    if let Some((name, lanes)) = sleef {
        eprintln!("calling {name} over {lanes} lanes");
        let call_sleef: extern "C" fn(*const f32, *mut f32) =
            // SAFETY: `call_sleef` was defined with exactly this signature.
            unsafe { std::mem::transmute(jit.lookup("call_sleef").expect("call_sleef")) };
        let input: Vec<f32> = (0..lanes).map(|i| 0.25 * i as f32 - 1.0).collect();
        let mut output = vec![0.0f32; lanes as usize];
        call_sleef(input.as_ptr(), output.as_mut_ptr());
        for (x, y) in input.iter().zip(&output) {
            assert!((y - x.sin()).abs() < 1e-6, "{name}({x}) = {y}");
        }
    } else {
        eprintln!("SLEEF not loaded or no AVX2: SLEEF call not tested");
    }
}

#[test]
fn sleef_is_loaded_when_installed() {
    let jit = Jit::new(&[]).unwrap();
    let installed = [
        "/usr/lib/x86_64-linux-gnu/libsleef.so.3",
        "/usr/lib/libsleef.so.3",
    ]
    .iter()
    .any(|p| std::path::Path::new(p).exists());
    if installed {
        assert!(jit.has_sleef());
    }
}

#[test]
fn jit_reports_errors_instead_of_panicking() {
    let jit = Jit::new(&[]).unwrap();
    // Not an object file.
    assert!(matches!(
        jit.add_object(b"definitely not ELF"),
        Err(BackendError::Jit(_))
    ));
    // A symbol nobody defines.
    let error = jit.lookup("no_such_kernel").unwrap_err();
    eprintln!("missing symbol: {error}");
    assert!(error.to_string().contains("no_such_kernel"), "{error}");

    // An object whose reference cannot be resolved: the name is reported.
    let host = host();
    let context = Context::create();
    let module = context.create_module("unresolved");
    let i32_ty = context.i32_type();
    let missing = module.add_function("lockstep_missing_helper", i32_ty.fn_type(&[], false), None);
    let function = module.add_function("uses_missing", i32_ty.fn_type(&[], false), None);
    let builder = context.create_builder();
    builder.position_at_end(context.append_basic_block(function, "entry"));
    let value = builder
        .build_call(missing, &[], "v")
        .unwrap()
        .try_as_basic_value()
        .basic()
        .unwrap();
    builder.build_return(Some(&value)).unwrap();
    let object = target::optimize_and_emit_object(&host, &module).unwrap();
    jit.add_object(&object).unwrap();
    let error = jit.lookup("uses_missing").unwrap_err();
    eprintln!("unresolved reference: {error}");
    assert!(
        error.to_string().contains("lockstep_missing_helper"),
        "{error}"
    );

    // Defining the same object twice is a duplicate definition.
    let module = context.create_module("twice");
    let function = module.add_function("defined_twice", i32_ty.fn_type(&[], false), None);
    builder.position_at_end(context.append_basic_block(function, "entry"));
    builder
        .build_return(Some(&i32_ty.const_int(5, false)))
        .unwrap();
    let object = target::optimize_and_emit_object(&host, &module).unwrap();
    jit.add_object(&object).unwrap();
    assert!(jit.add_object(&object).is_err());
    let five: extern "C" fn() -> i32 =
        // SAFETY: `defined_twice` was defined with exactly this signature.
        unsafe { std::mem::transmute(jit.lookup("defined_twice").unwrap()) };
    assert_eq!(five(), 5);
}

#[test]
fn invalid_module_is_an_error() {
    let host = host();
    let context = Context::create();
    let module = context.create_module("invalid");
    let i32_ty = context.i32_type();
    let function = module.add_function("no_terminator", i32_ty.fn_type(&[], false), None);
    context.append_basic_block(function, "entry");
    assert!(matches!(
        target::optimize_and_emit_object(&host, &module),
        Err(BackendError::InvalidModule(_))
    ));
}

#[test]
fn global_jit_is_shared_and_accepts_symbols() {
    let jit = Jit::global().expect("global JIT");
    assert!(std::ptr::eq(jit, Jit::global().unwrap()));
    jit.define_symbols(&[(
        "lockstep_test_global_record",
        lockstep_test_record as extern "C" fn(i32) -> i32 as usize,
    )])
    .unwrap();
    assert_eq!(
        jit.lookup("lockstep_test_global_record").unwrap(),
        lockstep_test_record as extern "C" fn(i32) -> i32 as usize
    );
    // Used from another thread.
    std::thread::scope(|s| {
        s.spawn(|| assert!(jit.lookup("lockstep_test_global_record").is_ok()));
    });
}

/// `out = a + b` over `<16 x float>`, through pointers.
fn add16_module(context: &Context) -> Module<'_> {
    let module = context.create_module("add16");
    let f32_ty = context.f32_type();
    let v16f32 = f32_ty.vec_type(16);
    let ptr_ty = context.ptr_type(AddressSpace::default());
    let function = module.add_function(
        "add16",
        context
            .void_type()
            .fn_type(&[ptr_ty.into(), ptr_ty.into(), ptr_ty.into()], false),
        None,
    );
    let builder = context.create_builder();
    builder.position_at_end(context.append_basic_block(function, "entry"));
    let [a, b, out] = [0, 1, 2].map(|i| function.get_nth_param(i).unwrap().into_pointer_value());
    let va = builder
        .build_load(v16f32, a, "a")
        .unwrap()
        .into_vector_value();
    let vb = builder
        .build_load(v16f32, b, "b")
        .unwrap()
        .into_vector_value();
    let sum = builder.build_float_add(va, vb, "sum").unwrap();
    builder.build_store(out, sum).unwrap();
    builder.build_return(None).unwrap();
    module
}

#[test]
fn assembly_uses_the_widest_registers() {
    let host = host();
    let context = Context::create();
    let module = add16_module(&context);
    let asm = target::emit_assembly(&host, &module).expect("assembly");
    assert!(asm.contains("add16"), "{asm}");
    if host.has_feature("avx512f") {
        assert!(asm.contains("zmm"), "{asm}");
    } else if host.has_feature("avx2") {
        assert!(asm.contains("ymm"), "{asm}");
    }

    let context = Context::create();
    let module = add16_module(&context);
    let ir = target::optimized_ir(&host, &module).expect("IR");
    assert!(ir.contains("fadd <16 x float>"), "{ir}");
    assert!(
        ir.contains(&format!("target triple = \"{}\"", host.triple())),
        "{ir}"
    );
}

#[test]
fn avx512_object_for_another_cpu() {
    // Emission for an AVX-512 CPU works on any x86-64 host (not executed).
    let skx = HostTarget::from_parts("x86_64-pc-linux-gnu", "skylake-avx512", "");
    let skx = HostTarget::from_parts(
        skx.triple(),
        skx.cpu(),
        "+avx512f,+avx512dq,+avx512bw,+avx512vl,+avx2,+avx,+fma",
    );
    assert_eq!(skx.preferred_width_32(), 16);
    let context = Context::create();
    let module = add16_module(&context);
    // Skylake-X prefers 256-bit vectors, and clang's attribute on the
    // function says it needs none; the back end must still use zmm.
    let function = module.get_function("add16").unwrap();
    function.add_attribute(
        AttributeLoc::Function,
        context.create_string_attribute("min-legal-vector-width", "0"),
    );
    let asm = target::emit_assembly(&skx, &module).expect("assembly");
    assert!(asm.contains("zmm"), "{asm}");
    assert!(!asm.contains("ymm"), "{asm}");
}

#[test]
fn cache_round_trips_and_rejects_damage() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ObjectCache::at(dir.path().join("lockstep")).expect("cache opens");
    let version = compiler_version();
    let key = ObjectCache::key(&[
        b"kernel void k() {}",
        b"-cl-std=CL1.2",
        version.as_bytes(),
        host().fingerprint().as_bytes(),
        b"k",
        b"16,1,1",
        b"16",
    ]);
    assert_eq!(key.len(), 64);
    assert_eq!(cache.get(&key), None);
    let bytes: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 251) as u8).collect();
    cache.put(&key, &bytes).unwrap();
    assert_eq!(cache.get(&key).as_deref(), Some(bytes.as_slice()));
    // Overwriting is fine.
    cache.put(&key, b"second").unwrap();
    assert_eq!(cache.get(&key).as_deref(), Some(b"second".as_slice()));
    cache.put(&key, &bytes).unwrap();

    // No temporary files are left behind.
    let files: Vec<_> = std::fs::read_dir(cache.dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let path = &files[0];

    // A flipped byte in the payload: a miss, and the file is removed.
    let mut damaged = std::fs::read(path).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x40;
    std::fs::write(path, &damaged).unwrap();
    assert_eq!(cache.get(&key), None);
    assert!(!path.exists());

    // A truncated file: a miss.
    cache.put(&key, &bytes).unwrap();
    let full = std::fs::read(path).unwrap();
    std::fs::write(path, &full[..full.len() / 2]).unwrap();
    assert_eq!(cache.get(&key), None);
    // A file shorter than the header: a miss.
    std::fs::write(path, b"LSO").unwrap();
    assert_eq!(cache.get(&key), None);

    // Keys that could escape the directory are refused.
    assert_eq!(cache.get("../escape"), None);
    assert!(cache.put("../escape", b"x").is_err());
}

#[test]
fn cache_keys_separate_parts() {
    assert_ne!(
        ObjectCache::key(&[b"ab", b"c"]),
        ObjectCache::key(&[b"a", b"bc"])
    );
    assert_ne!(ObjectCache::key(&[b"a"]), ObjectCache::key(&[b"a", b""]));
    assert_eq!(
        ObjectCache::key(&[b"x", b"y"]),
        ObjectCache::key(&[b"x", b"y"])
    );
}

#[test]
fn cache_concurrent_writers() {
    let dir = tempfile::tempdir().unwrap();
    let cache = ObjectCache::at(dir.path()).unwrap();
    let key = ObjectCache::key(&[b"concurrent"]);
    let payloads: Vec<Vec<u8>> = (0..4u8).map(|t| vec![t; 100_000]).collect();
    std::thread::scope(|s| {
        for payload in &payloads {
            let cache = &cache;
            let key = &key;
            let payloads = &payloads;
            s.spawn(move || {
                for _ in 0..20 {
                    cache.put(key, payload).unwrap();
                    if let Some(read) = cache.get(key) {
                        assert!(payloads.contains(&read), "a torn entry was read");
                    }
                }
            });
        }
    });
    assert!(payloads.contains(&cache.get(&key).unwrap()));
}

/// Runs the `cache_open_child` test in a child process with `env`, so that
/// environment changes never race with other test threads.
fn run_child(env: &[(&str, &std::path::Path)], expect: &str) {
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "cache_open_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env_remove("XDG_CACHE_HOME")
        .env_remove("HOME")
        .env_remove("LOCKSTEP_CACHE")
        .envs(env.iter().map(|(k, v)| (k, v.as_os_str())))
        .env("LOCKSTEP_TEST_CHILD_EXPECT", expect)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "child with {env:?} expecting {expect}:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn cache_open_uses_xdg_then_home_and_can_be_disabled() {
    let dir = tempfile::tempdir().unwrap();
    let xdg = dir.path().join("xdg");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    run_child(
        &[("XDG_CACHE_HOME", &xdg), ("HOME", &home)],
        &xdg.join("lockstep").display().to_string(),
    );
    run_child(
        &[("HOME", &home)],
        &home.join(".cache/lockstep").display().to_string(),
    );
    run_child(
        &[
            ("XDG_CACHE_HOME", &xdg),
            ("HOME", &home),
            ("LOCKSTEP_CACHE", std::path::Path::new("0")),
        ],
        "none",
    );
    run_child(&[], "none");
}

/// The child half of the test above; does nothing when run normally.
#[test]
fn cache_open_child() {
    let Ok(expect) = std::env::var("LOCKSTEP_TEST_CHILD_EXPECT") else {
        return;
    };
    match ObjectCache::open() {
        Some(cache) => assert_eq!(cache.dir().display().to_string(), expect),
        None => assert_eq!(expect, "none"),
    }
}
