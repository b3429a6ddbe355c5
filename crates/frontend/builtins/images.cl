// images.cl - OpenCL C image functions (section 6.13.14): read_image{f,i,ui}
// with and without samplers, write_image{f,i,ui}, get_image_*, for 1D, 1D
// buffer, 1D array, 2D, 2D array and 3D images.
//
// An image, as the importer hands it to this library, is a __global pointer
// to the image's descriptor (__lockstep_image, an identity the importer
// resolves): 64 bytes the runtime writes (lockstep-runtime's `image` module,
// which must agree with the LS_D_* indices below). Its last word is the
// byte offset from the descriptor to the texels: right after it (64) for an
// image of its own, the buffer's memory for an image created from a buffer.
// Rows are `row_pitch` bytes apart, slices (or the layers of an array)
// `slice_pitch` bytes apart. A sampler is its CLK_* bitfield
// (__lockstep_sampler; a `__constant sampler_t` literal arrives as the same
// 32-bit value).
//
// Everything here is plain arithmetic over the descriptor: once inlined the
// descriptor is uniform (a kernel argument), so the switches on the format,
// the addressing mode and the filter are uniform branches (folded away for a
// sampler literal), and the coordinate math, the texel address and the load
// are per-lane code: the SIMD engine runs a read as vector arithmetic and a
// gather.
//
// Conversions follow OpenCL 1.2 section 8.3: normalized integers read as
// x / (2^n - 1) (signed: max(x / (2^(n-1) - 1), -1)), writes round to
// nearest even and saturate; half texels round to nearest even. Sampling
// follows section 8.2: nearest picks floor(u), linear blends the texels at
// floor(u - 0.5) and the next one with weights frac(u - 0.5); CLAMP returns
// the border colour (0,0,0,0), or (0,0,0,1) for orders without alpha, for
// texels outside; REPEAT and MIRRORED_REPEAT apply to normalized
// coordinates; an array's layer is clamp(rint(c), 0, layers - 1).
// Coordinates outside the image with CLK_ADDRESS_NONE, or given to a
// sampler-less read, are clamped to the edge (undefined by the spec; clamped
// here so that no access leaves the image), and writes outside it do
// nothing.

#include "lockstep_internal.h"

#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable

// Descriptor words (int32), see the runtime's image module.
#define LS_D_WIDTH 0
#define LS_D_HEIGHT 1
#define LS_D_DEPTH 2
#define LS_D_ARRAY_SIZE 3
#define LS_D_ROW_PITCH 4
#define LS_D_SLICE_PITCH 5
#define LS_D_ORDER 6      // CL channel order (get_image_channel_order)
#define LS_D_TYPE 7       // CL channel data type (get_image_channel_data_type)
#define LS_D_ELEM_SIZE 8  // bytes per texel
#define LS_D_COMP_SIZE 9  // bytes per channel
#define LS_D_KIND 10      // LS_K_*: how a channel converts
#define LS_D_SWIZZLE 11   // LS_S_*: where the stored channels go in (r,g,b,a)
#define LS_D_ALPHA 12     // 1 if the order has alpha (border colour alpha 0)
#define LS_D_TEXELS 7     // long: byte offset from the descriptor to texel 0

#define LS_K_UNORM8 0
#define LS_K_UNORM16 1
#define LS_K_SNORM8 2
#define LS_K_SNORM16 3
#define LS_K_SINT8 4
#define LS_K_SINT16 5
#define LS_K_SINT32 6
#define LS_K_UINT8 7
#define LS_K_UINT16 8
#define LS_K_UINT32 9
#define LS_K_HALF 10
#define LS_K_FLOAT 11

#define LS_S_R 0          // (c0, 0, 0, 1)
#define LS_S_A 1          // (0, 0, 0, c0)
#define LS_S_RG 2         // (c0, c1, 0, 1)
#define LS_S_RA 3         // (c0, 0, 0, c1)
#define LS_S_RGBA 4       // (c0, c1, c2, c3)
#define LS_S_BGRA 5       // (c2, c1, c0, c3)
#define LS_S_ARGB 6       // (c1, c2, c3, c0)
#define LS_S_INTENSITY 7  // (c0, c0, c0, c0)
#define LS_S_LUMINANCE 8  // (c0, c0, c0, 1)
#define LS_S_ABGR 9       // (c3, c2, c1, c0)

typedef const __global uchar *ls_img;

LS_HELPER int ls_word(ls_img img, int i) { return ((const __global int *)img)[i]; }

