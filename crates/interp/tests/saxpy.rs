//! saxpy: the elementwise baseline, small and at 2^20 work-items.

mod common;
use common::*;
use lockstep_interp::{KernelArg, NdRange};

const SAXPY: &str = r#"
kernel @saxpy(f32, ptr.global, ptr.global) {
    arg 0 "a" "float" none none
    arg 1 "x" "float*" none const
    arg 2 "y" "float*" none none
block0(v0: f32, v1: ptr.global, v2: ptr.global):
    v3: i64 = global_id 0
    v4: i64 = iconst 4
    v5: i64 = imul v3, v4
    v6: ptr.global = ptradd v1, v5
    v7: f32 = load v6, align 4 !3:12
    v8: ptr.global = ptradd v2, v5
    v9: f32 = load v8, align 4
    v10: f32 = fma v0, v7, v9
    store v10, v8, align 4
    return
}
"#;

fn saxpy(n: usize, local: u64, checked: bool) -> std::time::Duration {
    let m = module(SAXPY);
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let y0: Vec<f32> = (0..n).map(|i| (n - i) as f32).collect();
    let mut xb = f32s(&x);
    let mut yb = f32s(&y0);
    let start = std::time::Instant::now();
    let report = run(
        &m,
        "saxpy",
        &mut [
            scalar_f32(3.0),
            KernelArg::Buffer(&mut xb),
            KernelArg::Buffer(&mut yb),
        ],
        &NdRange::new_1d(n as u64, local),
        checked,
    )
    .unwrap();
    let elapsed = start.elapsed();
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let y = to_f32s(&yb);
    for i in 0..n {
        assert_eq!(y[i], 3.0f32.mul_add(x[i], y0[i]), "y[{i}]");
    }
    assert_eq!(to_f32s(&xb), x, "x is unchanged");
    elapsed
}

#[test]
fn saxpy_small() {
    saxpy(1000, 64, false);
    saxpy(1000, 64, true);
    saxpy(37, 5, false);
}

#[test]
fn saxpy_2_pow_20() {
    let t = saxpy(1 << 20, 256, false);
    println!("saxpy over 2^20 work-items: {:.3} s", t.as_secs_f64());
}

#[test]
fn saxpy_2_pow_16_checked() {
    let t = saxpy(1 << 16, 256, true);
    println!(
        "checked saxpy over 2^16 work-items: {:.3} s",
        t.as_secs_f64()
    );
}
