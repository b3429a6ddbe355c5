//! Separate compilation (clCompileProgram + clLinkProgram): objects that
//! call each other and the builtin library link into the program one
//! source would give.

use lockstep_frontend::{compile, compile_object, link, BuildOptions, Source};

const USER: &str = "float scale(float x);\n\
    kernel void k(global float *x)\n\
    { size_t i = get_global_id(0); x[i] = scale(sqrt(x[i])); }\n";
const HELPER: &str =
    "float scale(float x) { return exp(x) + convert_float(convert_int_sat_rte(x)); }\n";

#[test]
fn linked_objects_using_builtins_build_like_one_source() {
    let options = BuildOptions::default();
    let object = |name: &str, text: &str| {
        compile_object(&Source::from_string(name, text), &options)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .llvm_ir
    };
    let user = object("user.cl", USER);
    let helper = object("helper.cl", HELPER);
    let linked = link(&[&user, &helper], &options, "program.cl").expect("links");
    // The helper's definition in place of its prototype: the same lines.
    let (_, after_prototype) = USER.split_once('\n').unwrap();
    let one = compile(
        &Source::from_string("program.cl", format!("{HELPER}{after_prototype}")),
        &options,
    )
    .expect("builds");
    let kernels =
        |m: &lockstep_ir::Module| m.kernels().map(|(_, f)| f.name.clone()).collect::<Vec<_>>();
    assert_eq!(kernels(&linked.module), ["k"]);
    assert_eq!(kernels(&one.module), ["k"]);
    let text = lockstep_ir::module_to_string(&linked.module);
    assert!(!text.contains("call"), "everything is inlined:\n{text}");
    assert_eq!(text, lockstep_ir::module_to_string(&one.module));
}
