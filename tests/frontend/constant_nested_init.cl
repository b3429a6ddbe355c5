// Importer: program-scope __constant data: nested initializers and pointers to other constants (relocs).
typedef struct { short a; char b[3]; int c; } rec_t;
constant rec_t recs[2] = { {1, {2, 3, 4}, 0x01020304}, {-1, "xy", -5} };
constant int primes[4] = {2, 3, 5, 7};
constant int squares[4] = {0, 1, 4, 9};
constant int *constant lists[2] = {primes, &squares[1]};

kernel void constant_nested_init(global int *out, int k) {
    size_t i = get_global_id(0);
    out[i] = lists[k & 1][i & 3] + recs[k & 1].c + recs[i & 1].b[k & 1];
}
