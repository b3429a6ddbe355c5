// One N-body step: every body sums the softened gravitational pull of all
// bodies (rsqrt), then its velocity and position advance by dt.
// pos/vel are float4 (xyz, w = mass for pos).
kernel void nbody(global const float4 *restrict pos, global const float4 *restrict vel,
                  global float4 *restrict new_pos, global float4 *restrict new_vel,
                  uint n, float dt, float eps2)
{
    size_t i = get_global_id(0);
    float4 p = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (uint j = 0; j < n; j++) {
        float4 q = pos[j];
        float dx = q.x - p.x;
        float dy = q.y - p.y;
        float dz = q.z - p.z;
        float d2 = dx * dx + dy * dy + dz * dz + eps2;
        float inv = rsqrt(d2);
        float s = q.w * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
    }
    float4 v = vel[i];
    v.x += ax * dt;
    v.y += ay * dt;
    v.z += az * dt;
    new_vel[i] = v;
    new_pos[i] = (float4)(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
}
