// Importer: constant expressions: the address of a field of an element of a __constant struct table.
typedef struct { int key; float val[2]; } entry_t;
constant entry_t table[3] = { {1, {0.5f, 1.5f}}, {2, {2.5f, 3.5f}}, {3, {4.5f, 5.5f}} };

float read_val(constant float *p, int j) { return p[j]; }

kernel void constexpr_field_address(global float *out, int j) {
    size_t i = get_global_id(0);
    out[i] = read_val(&table[1].val[0], j & 1) + read_val(table[2].val, 1);
}
