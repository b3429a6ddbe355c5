//! Images and samplers on both engines: a Gaussian blur and a bilinear
//! resize (the corpus image kernels, `tests/kernels/images/`), every
//! addressing mode and filter against a reference sampler written from the
//! OpenCL 1.2 specification (section 8.2), every supported format written
//! and read back, arrays and 3D images, and the `get_image_*` queries. The
//! SIMD engine runs at several widths; every result is compared with a
//! value computed here, not with the interpreter alone.

use lockstep_runtime::image::{channel, order};
use lockstep_runtime::{
    AddressingMode, Buffer, Context, Engine, FilterMode, Image, ImageDesc, ImageFormat, ImageType,
    NDRange, Program, Sampler,
};

/// The contexts every test runs on: the interpreter, and the SIMD engine at
/// widths 4, 8 and 16.
fn contexts() -> Vec<(String, Context)> {
    let mut out = vec![(
        "interpreter".to_string(),
        lockstep_llvm::context().with_engine(Engine::Interpreter),
    )];
    for w in [4, 8, 16] {
        let mut ctx = lockstep_llvm::context().with_engine(Engine::Simd);
        ctx.set_width(w);
        out.push((format!("simd width {w}"), ctx));
    }
    out
}

fn corpus(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/kernels/images")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Deterministic pseudo-random bytes.
fn noise(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2654435761).wrapping_add(12345);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 8) as u8
        })
        .collect()
}

fn rgba8(desc: ImageDesc) -> Image {
    Image::new(ImageFormat::new(order::RGBA, channel::UNORM_INT8), desc).unwrap()
}

#[test]
fn gaussian_blur_matches_reference() {
    let (w, h) = (37usize, 29usize);
    let src = noise(w * h * 4, 7);
    // The kernel's weights: a normalized 5x5 binomial.
    let k1 = [1.0f32, 4.0, 6.0, 4.0, 1.0];
    let mut expected = vec![0u8; w * h * 4];
    for y in 0..h as i64 {
        for x in 0..w as i64 {
            for c in 0..4 {
                let mut sum = 0.0f32;
                for dy in -2i64..=2 {
                    for dx in -2i64..=2 {
                        let sx = (x + dx).clamp(0, w as i64 - 1) as usize;
                        let sy = (y + dy).clamp(0, h as i64 - 1) as usize;
                        let v = src[(sy * w + sx) * 4 + c] as f32 / 255.0;
                        sum += k1[(dx + 2) as usize] * k1[(dy + 2) as usize] / 256.0 * v;
                    }
                }
                expected[(y as usize * w + x as usize) * 4 + c] =
                    (sum * 255.0).clamp(0.0, 255.0).round_ties_even() as u8;
            }
        }
    }
    for (name, ctx) in contexts() {
        let program = Program::build(&ctx, &corpus("gaussian_blur.cl"), "").unwrap();
        let input = rgba8(ImageDesc::new_2d(w, h));
        input.write(&src);
        let output = rgba8(ImageDesc::new_2d(w, h));
        let mut k = program.kernel("gaussian_blur").unwrap();
        k.set_arg(0, &input).unwrap();
        k.set_arg(1, &output).unwrap();
        ctx.launch(&k, &NDRange::new_2d(w as u64, h as u64))
            .unwrap();
        let got = output.read();
        for (i, (&g, &e)) in got.iter().zip(&expected).enumerate() {
            // The kernel sums in another order: at most one step apart.
            assert!(
                (g as i32 - e as i32).abs() <= 1,
                "{name}: texel {} channel {}: {g} != {e}",
                i / 4,
                i % 4
            );
        }
    }
}

