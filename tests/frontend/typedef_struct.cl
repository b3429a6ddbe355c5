// Driver: typedefs of scalars and structs, struct field access through a global pointer.
typedef float real;
typedef struct {
    real x, y;
    int tag;
} point_t;

kernel void typedef_struct(global point_t *pts, global real *out) {
    size_t i = get_global_id(0);
    point_t p = pts[i];
    out[i] = p.tag ? p.x * p.y : p.x + p.y;
}