// The descriptor's offset to the texels (an address in the same object as
// the descriptor for an image of its own, in a buffer for one made from a
// buffer).
LS_HELPER long ls_texels(ls_img img) { return ((const __global long *)img)[LS_D_TEXELS]; }

// ---------------------------------------------------------------------------
// Texels: address, raw channels, conversion, swizzle
// ---------------------------------------------------------------------------

// The texel at (x, y, z): z is the slice of a 3D image or the layer of a 2D
// array, y the layer of a 1D array (whose row pitch is its layer pitch).
LS_HELPER ls_img ls_texel(ls_img img, int x, int y, int z) {
  return img + ls_texels(img) + (size_t)x * (size_t)(uint)ls_word(img, LS_D_ELEM_SIZE) +
         (size_t)y * (size_t)(uint)ls_word(img, LS_D_ROW_PITCH) +
         (size_t)z * (size_t)(uint)ls_word(img, LS_D_SLICE_PITCH);
}

// The stored channels of a texel, each zero-extended (at most 4).
LS_HELPER uint4 ls_load_raw(ls_img img, ls_img p) {
  int es = ls_word(img, LS_D_ELEM_SIZE);
  int cs = ls_word(img, LS_D_COMP_SIZE);
  uint4 w = (uint4)(0);
  if (es == 16) {
    w = *(const __global uint4 *)p;
  } else if (es == 8) {
    w.xy = *(const __global uint2 *)p;
  } else if (es == 4) {
    w.x = *(const __global uint *)p;
  } else if (es == 2) {
    w.x = *(const __global ushort *)p;
  } else {
    w.x = *p;
  }
  if (cs == 4) return w;
  if (cs == 2) return (uint4)(w.x & 0xffff, w.x >> 16, w.y & 0xffff, w.y >> 16);
  return (uint4)(w.x & 0xff, (w.x >> 8) & 0xff, (w.x >> 16) & 0xff, w.x >> 24);
}

// Stores the channels `c` (already converted, zero-extended bits).
LS_HELPER void ls_store_raw(ls_img img, __global uchar *p, uint4 c) {
  int es = ls_word(img, LS_D_ELEM_SIZE);
  int cs = ls_word(img, LS_D_COMP_SIZE);
  uint4 w = c;
  if (cs == 2) {
    w = (uint4)((c.x & 0xffff) | (c.y << 16), (c.z & 0xffff) | (c.w << 16), 0, 0);
  } else if (cs == 1) {
    w = (uint4)((c.x & 0xff) | ((c.y & 0xff) << 8) | ((c.z & 0xff) << 16) | (c.w << 24), 0, 0, 0);
  }
  if (es == 16) {
    *(__global uint4 *)p = w;
  } else if (es == 8) {
    *(__global uint2 *)p = w.xy;
  } else if (es == 4) {
    *(__global uint *)p = w.x;
  } else if (es == 2) {
    *(__global ushort *)p = (ushort)w.x;
  } else {
    *p = (uchar)w.x;
  }
}

LS_HELPER float ls_half_bits_to_float(uint h) { return (float)as_half((ushort)h); }

LS_HELPER float4 ls_channels_to_float(uint4 c, int kind) {
  switch (kind) {
  case LS_K_UNORM8: return convert_float4(c) / 255.0f;
  case LS_K_UNORM16: return convert_float4(c) / 65535.0f;
  case LS_K_SNORM8: return fmax(convert_float4(convert_char4(c)) / 127.0f, -1.0f);
  case LS_K_SNORM16: return fmax(convert_float4(convert_short4(c)) / 32767.0f, -1.0f);
  case LS_K_HALF:
    return (float4)(ls_half_bits_to_float(c.x), ls_half_bits_to_float(c.y), ls_half_bits_to_float(c.z),
                    ls_half_bits_to_float(c.w));
  case LS_K_FLOAT: return as_float4(c);
  // Integer formats through read_imagef: undefined; their values.
  case LS_K_SINT8: return convert_float4(convert_char4(c));
  case LS_K_SINT16: return convert_float4(convert_short4(c));
  case LS_K_SINT32: return convert_float4(as_int4(c));
  default: return convert_float4(c);
  }
}

LS_HELPER int4 ls_channels_to_int(uint4 c, int kind) {
  switch (kind) {
  case LS_K_SINT8:
  case LS_K_SNORM8: return convert_int4(convert_char4(c));
  case LS_K_SINT16:
  case LS_K_SNORM16: return convert_int4(convert_short4(c));
  default: return as_int4(c);
  }
}