#[test]
fn bilinear_resize_matches_reference() {
    let (w, h) = (23usize, 17usize);
    let (ow, oh) = (41usize, 30usize);
    let src: Vec<f32> = noise(w * h, 3).iter().map(|&b| b as f32 / 7.0).collect();
    let mut expected = vec![0f32; ow * oh];
    for oy in 0..oh {
        for ox in 0..ow {
            let u = (ox as f32 + 0.5) / ow as f32;
            let v = (oy as f32 + 0.5) / oh as f32;
            expected[oy * ow + ox] = reference_sample(
                &|x, y, _| [src[y * w + x], 0.0, 0.0, 1.0],
                [w, h, 1],
                2,
                [u, v, 0.0],
                Sampler {
                    normalized: true,
                    addressing: AddressingMode::ClampToEdge,
                    filter: FilterMode::Linear,
                },
                false,
            )[0];
        }
    }
    for (name, ctx) in contexts() {
        let program = Program::build(&ctx, &corpus("bilinear_resize.cl"), "").unwrap();
        let input = Image::new(
            ImageFormat::new(order::R, channel::FLOAT),
            ImageDesc::new_2d(w, h),
        )
        .unwrap();
        input.write(bytemuck_f32(&src));
        let out = Buffer::<f32>::zeroed(ow * oh);
        let mut k = program.kernel("bilinear_resize").unwrap();
        k.set_arg(0, &input).unwrap();
        k.set_arg(1, &out).unwrap();
        ctx.launch(&k, &NDRange::new_2d(ow as u64, oh as u64))
            .unwrap();
        for (i, (g, e)) in out.read().iter().zip(&expected).enumerate() {
            assert!(
                (g - e).abs() <= 1e-4 * e.abs().max(1.0),
                "{name}: output {i}: {g} != {e}"
            );
        }
    }
}

fn bytemuck_f32(v: &[f32]) -> &[u8] {
    // SAFETY: f32 is plain bytes.
    unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, std::mem::size_of_val(v)) }
}

/// The OpenCL 1.2 sampler (section 8.2) over texels `texel(x, y, z)` of an
/// image of `extent`, filtering `dims` dimensions; `alpha` if the order has
/// alpha (border colour).
fn reference_sample(
    texel: &dyn Fn(usize, usize, usize) -> [f32; 4],
    extent: [usize; 3],
    dims: usize,
    coord: [f32; 3],
    s: Sampler,
    alpha: bool,
) -> [f32; 4] {
    let border = [0.0, 0.0, 0.0, if alpha { 0.0 } else { 1.0 }];
    // Per dimension: the candidate indices with weights (None = border).
    let axis = |d: usize| -> Vec<(Option<usize>, f32)> {
        let n = extent[d] as i64;
        let c = coord[d];
        let fit = |i: i64| -> Option<usize> {
            match s.addressing {
                AddressingMode::Clamp if i < 0 || i >= n => None,
                _ => Some(i.clamp(0, n - 1) as usize),
            }
        };
        match (s.filter, s.addressing, s.normalized) {
            (FilterMode::Nearest, AddressingMode::Repeat, true) => {
                let u = (c - c.floor()) * n as f32;
                let mut i = u.floor() as i64;
                if i > n - 1 {
                    i -= n;
                }
                vec![(Some(i as usize), 1.0)]
            }
            (FilterMode::Nearest, AddressingMode::MirroredRepeat, true) => {
                let sp = (c - 2.0 * (0.5 * c).round_ties_even()).abs();
                let i = ((sp * n as f32).floor() as i64).min(n - 1);
                vec![(Some(i as usize), 1.0)]
            }
            (FilterMode::Nearest, _, norm) => {
                let u = if norm { c * n as f32 } else { c };
                vec![(fit(u.floor() as i64), 1.0)]
            }
            (FilterMode::Linear, AddressingMode::Repeat, true) => {
                let u = (c - c.floor()) * n as f32;
                let mut i0 = (u - 0.5).floor() as i64;
                let mut i1 = i0 + 1;
                let a = (u - 0.5) - (u - 0.5).floor();
                if i0 < 0 {
                    i0 += n;
                }
                if i1 > n - 1 {
                    i1 -= n;
                }
                vec![(Some(i0 as usize), 1.0 - a), (Some(i1 as usize), a)]
            }
            (FilterMode::Linear, AddressingMode::MirroredRepeat, true) => {
                let sp = (c - 2.0 * (0.5 * c).round_ties_even()).abs();
                let u = sp * n as f32;
                let i0 = (u - 0.5).floor() as i64;
                let a = (u - 0.5) - (u - 0.5).floor();
                vec![
                    (Some(i0.max(0) as usize), 1.0 - a),
                    (Some((i0 + 1).min(n - 1) as usize), a),
                ]
            }
            (FilterMode::Linear, _, norm) => {
                let u = if norm { c * n as f32 } else { c };
                let i0 = (u - 0.5).floor() as i64;
                let a = (u - 0.5) - (u - 0.5).floor();
                vec![(fit(i0), 1.0 - a), (fit(i0 + 1), a)]
            }
        }
    };
    let xs = axis(0);
    let ys = if dims >= 2 {
        axis(1)
    } else {
        vec![(Some(0), 1.0)]
    };
    let zs = if dims >= 3 {
        axis(2)
    } else {
        vec![(Some(0), 1.0)]
    };
    let mut out = [0.0f32; 4];
    for &(z, wz) in &zs {
        for &(y, wy) in &ys {
            for &(x, wx) in &xs {
                let t = match (x, y, z) {
                    (Some(x), Some(y), Some(z)) => texel(x, y, z),
                    _ => border,
                };
                for c in 0..4 {
                    out[c] += wx * wy * wz * t[c];
                }
            }
        }
    }
    out
}

