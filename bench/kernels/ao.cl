// Ambient occlusion of spheres on a ground plane: a primary ray per pixel
// (a loop over spheres with a divergent nearest-hit test), then at the hit
// point `samples` random hemisphere rays (direction by a rejection loop),
// each traced against every sphere and the plane until the first occluder.
// Divergence nests three deep: hit or miss, the rejection loop, the early
// exit of the occlusion test.

uint hash(uint x)
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

float next_rand(uint *state)
{
    *state = hash(*state);
    return (float)(*state >> 8) * (1.0f / 16777216.0f);
}

// Distance along a unit ray to sphere s (xyz centre, w radius), or -1.
float hit_sphere(float4 s, float3 o, float3 d)
{
    float3 oc = o - s.xyz;
    float b = dot(oc, d);
    float c = dot(oc, oc) - s.w * s.w;
    float disc = b * b - c;
    if (disc < 0.0f)
        return -1.0f;
    float t = -b - sqrt(disc);
    return t;
}

kernel void ao(global const float4 *restrict spheres, uint nspheres, uint samples,
               global float *restrict out)
{
    uint px = get_global_id(0), py = get_global_id(1);
    uint w = get_global_size(0), h = get_global_size(1);
    float3 o = (float3)(0.0f, 0.0f, 0.0f);
    float3 d = normalize((float3)(((float)px + 0.5f) / (float)w * 2.0f - 1.0f,
                                  (1.0f - ((float)py + 0.5f) / (float)h * 2.0f) * (float)h / (float)w,
                                  -1.0f));
    float best = 1e30f;
    float3 n = (float3)(0.0f, 1.0f, 0.0f);
    int kind = 0; // 0 sky, 1 sphere, 2 plane
    for (uint i = 0; i < nspheres; i++) {
        float4 s = spheres[i];
        float t = hit_sphere(s, o, d);
        if (t > 1e-4f && t < best) {
            best = t;
            n = (o + t * d - s.xyz) / s.w;
            kind = 1;
        }
    }
    if (d.y < 0.0f) {
        float t = -1.0f / d.y; // plane y = -1
        if (t < best) {
            best = t;
            n = (float3)(0.0f, 1.0f, 0.0f);
            kind = 2;
        }
    }
    float result = 0.0f;
    if (kind != 0) {
        float3 p = o + best * d + n * 1e-3f;
        uint state = hash(py * w + px + 1u);
        uint open = 0;
        for (uint k = 0; k < samples; k++) {
            float3 r;
            float len2;
            do {
                r.x = next_rand(&state) * 2.0f - 1.0f;
                r.y = next_rand(&state) * 2.0f - 1.0f;
                r.z = next_rand(&state) * 2.0f - 1.0f;
                len2 = dot(r, r);
            } while (len2 > 1.0f || len2 < 1e-6f);
            r = r * rsqrt(len2);
            if (dot(r, n) < 0.0f)
                r = -r;
            bool blocked = false;
            if (r.y < 0.0f && p.y + 1.0f < 4.0f * -r.y)
                blocked = true; // the plane within 4 units
            for (uint i = 0; i < nspheres && !blocked; i++) {
                float t = hit_sphere(spheres[i], p, r);
                if (t > 0.0f && t < 4.0f)
                    blocked = true;
            }
            if (!blocked)
                open++;
        }
        result = (float)open / (float)samples;
    }
    out[py * w + px] = result;
}
