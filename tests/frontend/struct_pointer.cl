// Importer: structs through global pointers: nested field addresses, arrays inside structs.
typedef struct { int id; float w[3]; } inner_t;
typedef struct { short kind; inner_t in; long big; } outer_t;

kernel void struct_pointer(global outer_t *s, global float *out) {
    size_t i = get_global_id(0);
    global outer_t *p = &s[i];
    out[i] = p->in.w[0] + p->in.w[2] * (float)p->kind;
    p->big += p->in.id;
}
