/* Native versions of the benchmark kernels: the same algorithms in C, built
 * with -O3 -march=native -fopenmp, one OpenMP parallel loop over what the
 * OpenCL version runs as work-items. saxpy and mandelbrot also come
 * hand-vectorized with intrinsics: AVX-512 when the compiler targets it
 * (__AVX512F__), else AVX2 (__AVX2__), else plain C; bench_native_isa()
 * says which was compiled. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <immintrin.h>
#include <omp.h>

typedef uint32_t u32;
typedef uint64_t u64;

const char *bench_native_isa(void)
{
#if defined(__AVX512F__)
    return "avx512f";
#elif defined(__AVX2__) && defined(__FMA__)
    return "avx2+fma";
#else
    return "scalar";
#endif
}

/* ---- saxpy: z = a*x + y ---- */

void nat_saxpy(float a, const float *restrict x, const float *restrict y, float *restrict z, long n)
{
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i++)
        z[i] = a * x[i] + y[i];
}

void nat_saxpy_simd(float a, const float *restrict x, const float *restrict y, float *restrict z, long n)
{
#if defined(__AVX512F__)
    __m512 va = _mm512_set1_ps(a);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i += 16)
        _mm512_storeu_ps(z + i, _mm512_fmadd_ps(va, _mm512_loadu_ps(x + i), _mm512_loadu_ps(y + i)));
#elif defined(__AVX2__) && defined(__FMA__)
    __m256 va = _mm256_set1_ps(a);
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; i += 8)
        _mm256_storeu_ps(z + i, _mm256_fmadd_ps(va, _mm256_loadu_ps(x + i), _mm256_loadu_ps(y + i)));
#else
    nat_saxpy(a, x, y, z, n);
#endif
}

/* ---- mandelbrot ---- */

void nat_mandelbrot(u32 *out, float x0, float y0, float step, u32 w, u32 h, u32 max_iter)
{
#pragma omp parallel for schedule(dynamic, 4)
    for (u32 py = 0; py < h; py++) {
        float ci = y0 + (float)py * step;
        for (u32 px = 0; px < w; px++) {
            float cr = x0 + (float)px * step;
            float zr = 0.0f, zi = 0.0f;
            u32 i = 0;
            while (i < max_iter) {
                float zr2 = zr * zr, zi2 = zi * zi;
                if (zr2 + zi2 > 4.0f)
                    break;
                float t = zr * zi;
                zi = t + t + ci;
                zr = zr2 - zi2 + cr;
                i++;
            }
            out[py * w + px] = i;
        }
    }
}