// Channels in storage order -> (r, g, b, a); `one` fills a missing alpha.
#define LS_SWIZZLE_IN(T)                                                   \
  LS_HELPER T##4 ls_swizzle_in_##T(T##4 c, int s, T one) {                 \
    switch (s) {                                                           \
    case LS_S_R: return (T##4)(c.x, 0, 0, one);                            \
    case LS_S_A: return (T##4)(0, 0, 0, c.x);                              \
    case LS_S_RG: return (T##4)(c.x, c.y, 0, one);                         \
    case LS_S_RA: return (T##4)(c.x, 0, 0, c.y);                           \
    case LS_S_BGRA: return c.zyxw;                                         \
    case LS_S_ARGB: return c.yzwx;                                         \
    case LS_S_INTENSITY: return c.xxxx;                                    \
    case LS_S_LUMINANCE: return (T##4)(c.x, c.x, c.x, one);                \
    case LS_S_ABGR: return c.wzyx;                                         \
    default: return c;                                                     \
    }                                                                      \
  }
LS_SWIZZLE_IN(float)
LS_SWIZZLE_IN(int)

// (r, g, b, a) -> channels in storage order.
LS_HELPER uint4 ls_swizzle_out(uint4 c, int s) {
  switch (s) {
  case LS_S_A: return (uint4)(c.w, 0, 0, 0);
  case LS_S_RA: return (uint4)(c.x, c.w, 0, 0);
  case LS_S_BGRA: return c.zyxw;
  case LS_S_ARGB: return c.wxyz;
  case LS_S_ABGR: return c.wzyx;
  default: return c;  // R, RG, RGBA, INTENSITY, LUMINANCE: leading channels
  }
}

LS_HELPER float4 ls_fetch_f(ls_img img, int x, int y, int z) {
  uint4 raw = ls_load_raw(img, ls_texel(img, x, y, z));
  return ls_swizzle_in_float(ls_channels_to_float(raw, ls_word(img, LS_D_KIND)), ls_word(img, LS_D_SWIZZLE),
                             1.0f);
}

LS_HELPER int4 ls_fetch_i(ls_img img, int x, int y, int z) {
  uint4 raw = ls_load_raw(img, ls_texel(img, x, y, z));
  return ls_swizzle_in_int(ls_channels_to_int(raw, ls_word(img, LS_D_KIND)), ls_word(img, LS_D_SWIZZLE), 1);
}

LS_HELPER float4 ls_border_f(ls_img img) { return (float4)(0.0f, 0.0f, 0.0f, ls_word(img, LS_D_ALPHA) ? 0.0f : 1.0f); }
LS_HELPER int4 ls_border_i(ls_img img) { return (int4)(0, 0, 0, ls_word(img, LS_D_ALPHA) ? 0 : 1); }

// ---------------------------------------------------------------------------
// Sampling
// ---------------------------------------------------------------------------

#define LS_ADDR_MASK 0xe
#define LS_ADDR_NONE 0
#define LS_ADDR_CLAMP_TO_EDGE 2
#define LS_ADDR_CLAMP 4
#define LS_ADDR_REPEAT 6
#define LS_ADDR_MIRRORED 8

// The extents of the filtered dimensions.
LS_HELPER int4 ls_extent(ls_img img) {
  return (int4)(ls_word(img, LS_D_WIDTH), ls_word(img, LS_D_HEIGHT), ls_word(img, LS_D_DEPTH), 1);
}

// Nearest: the texel index of coordinate `s` along a dimension of `n`
// texels; *out is set if it lies outside (CLAMP: border colour).
LS_HELPER int ls_nearest(float s, int n, uint smp, bool *out) {
  uint mode = smp & LS_ADDR_MASK;
  bool norm = smp & CLK_NORMALIZED_COORDS_TRUE;
  float u;
  if (norm && mode == LS_ADDR_REPEAT) {
    u = (s - floor(s)) * (float)n;
    int i = (int)floor(u);
    return i > n - 1 ? i - n : i;
  }
  if (norm && mode == LS_ADDR_MIRRORED) {
    float sp = fabs(s - 2.0f * rint(0.5f * s));
    int i = (int)floor(sp * (float)n);
    return min(i, n - 1);
  }
  u = norm ? s * (float)n : s;
  // Clamped in float first: far-away coordinates do not overflow the int.
  int i = (int)floor(fmin(fmax(u, -2.0f), (float)n + 1.0f));
  *out = mode == LS_ADDR_CLAMP && (i < 0 || i >= n);
  return clamp(i, 0, n - 1);
}

// Linear: the two texel indices around `s` and the weight of the second;
// *out0 / *out1 as for ls_nearest.
LS_HELPER int ls_linear(float s, int n, uint smp, int *i1, float *a, bool *out0, bool *out1) {
  uint mode = smp & LS_ADDR_MASK;
  bool norm = smp & CLK_NORMALIZED_COORDS_TRUE;
  if (norm && mode == LS_ADDR_REPEAT) {
    float u = (s - floor(s)) * (float)n - 0.5f;
    float f = floor(u);
    int i0 = (int)f;
    int j = i0 + 1;
    *a = u - f;
    i0 = i0 < 0 ? i0 + n : i0;
    j = j > n - 1 ? j - n : j;
    *i1 = clamp(j, 0, n - 1);
    return clamp(i0, 0, n - 1);
  }
  if (norm && mode == LS_ADDR_MIRRORED) {
    float sp = fabs(s - 2.0f * rint(0.5f * s));
    float u = sp * (float)n - 0.5f;
    float f = floor(u);
    *a = u - f;
    int i0 = (int)f;
    *i1 = clamp(i0 + 1, 0, n - 1);
    return clamp(i0, 0, n - 1);
  }
  float u = (norm ? s * (float)n : s) - 0.5f;
  u = fmin(fmax(u, -2.0f), (float)n + 1.0f);
  float f = floor(u);
  *a = u - f;
  int i0 = (int)f;
  int j = i0 + 1;
  bool clamp_border = mode == LS_ADDR_CLAMP;
  *out0 = clamp_border && (i0 < 0 || i0 >= n);
  *out1 = clamp_border && (j < 0 || j >= n);
  *i1 = clamp(j, 0, n - 1);
  return clamp(i0, 0, n - 1);
}

// An array's layer from its coordinate.
LS_HELPER int ls_layer(float c, int layers) { return clamp((int)rint(c), 0, layers - 1); }

// The texel (x, y, z) of a `dims`-dimensional image or array layer `layer`.
LS_HELPER int4 ls_place(int dims, int x, int y, int z, int layer) {
  return dims == 1 ? (int4)(x, layer, 0, 0) : dims == 2 ? (int4)(x, y, layer, 0) : (int4)(x, y, z, 0);
}

// A sampled read at float coordinates `c` (the first `dims` used).
LS_HELPER float4 ls_sample_f(ls_img img, uint smp, float4 c, int dims, int layer) {
  int4 ext = ls_extent(img);
  float4 border = ls_border_f(img);
  if ((smp & CLK_FILTER_LINEAR) == 0) {
    bool ox = false, oy = false, oz = false;
    int x = ls_nearest(c.x, ext.x, smp, &ox);
    int y = dims >= 2 ? ls_nearest(c.y, ext.y, smp, &oy) : 0;
    int z = dims >= 3 ? ls_nearest(c.z, ext.z, smp, &oz) : 0;
    int4 p = ls_place(dims, x, y, z, layer);
    float4 v = ls_fetch_f(img, p.x, p.y, p.z);
    return (ox || oy || oz) ? border : v;
  }
  int x1 = 0, y1 = 0, z1 = 0;
  float a = 0.0f, b = 0.0f, g = 0.0f;
  bool ox0 = false, ox1 = false, oy0 = false, oy1 = false, oz0 = false, oz1 = false;
  int x0 = ls_linear(c.x, ext.x, smp, &x1, &a, &ox0, &ox1);
  if (dims == 1) {
    int4 p0 = ls_place(1, x0, 0, 0, layer), p1 = ls_place(1, x1, 0, 0, layer);
    float4 t0 = ox0 ? border : ls_fetch_f(img, p0.x, p0.y, p0.z);
    float4 t1 = ox1 ? border : ls_fetch_f(img, p1.x, p1.y, p1.z);
    return (1.0f - a) * t0 + a * t1;
  }
  int y0 = ls_linear(c.y, ext.y, smp, &y1, &b, &oy0, &oy1);
  if (dims == 2) {
    float4 t00 = (ox0 || oy0) ? border : ls_fetch_f(img, x0, y0, layer);
    float4 t10 = (ox1 || oy0) ? border : ls_fetch_f(img, x1, y0, layer);
    float4 t01 = (ox0 || oy1) ? border : ls_fetch_f(img, x0, y1, layer);
    float4 t11 = (ox1 || oy1) ? border : ls_fetch_f(img, x1, y1, layer);
    return (1.0f - a) * (1.0f - b) * t00 + a * (1.0f - b) * t10 + (1.0f - a) * b * t01 + a * b * t11;
  }
  int z0 = ls_linear(c.z, ext.z, smp, &z1, &g, &oz0, &oz1);
  float4 t000 = (ox0 || oy0 || oz0) ? border : ls_fetch_f(img, x0, y0, z0);
  float4 t100 = (ox1 || oy0 || oz0) ? border : ls_fetch_f(img, x1, y0, z0);
  float4 t010 = (ox0 || oy1 || oz0) ? border : ls_fetch_f(img, x0, y1, z0);
  float4 t110 = (ox1 || oy1 || oz0) ? border : ls_fetch_f(img, x1, y1, z0);
  float4 t001 = (ox0 || oy0 || oz1) ? border : ls_fetch_f(img, x0, y0, z1);
  float4 t101 = (ox1 || oy0 || oz1) ? border : ls_fetch_f(img, x1, y0, z1);
  float4 t011 = (ox0 || oy1 || oz1) ? border : ls_fetch_f(img, x0, y1, z1);
  float4 t111 = (ox1 || oy1 || oz1) ? border : ls_fetch_f(img, x1, y1, z1);
  return (1.0f - a) * (1.0f - b) * (1.0f - g) * t000 + a * (1.0f - b) * (1.0f - g) * t100 +
         (1.0f - a) * b * (1.0f - g) * t010 + a * b * (1.0f - g) * t110 + (1.0f - a) * (1.0f - b) * g * t001 +
         a * (1.0f - b) * g * t101 + (1.0f - a) * b * g * t011 + a * b * g * t111;
}

// A sampled integer read (nearest only, as the spec requires of
// read_image{i,ui}) at float coordinates.
LS_HELPER int4 ls_sample_i(ls_img img, uint smp, float4 c, int dims, int layer) {
  int4 ext = ls_extent(img);
  bool ox = false, oy = false, oz = false;
  int x = ls_nearest(c.x, ext.x, smp, &ox);
  int y = dims >= 2 ? ls_nearest(c.y, ext.y, smp, &oy) : 0;
  int z = dims >= 3 ? ls_nearest(c.z, ext.z, smp, &oz) : 0;
  int4 p = ls_place(dims, x, y, z, layer);
  int4 v = ls_fetch_i(img, p.x, p.y, p.z);
  return (ox || oy || oz) ? ls_border_i(img) : v;
}

// Integer coordinates with a sampler (unnormalized, nearest): only the
// addressing mode matters. Without a sampler `smp` is CLAMP_TO_EDGE.
LS_HELPER int ls_int_coord(int i, int n, uint smp, bool *out) {
  *out = (smp & LS_ADDR_MASK) == LS_ADDR_CLAMP && (i < 0 || i >= n);
  return clamp(i, 0, n - 1);
}

LS_HELPER int4 ls_int_place(ls_img img, uint smp, int4 c, int dims, int has_layer, bool *out) {
  int4 ext = ls_extent(img);
  bool ox = false, oy = false, oz = false;
  int x = ls_int_coord(c.x, ext.x, smp, &ox);
  int y = dims >= 2 ? ls_int_coord(c.y, ext.y, smp, &oy) : 0;
  int z = dims >= 3 ? ls_int_coord(c.z, ext.z, smp, &oz) : 0;
  int layer = 0;
  if (has_layer) {
    int l = dims == 1 ? c.y : c.z;
    layer = clamp(l, 0, ls_word(img, LS_D_ARRAY_SIZE) - 1);
  }
  *out = ox || oy || oz;
  return ls_place(dims, x, y, z, layer);
}

LS_HELPER float4 ls_read_int_f(ls_img img, uint smp, int4 c, int dims, int has_layer) {
  bool out;
  int4 p = ls_int_place(img, smp, c, dims, has_layer, &out);
  float4 v = ls_fetch_f(img, p.x, p.y, p.z);
  return out ? ls_border_f(img) : v;
}

LS_HELPER int4 ls_read_int_i(ls_img img, uint smp, int4 c, int dims, int has_layer) {
  bool out;
  int4 p = ls_int_place(img, smp, c, dims, has_layer, &out);
  int4 v = ls_fetch_i(img, p.x, p.y, p.z);
  return out ? ls_border_i(img) : v;
}

LS_HELPER float4 ls_read_float_f(ls_img img, uint smp, float4 c, int dims, int has_layer) {
  int layer = has_layer ? ls_layer(dims == 1 ? c.y : c.z, ls_word(img, LS_D_ARRAY_SIZE)) : 0;
  return ls_sample_f(img, smp, c, dims, layer);
}

LS_HELPER int4 ls_read_float_i(ls_img img, uint smp, float4 c, int dims, int has_layer) {
  int layer = has_layer ? ls_layer(dims == 1 ? c.y : c.z, ls_word(img, LS_D_ARRAY_SIZE)) : 0;
  return ls_sample_i(img, smp, c, dims, layer);
}

// ---------------------------------------------------------------------------
// Writes
// ---------------------------------------------------------------------------

LS_HELPER uint4 ls_float_to_channels(float4 v, int kind) {
  switch (kind) {
  case LS_K_UNORM8: return convert_uint4(convert_uchar4_sat_rte(v * 255.0f));
  case LS_K_UNORM16: return convert_uint4(convert_ushort4_sat_rte(v * 65535.0f));
  case LS_K_SNORM8: return convert_uint4(as_uchar4(convert_char4_sat_rte(v * 127.0f)));
  case LS_K_SNORM16: return convert_uint4(as_ushort4(convert_short4_sat_rte(v * 32767.0f)));
  case LS_K_HALF: return convert_uint4(as_ushort4(convert_half4_rte(v)));
  default: return as_uint4(v);
  }
}

LS_HELPER uint4 ls_int_to_channels(int4 v, int kind) {
  switch (kind) {
  case LS_K_SINT8: return convert_uint4(as_uchar4(convert_char4_sat(v)));
  case LS_K_SINT16: return convert_uint4(as_ushort4(convert_short4_sat(v)));
  default: return as_uint4(v);
  }
}

LS_HELPER uint4 ls_uint_to_channels(uint4 v, int kind) {
  switch (kind) {
  case LS_K_UINT8: return convert_uint4(convert_uchar4_sat(v));
  case LS_K_UINT16: return convert_uint4(convert_ushort4_sat(v));
  default: return v;
  }
}

// The texel a write at `c` goes to, or false if it lies outside.
LS_HELPER bool ls_write_place(ls_img img, int4 c, int dims, int has_layer, int4 *p) {
  int4 ext = ls_extent(img);
  bool in = c.x >= 0 && c.x < ext.x;
  if (dims >= 2) in = in && c.y >= 0 && c.y < ext.y;
  if (dims >= 3) in = in && c.z >= 0 && c.z < ext.z;
  int layer = 0;
  if (has_layer) {
    layer = dims == 1 ? c.y : c.z;
    in = in && layer >= 0 && layer < ls_word(img, LS_D_ARRAY_SIZE);
  }
  *p = ls_place(dims, c.x, c.y, c.z, layer);
  return in;
}

LS_HELPER void ls_write_channels(ls_img img, int4 c, int dims, int has_layer, uint4 ch) {
  int4 p;
  if (ls_write_place(img, c, dims, has_layer, &p)) {
    ls_store_raw(img, (__global uchar *)ls_texel(img, p.x, p.y, p.z), ls_swizzle_out(ch, ls_word(img, LS_D_SWIZZLE)));
  }
}

// ---------------------------------------------------------------------------
// The builtins, per image type and access qualifier
// ---------------------------------------------------------------------------

// The library's view of image and sampler handles (resolved by the importer).
#define LS_IMAGE_VIEW(ACC, IMG) const __global uchar *LS_OVLD __lockstep_image(ACC IMG img);
#define LS_IMAGE_VIEWS(ACC)                                                                             \
  LS_IMAGE_VIEW(ACC, image1d_t) LS_IMAGE_VIEW(ACC, image1d_buffer_t) LS_IMAGE_VIEW(ACC, image1d_array_t) \
  LS_IMAGE_VIEW(ACC, image2d_t) LS_IMAGE_VIEW(ACC, image2d_array_t) LS_IMAGE_VIEW(ACC, image3d_t)
LS_IMAGE_VIEWS(read_only)
LS_IMAGE_VIEWS(write_only)
LS_IMAGE_VIEWS(read_write)
uint LS_OVLD __lockstep_sampler(sampler_t s);

// Coordinates as an int4 / float4 whatever their width.
#define LS_I4_1(c) (int4)((c), 0, 0, 0)
#define LS_I4_2(c) (int4)((c), 0, 0)
#define LS_I4_4(c) (c)
#define LS_F4_1(c) (float4)((c), 0.0f, 0.0f, 0.0f)
#define LS_F4_2(c) (float4)((c), 0.0f, 0.0f)
#define LS_F4_4(c) (c)
#define LS_ITY_1 int
#define LS_ITY_2 int2
#define LS_ITY_4 int4
#define LS_FTY_1 float
#define LS_FTY_2 float2
#define LS_FTY_4 float4

#define LS_NO_SAMPLER (CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST)

// Sampler-less reads (OpenCL 1.2), for read_only and read_write images.
#define LS_READ_NOSAMPLER(ACC, IMG, N, DIMS, LAYER)                                                          \
  LS_OVLD float4 read_imagef(ACC IMG img, LS_ITY_##N c) {                                                    \
    return ls_read_int_f(__lockstep_image(img), LS_NO_SAMPLER, LS_I4_##N(c), DIMS, LAYER);                   \
  }                                                                                                          \
  LS_OVLD int4 read_imagei(ACC IMG img, LS_ITY_##N c) {                                                      \
    return ls_read_int_i(__lockstep_image(img), LS_NO_SAMPLER, LS_I4_##N(c), DIMS, LAYER);                   \
  }                                                                                                          \
  LS_OVLD uint4 read_imageui(ACC IMG img, LS_ITY_##N c) {                                                    \
    return as_uint4(ls_read_int_i(__lockstep_image(img), LS_NO_SAMPLER, LS_I4_##N(c), DIMS, LAYER));         \
  }

#define LS_READ_SAMPLER(IMG, N, DIMS, LAYER)                                                                 \
  LS_OVLD float4 read_imagef(read_only IMG img, sampler_t s, LS_ITY_##N c) {                                 \
    return ls_read_int_f(__lockstep_image(img), __lockstep_sampler(s), LS_I4_##N(c), DIMS, LAYER);           \
  }                                                                                                          \
  LS_OVLD int4 read_imagei(read_only IMG img, sampler_t s, LS_ITY_##N c) {                                   \
    return ls_read_int_i(__lockstep_image(img), __lockstep_sampler(s), LS_I4_##N(c), DIMS, LAYER);           \
  }                                                                                                          \
  LS_OVLD uint4 read_imageui(read_only IMG img, sampler_t s, LS_ITY_##N c) {                                 \
    return as_uint4(ls_read_int_i(__lockstep_image(img), __lockstep_sampler(s), LS_I4_##N(c), DIMS, LAYER)); \
  }                                                                                                          \
  LS_OVLD float4 read_imagef(read_only IMG img, sampler_t s, LS_FTY_##N c) {                                 \
    return ls_read_float_f(__lockstep_image(img), __lockstep_sampler(s), LS_F4_##N(c), DIMS, LAYER);         \
  }                                                                                                          \
  LS_OVLD int4 read_imagei(read_only IMG img, sampler_t s, LS_FTY_##N c) {                                   \
    return ls_read_float_i(__lockstep_image(img), __lockstep_sampler(s), LS_F4_##N(c), DIMS, LAYER);         \
  }                                                                                                          \
  LS_OVLD uint4 read_imageui(read_only IMG img, sampler_t s, LS_FTY_##N c) {                                 \
    return as_uint4(ls_read_float_i(__lockstep_image(img), __lockstep_sampler(s), LS_F4_##N(c), DIMS, LAYER)); \
  }

#define LS_WRITE(ACC, IMG, N, DIMS, LAYER)                                                                   \
  LS_OVLD void write_imagef(ACC IMG img, LS_ITY_##N c, float4 v) {                                           \
    ls_img p = __lockstep_image(img);                                                                        \
    ls_write_channels(p, LS_I4_##N(c), DIMS, LAYER, ls_float_to_channels(v, ls_word(p, LS_D_KIND)));         \
  }                                                                                                          \
  LS_OVLD void write_imagei(ACC IMG img, LS_ITY_##N c, int4 v) {                                             \
    ls_img p = __lockstep_image(img);                                                                        \
    ls_write_channels(p, LS_I4_##N(c), DIMS, LAYER, ls_int_to_channels(v, ls_word(p, LS_D_KIND)));           \
  }                                                                                                          \
  LS_OVLD void write_imageui(ACC IMG img, LS_ITY_##N c, uint4 v) {                                           \
    ls_img p = __lockstep_image(img);                                                                        \
    ls_write_channels(p, LS_I4_##N(c), DIMS, LAYER, ls_uint_to_channels(v, ls_word(p, LS_D_KIND)));          \
  }

#define LS_QUERIES(ACC, IMG)                                                                                 \
  LS_OVLD int get_image_width(ACC IMG img) { return ls_word(__lockstep_image(img), LS_D_WIDTH); }            \
  LS_OVLD int get_image_channel_data_type(ACC IMG img) { return ls_word(__lockstep_image(img), LS_D_TYPE); } \
  LS_OVLD int get_image_channel_order(ACC IMG img) { return ls_word(__lockstep_image(img), LS_D_ORDER); }
#define LS_QUERY_HEIGHT(ACC, IMG) \
  LS_OVLD int get_image_height(ACC IMG img) { return ls_word(__lockstep_image(img), LS_D_HEIGHT); }
#define LS_QUERY_ARRAY(ACC, IMG) \
  LS_OVLD size_t get_image_array_size(ACC IMG img) { return (size_t)ls_word(__lockstep_image(img), LS_D_ARRAY_SIZE); }

#define LS_WRITES(ACC)                       \
  LS_WRITE(ACC, image1d_t, 1, 1, 0)          \
  LS_WRITE(ACC, image1d_buffer_t, 1, 1, 0)   \
  LS_WRITE(ACC, image1d_array_t, 2, 1, 1)    \
  LS_WRITE(ACC, image2d_t, 2, 2, 0)          \
  LS_WRITE(ACC, image2d_array_t, 4, 2, 1)    \
  LS_WRITE(ACC, image3d_t, 4, 3, 0)

#define LS_IMAGES_FOR(ACC)                                                                              \
  LS_QUERIES(ACC, image1d_t)                                                                            \
  LS_QUERIES(ACC, image1d_buffer_t)                                                                     \
  LS_QUERIES(ACC, image1d_array_t)                                                                      \
  LS_QUERIES(ACC, image2d_t)                                                                            \
  LS_QUERIES(ACC, image2d_array_t)                                                                      \
  LS_QUERIES(ACC, image3d_t)                                                                            \
  LS_QUERY_HEIGHT(ACC, image2d_t)                                                                       \
  LS_QUERY_HEIGHT(ACC, image2d_array_t)                                                                 \
  LS_QUERY_HEIGHT(ACC, image3d_t)                                                                       \
  LS_QUERY_ARRAY(ACC, image1d_array_t)                                                                  \
  LS_QUERY_ARRAY(ACC, image2d_array_t)                                                                  \
  LS_OVLD int get_image_depth(ACC image3d_t img) { return ls_word(__lockstep_image(img), LS_D_DEPTH); } \
  LS_OVLD int2 get_image_dim(ACC image2d_t img) {                                                       \
    ls_img p = __lockstep_image(img);                                                                   \
    return (int2)(ls_word(p, LS_D_WIDTH), ls_word(p, LS_D_HEIGHT));                                     \
  }                                                                                                     \
  LS_OVLD int2 get_image_dim(ACC image2d_array_t img) {                                                 \
    ls_img p = __lockstep_image(img);                                                                   \
    return (int2)(ls_word(p, LS_D_WIDTH), ls_word(p, LS_D_HEIGHT));                                     \
  }                                                                                                     \
  LS_OVLD int4 get_image_dim(ACC image3d_t img) {                                                       \
    ls_img p = __lockstep_image(img);                                                                   \
    return (int4)(ls_word(p, LS_D_WIDTH), ls_word(p, LS_D_HEIGHT), ls_word(p, LS_D_DEPTH), 0);          \
  }

#define LS_READS_NOSAMPLER(ACC)                      \
  LS_READ_NOSAMPLER(ACC, image1d_t, 1, 1, 0)         \
  LS_READ_NOSAMPLER(ACC, image1d_buffer_t, 1, 1, 0)  \
  LS_READ_NOSAMPLER(ACC, image1d_array_t, 2, 1, 1)   \
  LS_READ_NOSAMPLER(ACC, image2d_t, 2, 2, 0)         \
  LS_READ_NOSAMPLER(ACC, image2d_array_t, 4, 2, 1)   \
  LS_READ_NOSAMPLER(ACC, image3d_t, 4, 3, 0)

LS_READ_SAMPLER(image1d_t, 1, 1, 0)
LS_READ_SAMPLER(image1d_array_t, 2, 1, 1)
LS_READ_SAMPLER(image2d_t, 2, 2, 0)
LS_READ_SAMPLER(image2d_array_t, 4, 2, 1)
LS_READ_SAMPLER(image3d_t, 4, 3, 0)
LS_READS_NOSAMPLER(read_only)
LS_READS_NOSAMPLER(read_write)
LS_IMAGES_FOR(read_only)
LS_IMAGES_FOR(write_only)
LS_IMAGES_FOR(read_write)
LS_WRITES(write_only)
LS_WRITES(read_write)
