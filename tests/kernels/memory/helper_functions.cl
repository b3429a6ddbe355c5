// Helper functions: a call chain (clamp_add -> scaled -> poly), functions
// taking global / private pointers (out-parameters, swap, array sum),
// returning a struct and a vector.
typedef struct {
    int lo;
    int hi;
} Range;

int poly(int x) { return x * x - 3 * x + 7; }

int scaled(int x, int k) { return poly(x) * k + poly(k); }

int clamp_add(int a, int b, Range r)
{
    int s = scaled(a, 2) + b;
    return s < r.lo ? r.lo : (s > r.hi ? r.hi : s);
}

void swap_int(int* a, int* b)
{
    int t = *a;
    *a = *b;
    *b = t;
}

void min_max(__global const int* p, int n, int* mn, int* mx)
{
    *mn = p[0];
    *mx = p[0];
    for (int k = 1; k < n; k++) {
        if (p[k] < *mn) *mn = p[k];
        if (p[k] > *mx) *mx = p[k];
    }
}

int sum_private(const int* a, int n)
{
    int s = 0;
    for (int k = 0; k < n; k++)
        s += a[k] * (k + 1);
    return s;
}

Range make_range(int a, int b)
{
    Range r;
    r.lo = min(a, b);
    r.hi = max(a, b);
    return r;
}

float4 lerp4(float4 a, float4 b, float t) { return a + (b - a) * t; }

__kernel void helper_functions(__global const int* in, __global int* out,
                               __global float4* fout)
{
    int i = (int)get_global_id(0);
    __global const int* row = in + 6 * i;
    int mn, mx;
    min_max(row, 6, &mn, &mx);
    int a = row[0], b = row[1];
    if (a > b)
        swap_int(&a, &b);
    int loc[4] = { row[2], row[3], row[4], row[5] };
    swap_int(&loc[0], &loc[3]);
    Range r = make_range(-500, 20 * i);
    out[5 * i + 0] = clamp_add(row[0], row[1], r);
    out[5 * i + 1] = mx - mn;
    out[5 * i + 2] = a * 1000 + b;
    out[5 * i + 3] = sum_private(loc, 4);
    out[5 * i + 4] = r.lo + r.hi;
    fout[i] = lerp4((float4)(a, b, mn, mx), (float4)(0.0f, 8.0f, -8.0f, 16.0f), 0.25f);
}
