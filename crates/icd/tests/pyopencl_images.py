"""Images and samplers through PyOpenCL on the Lockstep platform, checked
against NumPy: device limits, supported formats, image and sampler info,
host <-> image <-> buffer copies, fills, maps, a Gaussian blur with a
sampler literal, a bilinear resize with a sampler argument, 3D images and
2D arrays, and the API's errors."""

import sys

import numpy as np
import pyopencl as cl

platform = next(p for p in cl.get_platforms() if p.name == "Lockstep")
device = platform.get_devices()[0]
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
mf = cl.mem_flags
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


# Device limits.
check(device.image_support, "image support")
check(device.image2d_max_width >= 8192 and device.image2d_max_height >= 8192, "2D limits")
check(device.image3d_max_width >= 2048 and device.image3d_max_depth >= 2048, "3D limits")
check(device.max_read_image_args >= 128 and device.max_write_image_args >= 8, "image args")
check(device.max_samplers >= 16, "samplers")
check(device.image_max_buffer_size >= 65536 and device.image_max_array_size >= 2048, "1D/array limits")

# Formats: the OpenCL 1.2 minimum list.
formats = cl.get_supported_image_formats(ctx, mf.READ_WRITE, cl.mem_object_type.IMAGE2D)
have = {(f.channel_order, f.channel_data_type) for f in formats}
co, ct = cl.channel_order, cl.channel_type
for t in [ct.UNORM_INT8, ct.UNORM_INT16, ct.SIGNED_INT8, ct.SIGNED_INT16, ct.SIGNED_INT32,
          ct.UNSIGNED_INT8, ct.UNSIGNED_INT16, ct.UNSIGNED_INT32, ct.HALF_FLOAT, ct.FLOAT]:
    check((co.RGBA, t) in have, f"RGBA {t}")
check((co.BGRA, ct.UNORM_INT8) in have, "BGRA UNORM_INT8")

# Image info and host round trip with pitches.
h, w = 19, 33
a = np.random.default_rng(1).random((h, w, 4), dtype=np.float32)
fmt = cl.ImageFormat(co.RGBA, ct.FLOAT)
img = cl.create_image(ctx, mf.READ_WRITE, fmt, (w, h))
check(img.get_image_info(cl.image_info.WIDTH) == w, "width")
check(img.get_image_info(cl.image_info.HEIGHT) == h, "height")
check(img.get_image_info(cl.image_info.ELEMENT_SIZE) == 16, "element size")
check(img.get_image_info(cl.image_info.ROW_PITCH) == w * 16, "row pitch")
check(img.type == cl.mem_object_type.IMAGE2D, "mem type")
cl.enqueue_copy(queue, img, a, origin=(0, 0), region=(w, h))
back = np.empty_like(a)
cl.enqueue_copy(queue, back, img, origin=(0, 0), region=(w, h))
check(np.array_equal(a, back), "host round trip")
part = np.empty((5, 7, 4), np.float32)
cl.enqueue_copy(queue, part, img, origin=(3, 2), region=(7, 5))
check(np.array_equal(part, a[2:7, 3:10]), "region read")

# Image -> buffer -> image, image -> image.
buf = cl.Buffer(ctx, mf.READ_WRITE, a.nbytes)
cl.enqueue_copy(queue, buf, img, offset=0, origin=(0, 0), region=(w, h))
flat = np.empty_like(a)
cl.enqueue_copy(queue, flat, buf)
check(np.array_equal(flat, a), "image to buffer")
img2 = cl.create_image(ctx, mf.READ_WRITE, fmt, (w, h))
cl.enqueue_copy(queue, img2, buf, offset=0, origin=(0, 0), region=(w, h))
img3 = cl.create_image(ctx, mf.READ_WRITE, fmt, (w, h))
cl.enqueue_copy(queue, img3, img2, src_origin=(0, 0), dest_origin=(0, 0), region=(w, h))
cl.enqueue_copy(queue, back, img3, origin=(0, 0), region=(w, h))
check(np.array_equal(back, a), "buffer to image, image to image")

# Fill and map.
cl.enqueue_fill_image(queue, img3, np.array([1, 2, 3, 4], np.float32), origin=(2, 3), region=(4, 5))
expect = a.copy()
expect[3:8, 2:6] = [1, 2, 3, 4]
mapped = cl.enqueue_map_image(queue, img3, cl.map_flags.READ, (0, 0), (w, h), (h, w, 4), np.float32)[0]
check(np.array_equal(np.array(mapped), expect), "fill, map")
del mapped

