//! Compiles the native C versions of the kernels (`native/*.c`) with
//! `-O3 -march=native -fopenmp -fno-math-errno` and links libgomp
//! (`-fno-math-errno` lets sqrtf vectorize; results are unchanged).

fn main() {
    println!("cargo:rerun-if-changed=native");
    let mut build = cc::Build::new();
    for entry in std::fs::read_dir("native").expect("bench/native exists") {
        let path = entry.expect("readable bench/native").path();
        if path.extension().is_some_and(|e| e == "c") {
            println!("cargo:rerun-if-changed={}", path.display());
            build.file(&path);
        }
    }
    build
        .opt_level(3)
        .flag("-march=native")
        .flag("-fopenmp")
        .flag("-fno-math-errno")
        .flag("-std=gnu11")
        .warnings(true)
        .extra_warnings(true)
        .compile("lockstep_bench_native");
    println!("cargo:rustc-link-lib=gomp");
    // SLEEF's vector math for the hand-vectorized blackscholes (libsleef-dev,
    // which Lockstep itself needs).
    println!("cargo:rustc-link-lib=sleef");
    println!("cargo:rustc-link-lib=m");
}
