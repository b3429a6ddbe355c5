// Vector relational results (-1/0), select() using the MSB of vector masks,
// scalar select using != 0, the ?: operator with a vector condition, and
// any()/all() which test the MSB of each component.
__kernel void select_compare(__global const float4* a, __global const float4* b,
                             __global const int4* m, __global float4* sel,
                             __global int4* cmp, __global int* flags)
{
    int i = (int)get_global_id(0);
    float4 x = a[i];
    float4 y = b[i];
    int4 mk = m[i];
    sel[2 * i] = select(x, y, mk);
    sel[2 * i + 1] = (x > y) ? x : y * 2.0f;
    cmp[2 * i] = (isgreater(x, y) & 1) | (isequal(x, y) & 2) | ((x <= y) & 4)
                 | (islessgreater(x, y) & 8);
    cmp[2 * i + 1] = select((int4)(10, 20, 30, 40), (int4)(-1, -2, -3, -4), mk > 0)
                     + select((int4)(100), (int4)(200), mk);
    flags[i] = any(x > y) + 2 * all(x > (float4)(-100.0f)) + 4 * any(mk)
               + 8 * all(mk < 0) + 16 * select(0, 1, mk.x & 4)
               + 32 * any((int2)(mk.y, 0) & (int2)(0x40000000));
}
