// build: -cl-std=CL2.0
// Image kernels for crates/llvm/tests/spirv.rs (see kernels.cl): reads with
// a sampler literal, a sampler argument and none, writes, a read-write
// image, 1D, 1D buffer, array and 3D images, and the queries.
// The translator hands images and samplers back as pointers; the front end
// gives them clang's types again.

__constant sampler_t nearest_clamp =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// (A macro: llvm-spirv-15 fails on clang 15's helper functions taking an
// image at -O0.)
#define NEIGHBOURS(src, p) \
  (read_imagef(src, nearest_clamp, p + (int2)(-1, 0)) + read_imagef(src, nearest_clamp, p + (int2)(1, 0)))

__kernel void filter2d(read_only image2d_t src, write_only image2d_t dst, sampler_t s,
                       read_only image1d_buffer_t lut, read_write image2d_t acc) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 sum = NEIGHBOURS(src, p) +
               read_imagef(src, s, (float2)((p.x + 0.75f) / get_image_width(src), (p.y + 0.25f) / get_image_height(src)));
  sum += read_imagef(lut, p.x % get_image_width(lut)) * (float)get_image_dim(src).y;
  write_imagef(dst, p, sum / 3.0f);
  float4 old = read_imagef(acc, p);
  write_imagef(acc, p, old * 2.0f + (float4)(get_image_channel_order(src) & 0xff, get_image_channel_data_type(src) & 0xff, 0, 0));
}

__kernel void layered(read_only image2d_array_t layers, read_only image3d_t volume,
                      read_only image1d_t line, write_only image3d_t out3,
                      read_only image1d_array_t rows, sampler_t s, __global float4 *out) {
  int x = get_global_id(0), y = get_global_id(1);
  int i = y * get_global_size(0) + x;
  float4 a = read_imagef(layers, s, (float4)(x + 0.5f, y + 0.5f, 1.0f, 0.0f));
  uint4 v = read_imageui(volume, (int4)(x, y, 2, 0));
  float4 d = read_imagef(line, nearest_clamp, x + y);
  int4 r = read_imagei(rows, (int2)(x, y % (int)get_image_array_size(rows)));
  out[i] = a + convert_float4(v) * 0.25f + d + convert_float4(r) +
           (float4)(get_image_array_size(layers), get_image_depth(volume), get_image_width(line), 0);
  write_imagef(out3, (int4)(x, y, 1, 0), a * 0.5f);
}
