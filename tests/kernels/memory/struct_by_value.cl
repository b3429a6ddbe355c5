// Structs passed by value as kernel arguments: a mixed float/int struct
// (given as raw 32-bit words in the .sim) and a struct with padding (given
// byte by byte: char at 0, short at 2, int at 4).
typedef struct {
    float scale;
    float offset;
    int mode;
    int count;
} Params;

typedef struct {
    char tag;
    short s;
    int v;
} Tagged;

__kernel void struct_by_value(__global const float* in, Params p, Tagged t,
                              __global float* out, __global int* info)
{
    int i = (int)get_global_id(0);
    float x = in[i];
    float r;
    if (p.mode == 0)
        r = x * p.scale + p.offset;
    else
        r = (x - p.offset) * p.scale;
    out[i] = (i < p.count) ? r : -1.0f;
    info[i] = (int)t.tag * 1000000 + (int)t.s * 100 + t.v + i;
}
