//! A user's mistakes and unsupported constructs are typed errors with a
//! source location, never panics.

use lockstep_frontend::{compile, BuildOptions, CompileError, Severity, Source};

fn build(src: &str) -> Result<lockstep_frontend::Compiled, CompileError> {
    compile(
        &Source::from_string("bad.cl", src),
        &BuildOptions::default(),
    )
}

#[test]
fn syntax_error_has_location_and_clang_message() {
    let err = build("kernel void k(global int *p) {\n  p[0] = 1\n}\n")
        .err()
        .expect("must fail");
    let CompileError::Clang { log, diagnostics } = err else {
        panic!("expected a clang error, got {err:?}")
    };
    let d = diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .expect("an error diagnostic");
    assert_eq!((d.file.as_str(), d.line), ("bad.cl", 2));
    assert!(d.message.contains("expected ';'"), "{}", d.message);
    assert!(log.contains("bad.cl:2:"), "build log: {log}");
}

#[test]
fn unknown_identifier_is_reported() {
    let err = build("kernel void k(global int *p) {\n  p[0] = undefined_thing;\n}\n")
        .err()
        .expect("must fail");
    let CompileError::Clang { diagnostics, .. } = err else {
        panic!("expected a clang error")
    };
    let d = &diagnostics[0];
    assert_eq!((d.line, d.col), (2, 10));
    assert!(
        d.message
            .contains("undeclared identifier 'undefined_thing'"),
        "{}",
        d.message
    );
}

#[test]
fn unsupported_construct_names_it_and_its_line() {
    // Recursion is not valid OpenCL C, but clang accepts it; Lockstep must refuse clearly.
    // (Double recursion: LLVM cannot turn it into a loop.)
    let src = "int f(int n) { return n <= 1 ? 1 : f(n - 1) + f(n - 2); }\n\
               kernel void k(global int *p) {\n  p[0] = f(p[1]);\n}\n";
    let err = build(src).err().expect("must fail");
    let CompileError::Unsupported {
        construct,
        location,
        ..
    } = &err
    else {
        panic!("expected unsupported, got {err:?}")
    };
    assert!(construct.contains("recursion"), "{construct}");
    let loc = location.as_ref().expect("a source location");
    assert_eq!(loc.file, "bad.cl");
    assert!(err.to_string().starts_with("bad.cl:"), "{err}");
}

#[test]
fn unknown_build_option_is_a_typed_error() {
    let err = BuildOptions::parse("-cl-std=CL2.0 -fno-such-thing")
        .err()
        .expect("must fail");
    assert!(
        matches!(err, CompileError::BadOption(ref m) if m.contains("-fno-such-thing")),
        "{err}"
    );
}

#[test]
fn warnings_reach_the_build_log() {
    let compiled =
        build("kernel void k(global int *p) { int unused; p[0] = 1; }\n").expect("compiles");
    let _ = compiled.log;
    assert!(compiled.module.kernels().count() == 1);
}