/* w must be a multiple of the vector width (16). */
void nat_mandelbrot_simd(u32 *out, float x0, float y0, float step, u32 w, u32 h, u32 max_iter)
{
#if defined(__AVX512F__)
#pragma omp parallel for schedule(dynamic, 4)
    for (u32 py = 0; py < h; py++) {
        __m512 ci = _mm512_set1_ps(y0 + (float)py * step);
        const __m512 four = _mm512_set1_ps(4.0f);
        for (u32 px = 0; px < w; px += 16) {
            __m512i idx = _mm512_add_epi32(_mm512_set1_epi32((int)px),
                _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
            __m512 cr = _mm512_add_ps(_mm512_set1_ps(x0), _mm512_mul_ps(_mm512_cvtepi32_ps(idx), _mm512_set1_ps(step)));
            __m512 zr = _mm512_setzero_ps(), zi = _mm512_setzero_ps();
            __m512i count = _mm512_setzero_si512();
            __mmask16 active = 0xffff;
            for (u32 i = 0; i < max_iter; i++) {
                __m512 zr2 = _mm512_mul_ps(zr, zr), zi2 = _mm512_mul_ps(zi, zi);
                active &= _mm512_cmp_ps_mask(_mm512_add_ps(zr2, zi2), four, _CMP_LE_OQ);
                if (!active)
                    break;
                count = _mm512_mask_add_epi32(count, active, count, _mm512_set1_epi32(1));
                __m512 t = _mm512_mul_ps(zr, zi);
                zi = _mm512_add_ps(_mm512_add_ps(t, t), ci);
                zr = _mm512_add_ps(_mm512_sub_ps(zr2, zi2), cr);
            }
            _mm512_storeu_si512((void *)(out + py * w + px), count);
        }
    }
#elif defined(__AVX2__) && defined(__FMA__)
#pragma omp parallel for schedule(dynamic, 4)
    for (u32 py = 0; py < h; py++) {
        __m256 ci = _mm256_set1_ps(y0 + (float)py * step);
        const __m256 four = _mm256_set1_ps(4.0f);
        for (u32 px = 0; px < w; px += 8) {
            __m256i idx = _mm256_add_epi32(_mm256_set1_epi32((int)px), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
            __m256 cr = _mm256_add_ps(_mm256_set1_ps(x0), _mm256_mul_ps(_mm256_cvtepi32_ps(idx), _mm256_set1_ps(step)));
            __m256 zr = _mm256_setzero_ps(), zi = _mm256_setzero_ps();
            __m256i count = _mm256_setzero_si256();
            __m256 active = _mm256_castsi256_ps(_mm256_set1_epi32(-1));
            for (u32 i = 0; i < max_iter; i++) {
                __m256 zr2 = _mm256_mul_ps(zr, zr), zi2 = _mm256_mul_ps(zi, zi);
                active = _mm256_and_ps(active, _mm256_cmp_ps(_mm256_add_ps(zr2, zi2), four, _CMP_LE_OQ));
                if (_mm256_testz_ps(active, active))
                    break;
                /* active lanes are all ones (-1): subtracting adds one */
                count = _mm256_sub_epi32(count, _mm256_castps_si256(active));
                __m256 t = _mm256_mul_ps(zr, zi);
                zi = _mm256_add_ps(_mm256_add_ps(t, t), ci);
                zr = _mm256_add_ps(_mm256_sub_ps(zr2, zi2), cr);
            }
            _mm256_storeu_si256((__m256i *)(out + py * w + px), count);
        }
    }
#else
    nat_mandelbrot(out, x0, y0, step, w, h, max_iter);
#endif
}

/* ---- nbody: float4 positions (w = mass) and velocities ---- */

void nat_nbody(const float *restrict pos, const float *restrict vel, float *restrict new_pos,
               float *restrict new_vel, u32 n, float dt, float eps2)
{
#pragma omp parallel for schedule(static)
    for (u32 i = 0; i < n; i++) {
        float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
#pragma omp simd reduction(+ : ax, ay, az)
        for (u32 j = 0; j < n; j++) {
            float dx = pos[4 * j] - px, dy = pos[4 * j + 1] - py, dz = pos[4 * j + 2] - pz;
            float d2 = dx * dx + dy * dy + dz * dz + eps2;
            float inv = 1.0f / sqrtf(d2);
            float s = pos[4 * j + 3] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        float vx = vel[4 * i] + ax * dt, vy = vel[4 * i + 1] + ay * dt, vz = vel[4 * i + 2] + az * dt;
        new_vel[4 * i] = vx;
        new_vel[4 * i + 1] = vy;
        new_vel[4 * i + 2] = vz;
        new_vel[4 * i + 3] = vel[4 * i + 3];
        new_pos[4 * i] = px + vx * dt;
        new_pos[4 * i + 1] = py + vy * dt;
        new_pos[4 * i + 2] = pz + vz * dt;
        new_pos[4 * i + 3] = pos[4 * i + 3];
    }
}

#if !defined(__AVX512F__) && !(defined(__AVX2__) && defined(__FMA__))
static void nat_nbody_one(const float *pos, u32 n, float eps2, u32 i, float *fx, float *fy, float *fz)
{
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (u32 j = 0; j < n; j++) {
        float dx = pos[4 * j] - pos[4 * i], dy = pos[4 * j + 1] - pos[4 * i + 1], dz = pos[4 * j + 2] - pos[4 * i + 2];
        float d2 = dx * dx + dy * dy + dz * dz + eps2;
        float inv = 1.0f / sqrtf(d2);
        float s = pos[4 * j + 3] * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    *fx = ax;
    *fy = ay;
    *fz = az;
}
#endif

/* Hand-vectorized: 8 (16) bodies i per vector, body j broadcast; the
 * reciprocal square root is the hardware estimate refined by one Newton step
 * (about 1e-7 relative error, like OpenCL's rsqrt). n must be a multiple of
 * the vector width. */
void nat_nbody_simd(const float *restrict pos, const float *restrict vel, float *restrict new_pos,
                    float *restrict new_vel, u32 n, float dt, float eps2)
{
#if defined(__AVX512F__)
    const __m512i idx4 = _mm512_mullo_epi32(_mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
                                            _mm512_set1_epi32(4));
#pragma omp parallel for schedule(static)
    for (u32 i0 = 0; i0 < n; i0 += 16) {
        const float *base = pos + 4 * (size_t)i0;
        __m512 px = _mm512_i32gather_ps(idx4, base, 4), py = _mm512_i32gather_ps(idx4, base + 1, 4),
               pz = _mm512_i32gather_ps(idx4, base + 2, 4);
        __m512 ax = _mm512_setzero_ps(), ay = _mm512_setzero_ps(), az = _mm512_setzero_ps();
        const __m512 e = _mm512_set1_ps(eps2), half = _mm512_set1_ps(0.5f), three = _mm512_set1_ps(3.0f);
        for (u32 j = 0; j < n; j++) {
            __m512 dx = _mm512_sub_ps(_mm512_set1_ps(pos[4 * j]), px);
            __m512 dy = _mm512_sub_ps(_mm512_set1_ps(pos[4 * j + 1]), py);
            __m512 dz = _mm512_sub_ps(_mm512_set1_ps(pos[4 * j + 2]), pz);
            __m512 d2 = _mm512_fmadd_ps(dz, dz, _mm512_fmadd_ps(dy, dy, _mm512_fmadd_ps(dx, dx, e)));
            __m512 r = _mm512_rsqrt14_ps(d2);
            r = _mm512_mul_ps(_mm512_mul_ps(half, r), _mm512_fnmadd_ps(_mm512_mul_ps(d2, r), r, three));
            __m512 s = _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(pos[4 * j + 3]), r), _mm512_mul_ps(r, r));
            ax = _mm512_fmadd_ps(dx, s, ax);
            ay = _mm512_fmadd_ps(dy, s, ay);
            az = _mm512_fmadd_ps(dz, s, az);
        }
        float fx[16], fy[16], fz[16];
        _mm512_storeu_ps(fx, ax);
        _mm512_storeu_ps(fy, ay);
        _mm512_storeu_ps(fz, az);
        for (u32 k = 0; k < 16; k++) {
            u32 i = i0 + k;
#else
#if defined(__AVX2__) && defined(__FMA__)
    const __m256i idx4 = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
#pragma omp parallel for schedule(static)
    for (u32 i0 = 0; i0 < n; i0 += 8) {
        const float *base = pos + 4 * (size_t)i0;
        __m256 px = _mm256_i32gather_ps(base, idx4, 4), py = _mm256_i32gather_ps(base + 1, idx4, 4),
               pz = _mm256_i32gather_ps(base + 2, idx4, 4);
        __m256 ax = _mm256_setzero_ps(), ay = _mm256_setzero_ps(), az = _mm256_setzero_ps();
        const __m256 e = _mm256_set1_ps(eps2), half = _mm256_set1_ps(0.5f), three = _mm256_set1_ps(3.0f);
        for (u32 j = 0; j < n; j++) {
            __m256 dx = _mm256_sub_ps(_mm256_broadcast_ss(pos + 4 * j), px);
            __m256 dy = _mm256_sub_ps(_mm256_broadcast_ss(pos + 4 * j + 1), py);
            __m256 dz = _mm256_sub_ps(_mm256_broadcast_ss(pos + 4 * j + 2), pz);
            __m256 d2 = _mm256_fmadd_ps(dz, dz, _mm256_fmadd_ps(dy, dy, _mm256_fmadd_ps(dx, dx, e)));
            __m256 r = _mm256_rsqrt_ps(d2);
            r = _mm256_mul_ps(_mm256_mul_ps(half, r), _mm256_fnmadd_ps(_mm256_mul_ps(d2, r), r, three));
            __m256 s = _mm256_mul_ps(_mm256_mul_ps(_mm256_broadcast_ss(pos + 4 * j + 3), r), _mm256_mul_ps(r, r));
            ax = _mm256_fmadd_ps(dx, s, ax);
            ay = _mm256_fmadd_ps(dy, s, ay);
            az = _mm256_fmadd_ps(dz, s, az);
        }
        float fx[8], fy[8], fz[8];
        _mm256_storeu_ps(fx, ax);
        _mm256_storeu_ps(fy, ay);
        _mm256_storeu_ps(fz, az);
        for (u32 k = 0; k < 8; k++) {
            u32 i = i0 + k;
#else
#pragma omp parallel for schedule(static)
    for (u32 i0 = 0; i0 < n; i0++) {
        float fx[1], fy[1], fz[1];
        nat_nbody_one(pos, n, eps2, i0, fx, fy, fz);
        for (u32 k = 0; k < 1; k++) {
            u32 i = i0 + k;
#endif
#endif
            float vx = vel[4 * i] + fx[k] * dt, vy = vel[4 * i + 1] + fy[k] * dt,
                  vz = vel[4 * i + 2] + fz[k] * dt;
            new_vel[4 * i] = vx;
            new_vel[4 * i + 1] = vy;
            new_vel[4 * i + 2] = vz;
            new_vel[4 * i + 3] = vel[4 * i + 3];
            new_pos[4 * i] = pos[4 * i] + vx * dt;
            new_pos[4 * i + 1] = pos[4 * i + 1] + vy * dt;
            new_pos[4 * i + 2] = pos[4 * i + 2] + vz * dt;
            new_pos[4 * i + 3] = pos[4 * i + 3];
        }
    }
}

/* ---- matmul: C = A*B, row-major, order n; i-k-j order so the inner loop
 * vectorizes, blocked over k for cache reuse ---- */

void nat_matmul(const float *restrict a, const float *restrict b, float *restrict c, u32 n)
{
    const u32 kb = 64;
#pragma omp parallel for schedule(static)
    for (u32 i = 0; i < n; i++) {
        float *row = c + (size_t)i * n;
        memset(row, 0, n * sizeof(float));
        for (u32 k0 = 0; k0 < n; k0 += kb)
            for (u32 k = k0; k < k0 + kb && k < n; k++) {
                float aik = a[(size_t)i * n + k];
                const float *brow = b + (size_t)k * n;
                for (u32 j = 0; j < n; j++)
                    row[j] += aik * brow[j];
            }
    }
}

/* ---- reduction: the total in out[0]. Eight double accumulators per
 * thread (vectorized), so the native total is the accurate one. ---- */

void nat_reduce(const float *restrict in, u32 n, float *restrict out)
{
    double total = 0.0;
#pragma omp parallel reduction(+ : total)
    {
        double acc[8] = {0};
#pragma omp for schedule(static)
        for (u32 blk = 0; blk < n / 8; blk++)
            for (int k = 0; k < 8; k++)
                acc[k] += in[(size_t)blk * 8 + k];
        for (int k = 0; k < 8; k++)
            total += acc[k];
    }
    for (u32 i = n / 8 * 8; i < n; i++)
        total += in[i];
    out[0] = (float)total;
}

/* ---- inclusive prefix sum: each thread scans its slice, then adds the
 * totals of the slices before it ---- */

void nat_scan(const u32 *restrict in, u32 *restrict out, u32 n)
{
    u32 totals[256];
#pragma omp parallel
    {
        int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t lo = (size_t)n * t / nt, hi = (size_t)n * (t + 1) / nt;
        u32 s = 0;
        for (size_t i = lo; i < hi; i++) {
            s += in[i];
            out[i] = s;
        }
        totals[t] = s;
#pragma omp barrier
        u32 before = 0;
        for (int k = 0; k < t; k++)
            before += totals[k];
        if (before)
            for (size_t i = lo; i < hi; i++)
                out[i] += before;
    }
}

/* ---- black-scholes ---- */

static inline float cnd(float d)
{
    const float a1 = 0.319381530f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float c = 0.39894228040143267794f * expf(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - c : c;
}

void nat_blackscholes(const float *restrict spot, const float *restrict strike,
                      const float *restrict years, float *restrict call, float *restrict put,
                      u32 n, float rate, float vol)
{
#pragma omp parallel for schedule(static)
    for (u32 i = 0; i < n; i++) {
        float s = spot[i], x = strike[i], t = years[i];
        float sqrt_t = sqrtf(t);
        float d1 = (logf(s / x) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
        float d2 = d1 - vol * sqrt_t;
        float disc = x * expf(-rate * t);
        float c1 = cnd(d1), c2 = cnd(d2);
        call[i] = s * c1 - disc * c2;
        put[i] = disc * (1.0f - c2) - s * (1.0f - c1);
    }
}

/* Hand-vectorized with SLEEF's vector expf/logf (1 ulp), the library
 * Lockstep's generated code calls too; n must be a multiple of the vector
 * width. */
#if defined(__AVX512F__)
typedef __m512 vf;
#define VW 16
#define V_SET1 _mm512_set1_ps
#define V_LOAD _mm512_loadu_ps
#define V_STORE _mm512_storeu_ps
#define V_ADD _mm512_add_ps
#define V_SUB _mm512_sub_ps
#define V_MUL _mm512_mul_ps
#define V_DIV _mm512_div_ps
#define V_FMA _mm512_fmadd_ps
#define V_SQRT _mm512_sqrt_ps
#define V_ABS(x) _mm512_abs_ps(x)
#define V_EXP Sleef_expf16_u10avx512f
#define V_LOG Sleef_logf16_u10avx512f
#define V_SELECT_GT0(d, a, b) _mm512_mask_blend_ps(_mm512_cmp_ps_mask(d, _mm512_setzero_ps(), _CMP_GT_OQ), b, a)
#elif defined(__AVX2__) && defined(__FMA__)
typedef __m256 vf;
#define VW 8
#define V_SET1 _mm256_set1_ps
#define V_LOAD _mm256_loadu_ps
#define V_STORE _mm256_storeu_ps
#define V_ADD _mm256_add_ps
#define V_SUB _mm256_sub_ps
#define V_MUL _mm256_mul_ps
#define V_DIV _mm256_div_ps
#define V_FMA _mm256_fmadd_ps
#define V_SQRT _mm256_sqrt_ps
#define V_ABS(x) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x)
#define V_EXP Sleef_expf8_u10avx2
#define V_LOG Sleef_logf8_u10avx2
#define V_SELECT_GT0(d, a, b) _mm256_blendv_ps(b, a, _mm256_cmp_ps(d, _mm256_setzero_ps(), _CMP_GT_OQ))
#endif

#ifdef VW
#include <sleef.h>
static inline vf cnd_v(vf d)
{
    vf k = V_DIV(V_SET1(1.0f), V_FMA(V_SET1(0.2316419f), V_ABS(d), V_SET1(1.0f)));
    vf poly = V_FMA(k, V_SET1(1.330274429f), V_SET1(-1.821255978f));
    poly = V_FMA(k, poly, V_SET1(1.781477937f));
    poly = V_FMA(k, poly, V_SET1(-0.356563782f));
    poly = V_FMA(k, poly, V_SET1(0.319381530f));
    poly = V_MUL(k, poly);
    vf c = V_MUL(V_MUL(V_SET1(0.39894228040143267794f), V_EXP(V_MUL(V_MUL(V_SET1(-0.5f), d), d))), poly);
    return V_SELECT_GT0(d, V_SUB(V_SET1(1.0f), c), c);
}
#endif

void nat_blackscholes_simd(const float *restrict spot, const float *restrict strike,
                           const float *restrict years, float *restrict call, float *restrict put,
                           u32 n, float rate, float vol)
{
#ifdef VW
    const vf v = V_SET1(vol), one = V_SET1(1.0f);
    const vf drift = V_SET1(rate + 0.5f * vol * vol), neg_r = V_SET1(-rate);
#pragma omp parallel for schedule(static)
    for (u32 i = 0; i < n; i += VW) {
        vf s = V_LOAD(spot + i), x = V_LOAD(strike + i), t = V_LOAD(years + i);
        vf sqrt_t = V_SQRT(t);
        vf d1 = V_DIV(V_FMA(drift, t, V_LOG(V_DIV(s, x))), V_MUL(v, sqrt_t));
        vf d2 = V_SUB(d1, V_MUL(v, sqrt_t));
        vf disc = V_MUL(x, V_EXP(V_MUL(neg_r, t)));
        vf c1 = cnd_v(d1), c2 = cnd_v(d2);
        V_STORE(call + i, V_SUB(V_MUL(s, c1), V_MUL(disc, c2)));
        V_STORE(put + i, V_SUB(V_MUL(disc, V_SUB(one, c2)), V_MUL(s, V_SUB(one, c1))));
    }
#else
    nat_blackscholes(spot, strike, years, call, put, n, rate, vol);
#endif
}

/* ---- sobel ---- */

void nat_sobel(const float *restrict img, float *restrict out, u32 w, u32 h)
{
#pragma omp parallel for schedule(static)
    for (u32 y = 0; y < h; y++) {
        const float *up = img + (size_t)(y > 0 ? y - 1 : 0) * w;
        const float *mid = img + (size_t)y * w;
        const float *down = img + (size_t)(y + 1 < h ? y + 1 : y) * w;
        for (u32 x = 0; x < w; x++) {
            u32 xl = x > 0 ? x - 1 : 0, xr = x + 1 < w ? x + 1 : x;
            float gx = (up[xr] + 2.0f * mid[xr] + down[xr]) - (up[xl] + 2.0f * mid[xl] + down[xl]);
            float gy = (down[xl] + 2.0f * down[x] + down[xr]) - (up[xl] + 2.0f * up[x] + up[xr]);
            out[(size_t)y * w + x] = sqrtf(gx * gx + gy * gy);
        }
    }
}

/* ---- histogram of the bytes of `words`: a private histogram per thread,
 * then summed ---- */

void nat_histogram(const u32 *restrict words, u32 nwords, u32 *restrict hist)
{
    memset(hist, 0, 256 * sizeof(u32));
#pragma omp parallel
    {
        u32 local[256] = {0};
#pragma omp for schedule(static)
        for (u32 i = 0; i < nwords; i++) {
            u32 w = words[i];
            local[w & 0xff]++;
            local[(w >> 8) & 0xff]++;
            local[(w >> 16) & 0xff]++;
            local[w >> 24]++;
        }
#pragma omp critical
        for (int b = 0; b < 256; b++)
            hist[b] += local[b];
    }
}

/* ---- bitonic sort: the same network, one parallel loop per step ---- */

void nat_bitonic(u32 *data, u32 n)
{
    u32 log_n = 0;
    while ((1u << log_n) < n)
        log_n++;
#pragma omp parallel
    for (u32 stage = 0; stage < log_n; stage++)
        for (int pass = (int)stage; pass >= 0; pass--) {
            u32 dist = 1u << pass;
#pragma omp for schedule(static)
            for (u32 t = 0; t < n / 2; t++) {
                u32 lo = ((t >> pass) << (pass + 1)) | (t & (dist - 1));
                u32 hi = lo + dist;
                int ascending = ((lo >> (stage + 1)) & 1) == 0;
                u32 a = data[lo], b = data[hi];
                if ((a > b) == ascending) {
                    data[lo] = b;
                    data[hi] = a;
                }
            }
        }
}

/* ---- ambient occlusion ---- */

static inline u32 ao_hash(u32 x)
{
    x ^= x >> 17;
    x *= 0xed5ad4bbu;
    x ^= x >> 11;
    x *= 0xac4c1b51u;
    x ^= x >> 15;
    x *= 0x31848babu;
    x ^= x >> 14;
    return x;
}

static inline float next_rand(u32 *state)
{
    *state = ao_hash(*state);
    return (float)(*state >> 8) * (1.0f / 16777216.0f);
}

static inline float hit_sphere(const float *s, const float *o, const float *d)
{
    float ocx = o[0] - s[0], ocy = o[1] - s[1], ocz = o[2] - s[2];
    float b = ocx * d[0] + ocy * d[1] + ocz * d[2];
    float c = ocx * ocx + ocy * ocy + ocz * ocz - s[3] * s[3];
    float disc = b * b - c;
    if (disc < 0.0f)
        return -1.0f;
    return -b - sqrtf(disc);
}

void nat_ao(const float *restrict spheres, u32 ns, u32 samples, u32 w, u32 h, float *restrict out)
{
#pragma omp parallel for schedule(dynamic, 2)
    for (u32 py = 0; py < h; py++)
        for (u32 px = 0; px < w; px++) {
            float o[3] = {0.0f, 0.0f, 0.0f};
            float d[3] = {((float)px + 0.5f) / (float)w * 2.0f - 1.0f,
                          (1.0f - ((float)py + 0.5f) / (float)h * 2.0f) * (float)h / (float)w, -1.0f};
            float inv_len = 1.0f / sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            d[0] *= inv_len;
            d[1] *= inv_len;
            d[2] *= inv_len;
            float best = 1e30f;
            float n[3] = {0.0f, 1.0f, 0.0f};
            int kind = 0;
            for (u32 i = 0; i < ns; i++) {
                const float *s = spheres + 4 * i;
                float t = hit_sphere(s, o, d);
                if (t > 1e-4f && t < best) {
                    best = t;
                    for (int k = 0; k < 3; k++)
                        n[k] = (o[k] + t * d[k] - s[k]) / s[3];
                    kind = 1;
                }
            }
            if (d[1] < 0.0f) {
                float t = -1.0f / d[1];
                if (t < best) {
                    best = t;
                    n[0] = 0.0f;
                    n[1] = 1.0f;
                    n[2] = 0.0f;
                    kind = 2;
                }
            }
            float result = 0.0f;
            if (kind != 0) {
                float p[3];
                for (int k = 0; k < 3; k++)
                    p[k] = o[k] + best * d[k] + n[k] * 1e-3f;
                u32 state = ao_hash(py * w + px + 1u);
                u32 open = 0;
                for (u32 k = 0; k < samples; k++) {
                    float r[3], len2;
                    do {
                        r[0] = next_rand(&state) * 2.0f - 1.0f;
                        r[1] = next_rand(&state) * 2.0f - 1.0f;
                        r[2] = next_rand(&state) * 2.0f - 1.0f;
                        len2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
                    } while (len2 > 1.0f || len2 < 1e-6f);
                    float il = 1.0f / sqrtf(len2);
                    r[0] *= il;
                    r[1] *= il;
                    r[2] *= il;
                    if (r[0] * n[0] + r[1] * n[1] + r[2] * n[2] < 0.0f) {
                        r[0] = -r[0];
                        r[1] = -r[1];
                        r[2] = -r[2];
                    }
                    int blocked = r[1] < 0.0f && p[1] + 1.0f < 4.0f * -r[1];
                    for (u32 i = 0; i < ns && !blocked; i++) {
                        float t = hit_sphere(spheres + 4 * i, p, r);
                        if (t > 0.0f && t < 4.0f)
                            blocked = 1;
                    }
                    if (!blocked)
                        open++;
                }
                result = (float)open / (float)samples;
            }
            out[(size_t)py * w + px] = result;
        }
}

/* ---- the goto record parser ---- */

void nat_parser(const unsigned char *restrict text, u32 rec_len, u32 nrec, int *restrict sums,
                u32 *restrict counts)
{
#pragma omp parallel for schedule(static)
    for (u32 r = 0; r < nrec; r++) {
        const unsigned char *p = text + (size_t)r * rec_len;
        const unsigned char *end = p + rec_len;
        int sum = 0, value = 0, sign = 1;
        u32 count = 0, errors = 0;
        unsigned char c;
    skip:
        if (p == end)
            goto done;
        c = *p++;
        if (c == ' ' || c == ',')
            goto skip;
        if (c == '#')
            goto comment;
        if (c == '-') {
            sign = -1;
            goto first_digit;
        }
        if (c >= '0' && c <= '9') {
            value = c - '0';
            goto digits;
        }
        errors++;
        goto skip;
    first_digit:
        if (p == end) {
            errors++;
            goto done;
        }
        c = *p++;
        if (c >= '0' && c <= '9') {
            value = c - '0';
            goto digits;
        }
        errors++;
        sign = 1;
        goto skip;
    digits:
        if (p == end)
            goto last;
        c = *p++;
        if (c >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            goto digits;
        }
        sum += sign * value;
        count++;
        sign = 1;
        value = 0;
        if (c == '#')
            goto comment;
        if (c == ' ' || c == ',')
            goto skip;
        errors++;
        goto skip;
    comment:
        if (p == end)
            goto done;
        c = *p++;
        if (c == ';')
            goto skip;
        goto comment;
    last:
        sum += sign * value;
        count++;
    done:
        sums[r] = sum;
        counts[r] = count | (errors << 24);
    }
}

/* ---- the goto record parser entered inside its loop (parser_resume.cl) ---- */

void nat_parser_resume(const unsigned char *restrict text, u32 rec_len, u32 nrec, int *restrict sums,
                u32 *restrict counts)
{
#pragma omp parallel for schedule(static)
    for (u32 r = 0; r < nrec; r++) {
        const unsigned char *p = text + (size_t)r * rec_len;
        const unsigned char *end = p + rec_len;
        int sum = 0, value = 0, sign = 1;
        u32 count = 0, errors = 0;
        unsigned char c;
        if (*p == '*') {
            p++;
            goto comment;
        }
    skip:
        if (p == end)
            goto done;
        c = *p++;
        if (c == ' ' || c == ',')
            goto skip;
        if (c == '#')
            goto comment;
        if (c == '-') {
            sign = -1;
            goto first_digit;
        }
        if (c >= '0' && c <= '9') {
            value = c - '0';
            goto digits;
        }
        errors++;
        goto skip;
    first_digit:
        if (p == end) {
            errors++;
            goto done;
        }
        c = *p++;
        if (c >= '0' && c <= '9') {
            value = c - '0';
            goto digits;
        }
        errors++;
        sign = 1;
        goto skip;
    digits:
        if (p == end)
            goto last;
        c = *p++;
        if (c >= '0' && c <= '9') {
            value = value * 10 + (c - '0');
            goto digits;
        }
        sum += sign * value;
        count++;
        sign = 1;
        value = 0;
        if (c == '#')
            goto comment;
        if (c == ' ' || c == ',')
            goto skip;
        errors++;
        goto skip;
    comment:
        if (p == end)
            goto done;
        c = *p++;
        if (c == ';')
            goto skip;
        goto comment;
    last:
        sum += sign * value;
        count++;
    done:
        sums[r] = sum;
        counts[r] = count | (errors << 24);
    }
}

/* ---- spmv: y = A*x, CSR, one row per iteration (rows of skewed length) ---- */

void nat_spmv(const u32 *restrict rowptr, const u32 *restrict col, const float *restrict val,
              const float *restrict x, float *restrict y, u32 rows)
{
#pragma omp parallel for schedule(dynamic, 1024)
    for (u32 row = 0; row < rows; row++) {
        float sum = 0.0f;
        for (u32 k = rowptr[row]; k < rowptr[row + 1]; k++)
            sum += val[k] * x[col[k]];
        y[row] = sum;
    }
}

/* ---- vm: the bytecode interpreter of vm.cl ---- */

void nat_vm(const u32 *restrict code, u32 len, const u32 *restrict input, u32 *restrict output,
            u32 n, u32 steps)
{
#pragma omp parallel for schedule(static)
    for (u32 gid = 0; gid < n; gid++) {
        u32 r0 = input[gid], r1 = gid, r2 = 0x9e3779b9u, r3 = 0;
        u32 pc = gid % len;
        for (u32 s = 0; s < steps; s++) {
            u32 ins = code[pc];
            u32 imm = ins >> 8;
            switch (ins & 7) {
            case 0: r0 += r1 ^ imm; break;
            case 1: r1 = (r1 << 3) ^ (r0 >> 2); break;
            case 2: r2 = r2 * 1664525u + r0; break;
            case 3: r3 ^= r2 + imm; break;
            case 4: r0 = (r0 ^ r3) * 0x85ebca6bu; break;
            case 5:
                if (r0 & 1)
                    pc = (pc + imm) % len;
                break;
            case 6: r1 += r3 >> (imm & 15); break;
            default: {
                u32 t = r0;
                r0 = r1;
                r1 = r2;
                r2 = t;
                break;
            }
            }
            pc = (pc + 1) % len;
        }
        output[gid] = r0 ^ r1 ^ r2 ^ r3;
    }
}

/* ---- conv5x5: 5x5 convolution, clamped borders ---- */

static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Row by row: each tap is added to the whole output row (a loop gcc
 * vectorizes), in the kernel's tap order, so every pixel sums the same
 * products in the same order; the two columns at each edge clamp. */
void nat_conv5x5(const float *restrict in, float *restrict out, const float *restrict filt, int w,
                 int h)
{
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; y++) {
        float *restrict o = out + (size_t)y * w;
        for (int x = 0; x < w; x++)
            o[x] = 0.0f;
        for (int j = 0; j < 5; j++) {
            const float *row = in + (size_t)clampi(y + j - 2, 0, h - 1) * w;
            for (int i = 0; i < 5; i++) {
                float f = filt[j * 5 + i];
                for (int x = 0; x < 2; x++)
                    o[x] += f * row[clampi(x + i - 2, 0, w - 1)];
                for (int x = 2; x < w - 2; x++)
                    o[x] += f * row[x + i - 2];
                for (int x = w - 2; x < w; x++)
                    o[x] += f * row[clampi(x + i - 2, 0, w - 1)];
            }
        }
    }
}

/* ---- transpose: out (h x w... as w rows of h) = transpose of in (h rows of w), 16x16 blocks ---- */

void nat_transpose(const float *restrict in, float *restrict out, u32 w, u32 h)
{
#pragma omp parallel for schedule(static)
    for (u32 by = 0; by < h; by += 16)
        for (u32 bx = 0; bx < w; bx += 16)
            for (u32 x = bx; x < bx + 16; x++)
                for (u32 y = by; y < by + 16; y++)
                    out[(size_t)x * h + y] = in[(size_t)y * w + x];
}

/* ---- stream_int: c = a + s*b ---- */

void nat_stream(const float *restrict a, const float *restrict b, float *restrict c, float s, int n)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; i++)
        c[i] = a[i] + s * b[i];
}

/* ---- smooth: iterated 3-point smoothing within slices of `group` elements ---- */

void nat_smooth(const float *restrict in, float *restrict out, u32 n, u32 group, u32 iters)
{
#pragma omp parallel
    {
        float *a = malloc(group * sizeof(float));
        float *b = malloc(group * sizeof(float));
#pragma omp for schedule(static)
        for (u32 g = 0; g < n / group; g++) {
            memcpy(a, in + (size_t)g * group, group * sizeof(float));
            for (u32 it = 0; it < iters; it++) {
                b[0] = 0.25f * a[0] + 0.5f * a[0] + 0.25f * a[1];
                for (u32 l = 1; l + 1 < group; l++)
                    b[l] = 0.25f * a[l - 1] + 0.5f * a[l] + 0.25f * a[l + 1];
                b[group - 1] = 0.25f * a[group - 2] + 0.5f * a[group - 1] + 0.25f * a[group - 1];
                float *t = a;
                a = b;
                b = t;
            }
            memcpy(out + (size_t)g * group, a, group * sizeof(float));
        }
        free(a);
        free(b);
    }
}

void nat_collatz(const u32 *restrict start, u32 *restrict steps, u32 n)
{
#pragma omp parallel for schedule(dynamic, 4096)
    for (u32 i = 0; i < n; i++) {
        u64 x = start[i];
        u32 s = 0;
        while (x > 1) {
            x = (x & 1) ? 3 * x + 1 : x >> 1;
            s++;
        }
        steps[i] = s;
    }
}

// blur_image: 5x5 binomial blur of RGBA floats, edges clamped.
void nat_blur_image(const float *restrict in, float *restrict out, int w, int h)
{
    static const float wt[5] = {1.0f, 4.0f, 6.0f, 4.0f, 1.0f};
#pragma omp parallel for schedule(static)
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            for (int j = 0; j < 5; j++) {
                const float *row = in + (size_t)clampi(y + j - 2, 0, h - 1) * w * 4;
                for (int i = 0; i < 5; i++) {
                    const float *p = row + (size_t)clampi(x + i - 2, 0, w - 1) * 4;
                    float k = wt[j] * wt[i];
                    for (int c = 0; c < 4; c++)
                        s[c] += k * p[c];
                }
            }
            float *o = out + ((size_t)y * w + x) * 4;
            for (int c = 0; c < 4; c++)
                o[c] = s[c] * (1.0f / 256.0f);
        }
}
