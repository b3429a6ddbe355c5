// Strided accesses: consecutive addresses 2, 3 or 4 elements apart (pairs
// of ints, triples of doubles, quadruples of floats, read and written a field
// at a time), in groups of 20 (a partial gang) with every fifth work-item
// idle: the elements no active work-item writes stay as they were.
kernel void strided_access(global const int *pairs, global const double *triples,
                           global const float *quads, global int *pair_out,
                           global double *triple_out, global float *quad_out)
{
    size_t i = get_global_id(0);
    if (i % 5 == 3)
        return;
    int a = pairs[2 * i], b = pairs[2 * i + 1];
    pair_out[2 * i] = a + b;
    pair_out[2 * i + 1] = a - b;
    double x = triples[3 * i], y = triples[3 * i + 1], z = triples[3 * i + 2];
    triple_out[3 * i + 1] = x * y + z;
    float s = quads[4 * i] + 2.0f * quads[4 * i + 1] + 3.0f * quads[4 * i + 2] +
              4.0f * quads[4 * i + 3];
    quad_out[4 * i + 2] = s;
}
