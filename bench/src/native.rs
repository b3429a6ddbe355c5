//! The native C versions (`native/native.c`), built by `build.rs`.

use std::ffi::{c_char, c_long};

extern "C" {
    pub fn bench_native_isa() -> *const c_char;
    pub fn nat_saxpy(a: f32, x: *const f32, y: *const f32, z: *mut f32, n: c_long);
    pub fn nat_saxpy_simd(a: f32, x: *const f32, y: *const f32, z: *mut f32, n: c_long);
    pub fn nat_collatz(start: *const u32, steps: *mut u32, n: u32);
    pub fn nat_mandelbrot(out: *mut u32, x0: f32, y0: f32, step: f32, w: u32, h: u32, iters: u32);
    pub fn nat_mandelbrot_simd(
        out: *mut u32,
        x0: f32,
        y0: f32,
        step: f32,
        w: u32,
        h: u32,
        iters: u32,
    );
    pub fn nat_nbody(
        pos: *const f32,
        vel: *const f32,
        new_pos: *mut f32,
        new_vel: *mut f32,
        n: u32,
        dt: f32,
        eps2: f32,
    );
    pub fn nat_nbody_simd(
        pos: *const f32,
        vel: *const f32,
        new_pos: *mut f32,
        new_vel: *mut f32,
        n: u32,
        dt: f32,
        eps2: f32,
    );
    pub fn nat_matmul(a: *const f32, b: *const f32, c: *mut f32, n: u32);
    pub fn nat_reduce(input: *const f32, n: u32, out: *mut f32);
    pub fn nat_scan(input: *const u32, out: *mut u32, n: u32);
    pub fn nat_blackscholes(
        spot: *const f32,
        strike: *const f32,
        years: *const f32,
        call: *mut f32,
        put: *mut f32,
        n: u32,
        rate: f32,
        vol: f32,
    );
    pub fn nat_blackscholes_simd(
        spot: *const f32,
        strike: *const f32,
        years: *const f32,
        call: *mut f32,
        put: *mut f32,
        n: u32,
        rate: f32,
        vol: f32,
    );
    pub fn nat_sobel(img: *const f32, out: *mut f32, w: u32, h: u32);
    pub fn nat_histogram(words: *const u32, nwords: u32, hist: *mut u32);
    pub fn nat_bitonic(data: *mut u32, n: u32);
    pub fn nat_ao(spheres: *const f32, ns: u32, samples: u32, w: u32, h: u32, out: *mut f32);
    pub fn nat_parser(text: *const u8, rec_len: u32, nrec: u32, sums: *mut i32, counts: *mut u32);
    pub fn nat_spmv(
        rowptr: *const u32,
        col: *const u32,
        val: *const f32,
        x: *const f32,
        y: *mut f32,
        rows: u32,
    );
    pub fn nat_vm(
        code: *const u32,
        len: u32,
        input: *const u32,
        output: *mut u32,
        n: u32,
        steps: u32,
    );
    pub fn nat_conv5x5(input: *const f32, out: *mut f32, filt: *const f32, w: i32, h: i32);
    pub fn nat_blur_image(input: *const f32, out: *mut f32, w: i32, h: i32);
    pub fn nat_transpose(input: *const f32, out: *mut f32, w: u32, h: u32);
    pub fn nat_stream(a: *const f32, b: *const f32, c: *mut f32, s: f32, n: i32);
    pub fn nat_smooth(input: *const f32, out: *mut f32, n: u32, group: u32, iters: u32);
    pub fn nat_parser_resume(
        text: *const u8,
        rec_len: u32,
        nrec: u32,
        sums: *mut i32,
        counts: *mut u32,
    );
}

/// Which hand-vectorized instruction set the native build used.
pub fn isa() -> String {
    // SAFETY: returns a static NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(bench_native_isa()) }
        .to_string_lossy()
        .into_owned()
}
