//! A program built twice comes from the disk cache the second time, with the
//! same kernels and IR, and runs the same. (Its own test binary: it points
//! the cache at a temporary directory.)

use lockstep_runtime::{Buffer, NDRange, Program};

const SOURCE: &str =
    "kernel void twice(global int *p, int k) { size_t i = get_global_id(0); p[i] = 2 * p[i] + k; }";

#[test]
fn second_build_is_read_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    std::env::set_var("XDG_CACHE_HOME", dir.path());
    std::env::remove_var("LOCKSTEP_CACHE");
    let ctx = lockstep_llvm::context();
    let first = Program::build(&ctx, SOURCE, "-DUNUSED=1").expect("builds");
    let cached: Vec<_> = std::fs::read_dir(dir.path().join("lockstep"))
        .expect("cache directory")
        .collect();
    assert!(!cached.is_empty(), "the first build stored its IR");
    let second = Program::build(&ctx, SOURCE, "-DUNUSED=1").expect("builds from the cache");
    assert_eq!(
        lockstep_ir::module_to_string(first.module()),
        lockstep_ir::module_to_string(second.module())
    );
    for program in [first, second] {
        let buf = Buffer::from_slice(&[1i32, 2, 3, 4]);
        let mut k = program.kernel("twice").unwrap();
        k.set_arg(0, &buf).unwrap();
        k.set_arg(1, 5i32).unwrap();
        ctx.launch(&k, &NDRange::new_1d(4)).unwrap();
        assert_eq!(buf.read(), vec![7, 9, 11, 13]);
    }
}
