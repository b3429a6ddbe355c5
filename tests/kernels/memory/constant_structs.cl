// A program-scope __constant array of structs (a material table) and a
// __constant scalar, looked up with data-dependent indices.
typedef struct {
    float density;
    float cost;
    int flags;
    int id;
} Material;

__constant Material materials[6] = {
    { 1.0f,   2.5f,  1, 100 },
    { 7.75f,  0.5f,  2, 101 },
    { 2.5f,   10.0f, 3, 102 },
    { 0.125f, 4.0f,  4, 103 },
    { 19.25f, 64.0f, 5, 104 },
    { 0.5f,   1.0f,  6, 105 },
};

__constant float volume_scale = 0.25f;

__kernel void constant_structs(__global const int* kind, __global const float* vol,
                               __global float* mass, __global int* tags)
{
    int i = (int)get_global_id(0);
    int k = kind[i] % 6;
    __constant Material* m = &materials[k];
    float v = vol[i] * volume_scale;
    mass[2 * i] = m->density * v;
    mass[2 * i + 1] = m->cost * v + materials[(k + 1) % 6].cost;
    tags[i] = m->id * 100 + (m->flags << 4) + k;
}
