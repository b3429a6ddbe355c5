// shuffle / shuffle2: only the low log2(2n) bits of each mask element are
// used; result width follows the mask width.
__kernel void shuffle_test(__global const float4* a, __global const int8* b,
                           __global const uint8* m, __global float4* fout,
                           __global int8* iout, __global int* small)
{
    int i = (int)get_global_id(0);
    uint8 mk = m[i];
    float4 fa = a[i];
    fout[i] = shuffle(fa, mk.lo);
    int8 p = b[2 * i];
    int8 q = b[2 * i + 1];
    iout[2 * i] = shuffle2(p, q, mk);
    iout[2 * i + 1] = shuffle(p, mk ^ (uint8)(7u)) - shuffle2(q, p, mk.s76543210 + (uint8)(5u));
    float2 f2 = shuffle(fa, mk.s01);
    int16 wide = shuffle(p, (uint16)(mk, mk.s01234567 * (uint8)(3u)));
    small[2 * i] = (int)(f2.x * 8.0f) - (int)f2.y;
    small[2 * i + 1] = wide.s9 + wide.sf * 3;
}