# Gaussian blur of a UNORM_INT8 image (sampler literal), against NumPy.
src = np.random.default_rng(2).integers(0, 256, (h, w, 4), dtype=np.uint8)
prg = cl.Program(ctx, """
__constant sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void blur(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 s = (float4)(0.0f);
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            s += read_imagef(src, edge, p + (int2)(dx, dy)) * ((2 - abs(dx)) * (2 - abs(dy)) / 16.0f);
    write_imagef(dst, p, s);
}
kernel void resize(read_only image2d_t src, sampler_t s, global float *dst) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_global_size(0), h = get_global_size(1);
    dst[y * w + x] = read_imagef(src, s, (float2)((x + 0.5f) / w, (y + 0.5f) / h)).x;
}
kernel void plane(read_only image3d_t src, write_only image2d_array_t dst, int z) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagei(dst, (int4)(x, y, 1, 0), read_imagei(src, (int4)(x, y, z, 0)) * 3);
}
""").build()
fmt8 = cl.ImageFormat(co.RGBA, ct.UNORM_INT8)
src_img = cl.create_image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt8, (w, h), hostbuf=src)
dst_img = cl.create_image(ctx, mf.WRITE_ONLY, fmt8, (w, h))
prg.blur(queue, (w, h), None, src_img, dst_img)
got = np.empty_like(src)
cl.enqueue_copy(queue, got, dst_img, origin=(0, 0), region=(w, h))
pad = np.pad(src.astype(np.float64) / 255, ((1, 1), (1, 1), (0, 0)), mode="edge")
ref = np.zeros((h, w, 4))
for dy in (-1, 0, 1):
    for dx in (-1, 0, 1):
        ref += pad[1 + dy:1 + dy + h, 1 + dx:1 + dx + w] * ((2 - abs(dx)) * (2 - abs(dy)) / 16)
ref = np.clip(np.rint(ref * 255), 0, 255)
check(np.abs(got.astype(int) - ref).max() <= 1, "blur")

# Bilinear resize with a sampler argument, against NumPy.
small = np.random.default_rng(3).random((9, 13), dtype=np.float32)
simg = cl.image_from_array(ctx, small, 1)
sampler = cl.Sampler(ctx, True, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.LINEAR)
check(sampler.normalized_coords and sampler.filter_mode == cl.filter_mode.LINEAR, "sampler info")
ow, oh = 30, 20
out = cl.Buffer(ctx, mf.WRITE_ONLY, ow * oh * 4)
prg.resize(queue, (ow, oh), None, simg, sampler, out)
res = np.empty((oh, ow), np.float32)
cl.enqueue_copy(queue, res, out)
u = np.clip((np.arange(ow) + 0.5) / ow * 13 - 0.5, 0, None)
v = np.clip((np.arange(oh) + 0.5) / oh * 9 - 0.5, 0, None)
x0 = np.floor(u).astype(int)
y0 = np.floor(v).astype(int)
ax, ay = u - x0, v - y0
x1, y1 = np.minimum(x0 + 1, 12), np.minimum(y0 + 1, 8)
x0, y0 = np.minimum(x0, 12), np.minimum(y0, 8)
ref = ((1 - ay)[:, None] * ((1 - ax) * small[y0][:, x0] + ax * small[y0][:, x1])
       + ay[:, None] * ((1 - ax) * small[y1][:, x0] + ax * small[y1][:, x1]))
check(np.allclose(res, ref, atol=1e-5), "bilinear resize")

# 3D image plane into layer 1 of a 2D array.
vol = np.random.default_rng(4).integers(-1000, 1000, (4, 6, 8), dtype=np.int32)
vimg = cl.create_image(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, cl.ImageFormat(co.R, ct.SIGNED_INT32),
                       (8, 6, 4), hostbuf=vol)
arr = cl.create_image(ctx, mf.READ_WRITE, cl.ImageFormat(co.R, ct.SIGNED_INT32), (8, 6, 3),
                      is_array=True)
prg.plane(queue, (8, 6), None, vimg, arr, np.int32(2))
layer = np.empty((6, 8), np.int32)
cl.enqueue_copy(queue, layer, arr, origin=(0, 0, 1), region=(8, 6, 1))
check(np.array_equal(layer, vol[2] * 3), "3D to 2D array")

# Errors.
try:
    cl.create_image(ctx, mf.READ_WRITE, cl.ImageFormat(co.RGB, ct.FLOAT), (4, 4))
    check(False, "RGB FLOAT rejected")
except cl.Error as e:
    check(e.code == cl.status_code.INVALID_IMAGE_FORMAT_DESCRIPTOR, f"RGB FLOAT: {e}")
try:
    cl.create_image(ctx, mf.READ_WRITE, fmt, (1 << 20, 4))
    check(False, "huge image rejected")
except cl.Error as e:
    check(e.code == cl.status_code.INVALID_IMAGE_SIZE, f"huge image: {e}")
try:
    cl.enqueue_copy(queue, back, img, origin=(30, 0), region=(10, h))
    check(False, "out of bounds read rejected")
except cl.Error as e:
    check(e.code == cl.status_code.INVALID_VALUE, f"out of bounds read: {e}")

queue.finish()
if failures:
    print("FAILED:", failures)
    sys.exit(1)
print("ALL OK")
