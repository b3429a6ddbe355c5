// Black-Scholes prices of European call and put options: log, sqrt, exp and
// a polynomial approximation of the cumulative normal distribution.
float cnd(float d)
{
    const float a1 = 0.319381530f, a2 = -0.356563782f, a3 = 1.781477937f,
                a4 = -1.821255978f, a5 = 1.330274429f;
    float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float c = 0.39894228040143267794f * exp(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - c : c;
}

kernel void blackscholes(global const float *restrict spot, global const float *restrict strike,
                         global const float *restrict years, global float *restrict call,
                         global float *restrict put, float rate, float vol)
{
    size_t i = get_global_id(0);
    float s = spot[i], x = strike[i], t = years[i];
    float sqrt_t = sqrt(t);
    float d1 = (log(s / x) + (rate + 0.5f * vol * vol) * t) / (vol * sqrt_t);
    float d2 = d1 - vol * sqrt_t;
    float disc = x * exp(-rate * t);
    float c1 = cnd(d1), c2 = cnd(d2);
    call[i] = s * c1 - disc * c2;
    put[i] = disc * (1.0f - c2) - s * (1.0f - c1);
}
