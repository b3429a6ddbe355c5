// Arrays of structs in global memory: a struct with a float4 member (16-byte
// aligned, so the struct has padding) and a nested struct; read, updated in
// place and summarised.
typedef struct {
    short a;
    char b;
} Tag;

typedef struct {
    int id;
    float4 pos;
    Tag tag;
} Body;                      // id @0, pos @16, tag @32 (a @32, b @34), size 48

__kernel void struct_array(__global Body* bodies, const float dt,
                           __global float* dist, __global int* meta)
{
    int i = (int)get_global_id(0);
    Body b = bodies[i];
    float4 p = b.pos;
    float4 vel = (float4)(1.0f, -0.5f, 0.25f, 0.0f) * (float)b.tag.b;
    p += vel * dt;
    bodies[i].pos = p;
    bodies[i].tag.a = (short)(b.tag.a + b.id);
    dist[i] = p.x * p.x + p.y * p.y + p.z * p.z;
    meta[2 * i] = (int)sizeof(Body) * 100 + (int)sizeof(Tag);
    meta[2 * i + 1] = b.id * 10 + b.tag.b;
}
