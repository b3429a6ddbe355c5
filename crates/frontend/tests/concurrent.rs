//! Builds on several threads at once (what an OpenCL application's
//! threads do through the ICD) give what the same builds give one by one.

use lockstep_frontend::{compile, BuildOptions, Source};

const KERNELS: &[(&str, &str)] = &[
    (
        "add.cl",
        "kernel void add(global const float *a, global const float *b, global float *c)\n\
         { size_t i = get_global_id(0); c[i] = a[i] + b[i]; }\n",
    ),
    (
        "math.cl",
        "kernel void m(global float *x)\n\
         { size_t i = get_global_id(0); x[i] = sqrt(x[i]) + sin(x[i]) * exp(x[i]); }\n",
    ),
    (
        "convert.cl",
        "kernel void c(global const float *x, global short *y, global uchar4 *z)\n\
         { size_t i = get_global_id(0); y[i] = convert_short_sat_rte(x[i]);\n\
           z[i] = convert_uchar4_sat(vload4(i, x)); }\n",
    ),
    (
        "atomics.cl",
        "kernel void a(global int *n, global const int *x)\n\
         { atomic_add(n, x[get_global_id(0)]); atomic_max(n + 1, popcount(x[0])); }\n",
    ),
];

fn build(name: &str, text: &str) -> String {
    let compiled = compile(&Source::from_string(name, text), &BuildOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    lockstep_ir::module_to_string(&compiled.module)
}

#[test]
fn concurrent_builds_match_sequential_ones() {
    let expected: Vec<String> = KERNELS.iter().map(|(n, t)| build(n, t)).collect();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let (name, text) = KERNELS[i % KERNELS.len()];
                scope.spawn(move || (i % KERNELS.len(), build(name, text)))
            })
            .collect();
        for handle in handles {
            let (k, got) = handle.join().expect("no panic");
            assert_eq!(got, expected[k], "{}", KERNELS[k].0);
        }
    });
}
