// build: -cl-std=CL1.2
// OpenCL C 1.2 kernels that crates/llvm/tests/spirv.rs builds from this
// source and from SPIR-V (kernels.spvasm, which regenerate.sh makes from this
// file), checking that both give the same results on both engines. Each
// kernel exercises a family of builtins as the SPIR-V translator hands them
// back.

typedef struct {
  int a;
  float b;
  char c;
} S;

__constant float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};

int helper(int x) { return x * x + 1; }

__kernel void local_reverse(__global int *out, __local int *tmp) {
  int l = get_local_id(0);
  tmp[l] = l * 3 + (int)get_group_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l];
}

__kernel void atomics(__global int *counter, __global uint *bits) {
  __local int lc;
  if (get_local_id(0) == 0)
    lc = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(counter, 1);
  atom_inc(counter + 1);
  atomic_max(counter + 2, (int)get_global_id(0));
  atomic_or(bits, 1u << (get_global_id(0) % 32));
  atomic_xchg(counter + 3, 7);
  atomic_cmpxchg(counter + 4, 0, 5);
  atomic_inc(&lc);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0)
    atomic_add(counter + 5, lc);
}

__kernel void vectors(__global const float *in, __global float *out, float4 f4, S s) {
  size_t i = get_global_id(0);
  float4 v = vload4(i, in);
  v = v * f4 + (float4)(s.a, s.b, (float)s.c, table[i % 4]);
  float d = dot(v, v) + length(v.xyz) + distance(v, f4);
  float4 n = normalize(v + 1.0f);
  float3 c = cross(v.xyz, n.xyz);
  vstore4(v + (float4)(d) + (float4)(c, 0.0f), i, out);
  vstore_half(v.x, i, (__global half *)(out + 4 * get_global_size(0)));
}

__kernel void integers(__global int *io, __global uint *u, __global long *lo) {
  size_t i = get_global_id(0);
  int x = io[i];
  uint y = u[i];
  io[i] = clz(x) + popcount(x) + mad24(x, 3, 1) + rotate(x, 5) + add_sat(x, INT_MAX) +
          mul_hi(x, x) + abs(x) + hadd(x, 3) + max(x, 4) + clamp(x, -5, 5);
  u[i] = (y >> 3 | (y << 2)) ^ (upsample((ushort)y, (ushort)x) + sub_sat(y, 100u) +
                                abs_diff(y, 77u) + rhadd(y, 9u));
  lo[i] = (long)x * (long)y + mul_hi((long)x, 123456789012345L) +
          mad_sat((long)x, (long)y, LONG_MAX);
}

__kernel void conversions(__global const float *f, __global uchar *c, __global int *i,
                          __global short *s, __global double *d) {
  size_t g = get_global_id(0);
  float x = f[g];
  c[g] = convert_uchar_sat_rte(x * 100.0f);
  i[g] = convert_int_rtn(x * 7.5f) + as_int(x) + convert_int_sat(x * 1e10f);
  s[g] = convert_short_sat(i[g]);
  double2 dd = convert_double2((float2)(x, -x));
  d[g] = dd.x * 3.0 + dd.y + (double)convert_float_rtz((double)x / 3.0);
}

__kernel void math(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  float x = in[i];
  float r = sin(x) + cos(x) * exp(x * 0.1f) + log(fabs(x) + 1.0f) + pow(fabs(x), 1.5f) +
            sqrt(fabs(x)) + rsqrt(fabs(x) + 1.0f) + fma(x, x, 1.0f) + fmin(x, 2.0f) + floor(x) +
            ceil(x) + round(x) + trunc(x) + fmod(x, 3.0f) + atan2(x, 2.0f) + hypot(x, 3.0f) +
            native_sin(x) + half_exp(x * 0.01f) + mix(x, 1.0f, 0.25f) + step(0.5f, x) +
            smoothstep(0.0f, 1.0f, x) + sign(x) + copysign(2.0f, x) + erf(x) +
            tgamma(fabs(x) * 0.1f + 1.0f) + cbrt(x) + ldexp(x, 3) + ilogb(x + 10.0f) +
            nextafter(x, 0.0f);
  float ip;
  int e;
  r += modf(x, &ip) + ip + frexp(x + 100.0f, &e) + e;
  out[i] = r + x * in[0] + 1.0f;
}

__kernel void relational(__global const float *in, __global int *out) {
  size_t i = get_global_id(0);
  float x = in[i];
  int4 m = isgreater((float4)(x), (float4)(0.0f, 1.0f, 2.0f, 3.0f));
  int r = isnan(x) + isinf(x) * 2 + signbit(x) * 4 + any(m) * 8 + all(m) * 16 +
          select(1, 2, x > 1.0f) * 32 + bitselect(0xf0, 0x0f, (int)i) +
          (int)select(1.0f, 2.0f, (int)i) + isordered(x, x) + islessgreater(x, 1.0f);
  int8 sh = shuffle((int8)(0, 1, 2, 3, 4, 5, 6, 7), (uint8)(7, 6, 5, 4, 3, 2, 1, 0));
  int4 sh2 = shuffle2((int4)(0, 1, 2, 3), (int4)(4, 5, 6, 7), (uint4)(7, 0, 5, 2));
  out[i] = r + sh.s0 * 100 + sh2.s0 * 1000;
}

__kernel void async_copy(__global const float *in, __global float *out, __local float *tmp) {
  event_t e = async_work_group_copy(tmp, in + get_group_id(0) * get_local_size(0),
                                    get_local_size(0), 0);
  wait_group_events(1, &e);
  size_t l = get_local_id(0);
  out[get_global_id(0)] = tmp[get_local_size(0) - 1 - l] * 2.0f;
}

__kernel void print(__global const int *p) {
  if (get_global_id(0) < 2)
    printf("gid %d value %d f %f str %s\n", (int)get_global_id(0), p[get_global_id(0)], 1.5f,
           "ok");
}

__kernel __attribute__((reqd_work_group_size(4, 1, 1))) void work_items(__global int *p) {
  size_t i = get_global_id(0);
  p[i] = helper(p[i]) + get_num_groups(0) * 10 + get_work_dim() * 100 +
         get_global_size(0) * 1000 + get_group_id(0) * 10000;
}

__kernel void grid(__global float *p, int w) {
  int x = get_global_id(0), y = get_global_id(1);
  p[y * w + x] = x * 10 + y + get_local_id(1) * 100 + get_local_size(1) * 1000;
}

__kernel void doubles(__global double *d) {
  size_t i = get_global_id(0);
  d[i] = sqrt(d[i]) + exp(d[i] * 0.5) + fma(d[i], 2.0, 1.0) + sin(d[i]);
}

__kernel void control(__global int *p, int n) {
  int i = get_global_id(0);
  int acc = 0;
  for (int k = 0; k < n + i; k++) {
    if (k % 3 == i % 3)
      continue;
    acc += k * i;
    if (acc > 1000)
      break;
  }
  switch (i % 4) {
  case 0:
    acc += 1;
    break;
  case 1:
    acc -= 2;
    break;
  case 2:
    acc *= 3;
    break;
  default:
    acc = -acc;
  }
  p[i] = acc;
}
