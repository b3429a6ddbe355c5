// Importer: a byval struct arg containing a nested struct, an array and a vector.
typedef struct { int lo, hi; } range_t;
typedef struct { range_t r; float4 color; char tag[6]; } cfg_t;

kernel void byval_nested_struct(global float4 *out, cfg_t cfg) {
    int i = (int)get_global_id(0);
    if (i >= cfg.r.lo && i < cfg.r.hi)
        out[i] = cfg.color * (float)cfg.tag[i % 6];
}