const MODES: [AddressingMode; 5] = [
    AddressingMode::None,
    AddressingMode::ClampToEdge,
    AddressingMode::Clamp,
    AddressingMode::Repeat,
    AddressingMode::MirroredRepeat,
];

/// Coordinates inside, on the edges of and outside the image, for a
/// dimension of `n` texels (normalized or not).
fn coords(n: usize, normalized: bool, count: usize, seed: u32) -> Vec<f32> {
    noise(count, seed)
        .iter()
        .map(|&b| {
            let t = b as f32 / 255.0 * 1.6 - 0.3; // [-0.3, 1.3]
            if normalized {
                t
            } else {
                t * n as f32
            }
        })
        .collect()
}

const SAMPLE_SRC: &str = r#"
kernel void sample1(read_only image1d_t img, sampler_t s, global const float *c, global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, c[3 * i]);
}
kernel void sample2(read_only image2d_t img, sampler_t s, global const float *c, global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, (float2)(c[3 * i], c[3 * i + 1]));
}
kernel void sample3(read_only image3d_t img, sampler_t s, global const float *c, global float4 *out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, (float4)(c[3 * i], c[3 * i + 1], c[3 * i + 2], 0.0f));
}
"#;

#[test]
fn every_sampler_matches_reference() {
    let extent = [7usize, 5, 3];
    let n_texels = extent.iter().product::<usize>();
    let texels: Vec<f32> = noise(n_texels * 4, 11).iter().map(|&b| b as f32).collect();
    let texel = |x: usize, y: usize, z: usize| -> [f32; 4] {
        let i = ((z * extent[1] + y) * extent[0] + x) * 4;
        [texels[i], texels[i + 1], texels[i + 2], texels[i + 3]]
    };
    let n = 96;
    for (name, ctx) in contexts() {
        let program = Program::build(&ctx, SAMPLE_SRC, "").unwrap();
        for dims in 1..=3usize {
            let (ty, ext) = match dims {
                1 => (ImageType::Image1D, [extent[0], 1, 1]),
                2 => (ImageType::Image2D, [extent[0], extent[1], 1]),
                _ => (ImageType::Image3D, extent),
            };
            let desc = ImageDesc {
                ty,
                width: ext[0],
                height: ext[1],
                depth: ext[2],
                array_size: 1,
            };
            let image = Image::new(ImageFormat::new(order::RGBA, channel::FLOAT), desc).unwrap();
            let data: Vec<f32> = (0..ext[2])
                .flat_map(|z| (0..ext[1]).flat_map(move |y| (0..ext[0]).map(move |x| (x, y, z))))
                .flat_map(|(x, y, z)| texel(x, y, z))
                .collect();
            image.write(bytemuck_f32(&data));
            for normalized in [false, true] {
                for mode in MODES {
                    if !normalized
                        && matches!(
                            mode,
                            AddressingMode::Repeat | AddressingMode::MirroredRepeat
                        )
                    {
                        continue;
                    }
                    for filter in [FilterMode::Nearest, FilterMode::Linear] {
                        let s = Sampler {
                            normalized,
                            addressing: mode,
                            filter,
                        };
                        let c: Vec<f32> = (0..n)
                            .flat_map(|i| (0..3).map(move |d| (i, d)).collect::<Vec<_>>())
                            .map(|(i, d)| coords(ext[d], normalized, 1, (i * 3 + d) as u32 + 1)[0])
                            .collect();
                        let cbuf = Buffer::from_slice(&c);
                        let out = Buffer::<[f32; 4]>::zeroed(n);
                        let mut k = program.kernel(&format!("sample{dims}")).unwrap();
                        k.set_arg(0, &image).unwrap();
                        k.set_arg(1, s).unwrap();
                        k.set_arg(2, &cbuf).unwrap();
                        k.set_arg(3, &out).unwrap();
                        ctx.launch(&k, &NDRange::new_1d(n as u64)).unwrap();
                        let got = out.read();
                        for i in 0..n {
                            let co = [c[3 * i], c[3 * i + 1], c[3 * i + 2]];
                            // CLK_ADDRESS_NONE outside the image is undefined.
                            if mode == AddressingMode::None
                                && (0..dims).any(|d| {
                                    let u = if normalized {
                                        co[d] * ext[d] as f32
                                    } else {
                                        co[d]
                                    };
                                    u < 0.5 || u > ext[d] as f32 - 0.5
                                })
                            {
                                continue;
                            }
                            let e = reference_sample(
                                &|x, y, z| {
                                    let i = ((z * ext[1] + y) * ext[0] + x) * 4;
                                    [data[i], data[i + 1], data[i + 2], data[i + 3]]
                                },
                                ext,
                                dims,
                                co,
                                s,
                                true,
                            );
                            for ch in 0..4 {
                                assert!(
                                    (got[i][ch] - e[ch]).abs() <= 1e-3 * e[ch].abs().max(1.0),
                                    "{name}: {dims}D {s:?} at {co:?}: channel {ch}: {} != {}",
                                    got[i][ch],
                                    e[ch]
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Formats, with the (r, g, b, a) a stored texel reads as.
fn decode(format: ImageFormat, bytes: &[u8]) -> [f64; 4] {
    let cs = format.channel_size().unwrap();
    let n = format.channels().unwrap();
    let ch: Vec<f64> = (0..n)
        .map(|i| {
            let b = &bytes[i * cs..(i + 1) * cs];
            match format.data_type {
                channel::UNORM_INT8 => b[0] as f64 / 255.0,
                channel::UNORM_INT16 => u16::from_le_bytes([b[0], b[1]]) as f64 / 65535.0,
                channel::SNORM_INT8 => (b[0] as i8 as f64 / 127.0).max(-1.0),
                channel::SNORM_INT16 => {
                    (i16::from_le_bytes([b[0], b[1]]) as f64 / 32767.0).max(-1.0)
                }
                channel::SIGNED_INT8 => b[0] as i8 as f64,
                channel::SIGNED_INT16 => i16::from_le_bytes([b[0], b[1]]) as f64,
                channel::SIGNED_INT32 => i32::from_le_bytes(b.try_into().unwrap()) as f64,
                channel::UNSIGNED_INT8 => b[0] as f64,
                channel::UNSIGNED_INT16 => u16::from_le_bytes([b[0], b[1]]) as f64,
                channel::UNSIGNED_INT32 => u32::from_le_bytes(b.try_into().unwrap()) as f64,
                channel::HALF_FLOAT => half_to_f64(u16::from_le_bytes([b[0], b[1]])),
                _ => f32::from_le_bytes(b.try_into().unwrap()) as f64,
            }
        })
        .collect();
    let one = 1.0;
    match format.order {
        order::R => [ch[0], 0.0, 0.0, one],
        order::A => [0.0, 0.0, 0.0, ch[0]],
        order::RG => [ch[0], ch[1], 0.0, one],
        order::RA => [ch[0], 0.0, 0.0, ch[1]],
        order::BGRA => [ch[2], ch[1], ch[0], ch[3]],
        order::ARGB => [ch[1], ch[2], ch[3], ch[0]],
        order::ABGR => [ch[3], ch[2], ch[1], ch[0]],
        order::INTENSITY => [ch[0]; 4],
        order::LUMINANCE => [ch[0], ch[0], ch[0], one],
        _ => [ch[0], ch[1], ch[2], ch[3]],
    }
}

fn half_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let e = ((h >> 10) & 0x1f) as i32;
    let m = (h & 0x3ff) as f64;
    sign * match e {
        0 => m * 2f64.powi(-24),
        0x1f => {
            if m == 0.0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
        _ => (1.0 + m / 1024.0) * 2f64.powi(e - 15),
    }
}

const FORMAT_SRC: &str = r#"
kernel void readf(read_only image2d_t img, global float4 *out) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    out[p.y * get_image_width(img) + p.x] = read_imagef(img, p);
}
kernel void readi(read_only image2d_t img, global int4 *out) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    out[p.y * get_image_width(img) + p.x] = read_imagei(img, p);
}
kernel void readui(read_only image2d_t img, global uint4 *out) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    out[p.y * get_image_width(img) + p.x] = read_imageui(img, p);
}
kernel void copyf(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, read_imagef(src, p));
}
kernel void copyi(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagei(dst, p, read_imagei(src, p));
}
kernel void copyui(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(dst, p, read_imageui(src, p));
}
kernel void info(read_only image2d_t img, global int *out) {
    out[0] = get_image_width(img);
    out[1] = get_image_height(img);
    out[2] = get_image_channel_order(img);
    out[3] = get_image_channel_data_type(img);
    int2 d = get_image_dim(img);
    out[4] = d.x;
    out[5] = d.y;
}
"#;

#[test]
fn every_format_reads_and_round_trips() {
    let (w, h) = (5usize, 3usize);
    for (name, ctx) in contexts() {
        let program = Program::build(&ctx, FORMAT_SRC, "").unwrap();
        for (fi, format) in lockstep_runtime::image::supported_formats()
            .into_iter()
            .enumerate()
        {
            let es = format.element_size().unwrap();
            let mut bytes = noise(w * h * es, 100 + fi as u32);
            if format.data_type == channel::HALF_FLOAT {
                // Finite halves only (NaN payloads need not survive).
                for c in bytes.chunks_mut(2) {
                    c[1] &= 0x3b;
                }
            }
            if format.data_type == channel::FLOAT {
                for c in bytes.chunks_mut(4) {
                    c[3] &= 0x3f;
                }
            }
            let desc = ImageDesc::new_2d(w, h);
            let src = Image::new(format, desc).unwrap();
            src.write(&bytes);
            let range = NDRange::new_2d(w as u64, h as u64);
            let kind = format.texel_kind();
            let (read, copy) = match kind {
                lockstep_runtime::image::TexelKind::Float => ("readf", "copyf"),
                lockstep_runtime::image::TexelKind::Signed => ("readi", "copyi"),
                lockstep_runtime::image::TexelKind::Unsigned => ("readui", "copyui"),
            };
            let out = Buffer::<[u32; 4]>::zeroed(w * h);
            let mut k = program.kernel(read).unwrap();
            k.set_arg(0, &src).unwrap();
            k.set_arg(1, &out).unwrap();
            ctx.launch(&k, &range).unwrap();
            for (i, got) in out.read().iter().enumerate() {
                let e = decode(format, &bytes[i * es..(i + 1) * es]);
                for c in 0..4 {
                    let g = match kind {
                        lockstep_runtime::image::TexelKind::Float => f32::from_bits(got[c]) as f64,
                        lockstep_runtime::image::TexelKind::Signed => got[c] as i32 as f64,
                        lockstep_runtime::image::TexelKind::Unsigned => got[c] as f64,
                    };
                    assert!(
                        (g - e[c]).abs() <= 1e-6 * e[c].abs().max(1.0),
                        "{name}: {format:?} texel {i} channel {c}: read {g}, stored {e:?}"
                    );
                }
            }
            // A kernel copy writes back the same bytes (reads are exact and
            // writes round to the nearest representable value). SNORM's -128
            // reads as -1.0 and writes back as -127.
            let dst = Image::new(format, desc).unwrap();
            let mut k = program.kernel(copy).unwrap();
            k.set_arg(0, &src).unwrap();
            k.set_arg(1, &dst).unwrap();
            ctx.launch(&k, &range).unwrap();
            let mut want = bytes.clone();
            if format.data_type == channel::SNORM_INT8 {
                want.iter_mut()
                    .filter(|b| **b == 0x80)
                    .for_each(|b| *b = 0x81);
            }
            if format.data_type == channel::SNORM_INT16 {
                for c in want.chunks_mut(2) {
                    if c == [0x00, 0x80] {
                        c[0] = 1;
                    }
                }
            }
            assert_eq!(dst.read(), want, "{name}: {format:?} copy");
            let info = Buffer::<i32>::zeroed(6);
            let mut k = program.kernel("info").unwrap();
            k.set_arg(0, &src).unwrap();
            k.set_arg(1, &info).unwrap();
            ctx.launch(&k, &NDRange::new_1d(1)).unwrap();
            assert_eq!(
                info.read(),
                vec![
                    w as i32,
                    h as i32,
                    format.order as i32,
                    format.data_type as i32,
                    w as i32,
                    h as i32
                ],
                "{name}: {format:?} queries"
            );
        }
    }
}

const ARRAY_SRC: &str = r#"
__constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void layers1(read_only image1d_array_t img, global uint4 *out) {
    int x = get_global_id(0), l = get_global_id(1);
    // Layer from a float coordinate: rint, clamped.
    out[l * get_image_width(img) + x] = read_imageui(img, nearest, (float2)(x + 0.5f, l + 0.2f));
}
kernel void layers2(read_only image2d_array_t img, write_only image2d_array_t copy, global int *sizes) {
    int x = get_global_id(0), y = get_global_id(1), l = get_global_id(2);
    write_imageui(copy, (int4)(x, y, l, 0), read_imageui(img, nearest, (int4)(x, y, l, 0)) + 1);
    if (x == 0 && y == 0 && l == 0) {
        sizes[0] = get_image_array_size(img);
        sizes[1] = get_image_height(img);
    }
}
kernel void volume(read_only image3d_t img, write_only image3d_t copy, global int *sizes) {
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imageui(copy, p, read_imageui(img, p) * 2);
    if (p.x == 0 && p.y == 0 && p.z == 0) {
        int4 d = get_image_dim(img);
        sizes[0] = d.x; sizes[1] = d.y; sizes[2] = d.z; sizes[3] = get_image_depth(img);
    }
}
kernel void buffer1d(read_only image1d_buffer_t img, write_only image1d_t out) {
    int x = get_global_id(0);
    write_imageui(out, x, read_imageui(img, x) + (uint4)(x));
}
"#;

#[test]
fn arrays_3d_and_1d_images() {
    let fmt = ImageFormat::new(order::R, channel::UNSIGNED_INT16);
    let (w, h, layers, d) = (6usize, 4usize, 3usize, 5usize);
    for (name, ctx) in contexts() {
        let program = Program::build(&ctx, ARRAY_SRC, "").unwrap();
        // 1D array.
        let desc = ImageDesc {
            ty: ImageType::Image1DArray,
            width: w,
            height: 1,
            depth: 1,
            array_size: layers,
        };
        let img = Image::new(fmt, desc).unwrap();
        let vals: Vec<u16> = (0..(w * layers) as u16).map(|i| i * 3 + 1).collect();
        img.write(
            &vals
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect::<Vec<_>>(),
        );
        let out = Buffer::<[u32; 4]>::zeroed(w * layers);
        let mut k = program.kernel("layers1").unwrap();
        k.set_arg(0, &img).unwrap();
        k.set_arg(1, &out).unwrap();
        ctx.launch(&k, &NDRange::new_2d(w as u64, layers as u64))
            .unwrap();
        let got: Vec<u32> = out.read().iter().map(|t| t[0]).collect();
        assert_eq!(
            got,
            vals.iter().map(|&v| v as u32).collect::<Vec<_>>(),
            "{name}: 1D array"
        );
        // 2D array.
        let desc = ImageDesc {
            ty: ImageType::Image2DArray,
            width: w,
            height: h,
            depth: 1,
            array_size: layers,
        };
        let (img, copy) = (
            Image::new(fmt, desc).unwrap(),
            Image::new(fmt, desc).unwrap(),
        );
        let vals: Vec<u16> = (0..(w * h * layers) as u16).map(|i| i * 7).collect();
        img.write(
            &vals
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect::<Vec<_>>(),
        );
        let sizes = Buffer::<i32>::zeroed(4);
        let mut k = program.kernel("layers2").unwrap();
        k.set_arg(0, &img).unwrap();
        k.set_arg(1, &copy).unwrap();
        k.set_arg(2, &sizes).unwrap();
        ctx.launch(&k, &NDRange::new_3d(w as u64, h as u64, layers as u64))
            .unwrap();
        let want: Vec<u8> = vals.iter().flat_map(|v| (v + 1).to_le_bytes()).collect();
        assert_eq!(copy.read(), want, "{name}: 2D array");
        assert_eq!(
            sizes.read()[..2],
            [layers as i32, h as i32],
            "{name}: 2D array sizes"
        );
        // 3D.
        let desc = ImageDesc {
            ty: ImageType::Image3D,
            width: w,
            height: h,
            depth: d,
            array_size: 1,
        };
        let (img, copy) = (
            Image::new(fmt, desc).unwrap(),
            Image::new(fmt, desc).unwrap(),
        );
        let vals: Vec<u16> = (0..(w * h * d) as u16).map(|i| i * 5 + 2).collect();
        img.write(
            &vals
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect::<Vec<_>>(),
        );
        let mut k = program.kernel("volume").unwrap();
        k.set_arg(0, &img).unwrap();
        k.set_arg(1, &copy).unwrap();
        k.set_arg(2, &sizes).unwrap();
        ctx.launch(&k, &NDRange::new_3d(w as u64, h as u64, d as u64))
            .unwrap();
        let want: Vec<u8> = vals.iter().flat_map(|v| (v * 2).to_le_bytes()).collect();
        assert_eq!(copy.read(), want, "{name}: 3D");
        assert_eq!(
            sizes.read(),
            vec![w as i32, h as i32, d as i32, d as i32],
            "{name}: 3D sizes"
        );
        // 1D buffer image into a 1D image.
        let one = |ty| ImageDesc {
            ty,
            width: w,
            height: 1,
            depth: 1,
            array_size: 1,
        };
        let img = Image::new(fmt, one(ImageType::Image1DBuffer)).unwrap();
        let out = Image::new(fmt, one(ImageType::Image1D)).unwrap();
        let vals: Vec<u16> = (0..w as u16).map(|i| 100 + i).collect();
        img.write(
            &vals
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect::<Vec<_>>(),
        );
        let mut k = program.kernel("buffer1d").unwrap();
        k.set_arg(0, &img).unwrap();
        k.set_arg(1, &out).unwrap();
        ctx.launch(&k, &NDRange::new_1d(w as u64)).unwrap();
        let want: Vec<u8> = (0..w as u16)
            .flat_map(|i| (100 + 2 * i).to_le_bytes())
            .collect();
        assert_eq!(out.read(), want, "{name}: 1D buffer");
    }
}

#[test]
fn an_image_argument_takes_only_an_image_of_its_type() {
    let ctx = lockstep_llvm::context();
    let program = Program::build(&ctx, FORMAT_SRC, "").unwrap();
    let mut k = program.kernel("readf").unwrap();
    let buffer = Buffer::<u8>::zeroed(4096);
    assert!(k.set_arg(0, &buffer).is_err());
    let wrong = Image::new(
        ImageFormat::new(order::RGBA, channel::FLOAT),
        ImageDesc {
            ty: ImageType::Image3D,
            width: 2,
            height: 2,
            depth: 2,
            array_size: 1,
        },
    )
    .unwrap();
    assert!(k.set_arg(0, &wrong).is_err());
    let mut s = Program::build(&ctx, SAMPLE_SRC, "")
        .unwrap()
        .kernel("sample2")
        .unwrap();
    assert!(
        s.set_arg(1, 20u32).is_err(),
        "a sampler argument takes a Sampler"
    );
    assert!(Image::new(
        ImageFormat::new(order::RGB, channel::UNORM_INT8),
        ImageDesc::new_2d(2, 2)
    )
    .is_err());
    assert!(Image::new(
        ImageFormat::new(order::RGBA, channel::FLOAT),
        ImageDesc::new_2d(0, 2)
    )
    .is_err());
}

/// A kernel that doubles a 2D image in place (read_write) and copies it to
/// a 1D image, both views of buffers.
const VIEWS_SRC: &str = r#"
kernel void views(read_write image2d_t img, write_only image1d_buffer_t flat, global uint *seen) {
    int x = get_global_id(0), y = get_global_id(1), w = get_image_width(img);
    uint4 v = read_imageui(img, (int2)(x, y));
    seen[y * w + x] = v.x;
    write_imageui(img, (int2)(x, y), v * 2);
    write_imageui(flat, y * w + x, v + 1);
}
"#;

#[test]
fn images_in_a_buffer_share_its_memory() {
    let (w, h, pitch) = (5usize, 3usize, 8usize);
    let r32 = ImageFormat::new(order::R, channel::UNSIGNED_INT32);
    let mut contexts = contexts();
    let mut checked = lockstep_llvm::context().with_engine(Engine::Simd);
    checked.set_checked(true);
    contexts.push(("checked simd".to_string(), checked));
    for (name, ctx) in contexts {
        // A 2D image of 5x3 texels, rows 8 texels (32 bytes) apart, and a
        // 1D buffer image of 15 texels, in two buffers.
        let texels: Vec<u32> = (0..(pitch * h) as u32).collect();
        let buffer = Buffer::from_slice(&texels);
        let img =
            Image::in_storage(r32, ImageDesc::new_2d(w, h), buffer.storage(), pitch * 4).unwrap();
        assert!(!img.is_self_contained());
        assert_eq!((img.row_pitch(), img.size()), (32, 96));
        let flat_buffer = Buffer::<u32>::zeroed(w * h + 1);
        let flat_desc = ImageDesc {
            ty: ImageType::Image1DBuffer,
            width: w * h,
            height: 1,
            depth: 1,
            array_size: 1,
        };
        let flat = Image::in_storage(r32, flat_desc, flat_buffer.storage(), 0).unwrap();
        let seen = Buffer::<u32>::zeroed(w * h);
        let program = Program::build(&ctx, VIEWS_SRC, "-cl-std=CL2.0").unwrap();
        let mut k = program.kernel("views").unwrap();
        k.set_arg(0, &img).unwrap();
        k.set_arg(1, &flat).unwrap();
        k.set_arg(2, &seen).unwrap();
        let report = ctx
            .launch(&k, &NDRange::new_2d(w as u64, h as u64))
            .unwrap();
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:?}",
            report.diagnostics
        );
        // The kernel read the buffer's texels, wrote the image's into the
        // buffer (the padding untouched), and the 1D image's into the other.
        let at = |x: usize, y: usize| (y * pitch + x) as u32;
        let want_seen: Vec<u32> = (0..h).flat_map(|y| (0..w).map(move |x| at(x, y))).collect();
        assert_eq!(seen.read(), want_seen, "{name}: texels read");
        let mut want = texels.clone();
        for y in 0..h {
            for x in 0..w {
                want[y * pitch + x] *= 2;
            }
        }
        assert_eq!(
            buffer.read(),
            want,
            "{name}: the buffer shows the image's writes"
        );
        let mut want_flat: Vec<u32> = want_seen.iter().map(|v| v + 1).collect();
        want_flat.push(0);
        assert_eq!(flat_buffer.read(), want_flat, "{name}: 1D buffer image");
        // The host's writes to the buffer are the image's texels.
        buffer.write(&vec![7; pitch * h]);
        assert_eq!(
            img.read(),
            vec![7, 0, 0, 0].repeat(w * h),
            "{name}: image after buffer write"
        );
        img.write(&vec![9; 4 * w * h]);
        assert_eq!(buffer.read()[pitch..pitch + w], [0x0909_0909; 5], "{name}");
        assert_eq!(buffer.read()[w], 7, "{name}: padding");
    }
    // Texels past the buffer's end, or a pitch below a row, are refused.
    let small = Buffer::<u32>::zeroed(10);
    assert!(Image::in_storage(r32, ImageDesc::new_2d(5, 3), small.storage(), 0).is_err());
    assert!(Image::in_storage(r32, ImageDesc::new_2d(5, 2), small.storage(), 16).is_err());
    assert!(Image::in_storage(r32, ImageDesc::new_2d(5, 2), small.storage(), 22).is_err());
    assert!(Image::in_storage(r32, ImageDesc::new_2d(5, 2), small.storage(), 0).is_ok());
}
