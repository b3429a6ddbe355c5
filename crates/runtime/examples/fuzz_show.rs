//! Prints the kernel the fuzzer generates for a seed: `cargo run -p lockstep-runtime --example fuzz_show -- 7`.
fn main() {
    let seed = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let k = lockstep_runtime::fuzz::generate(seed);
    println!("// global {} local {}\n{}", k.global, k.local, k.source);
}
