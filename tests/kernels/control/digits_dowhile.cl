// do-while with a lane-dependent trip count (number of decimal digits).
__kernel void digits_dowhile(__global const uint *in, __global uint *rev, __global uint *ndig)
{
    uint i = get_global_id(0);
    uint v = in[i], r = 0, n = 0;
    do {
        r = r * 10 + v % 10;
        v /= 10;
        n++;
    } while (v != 0);
    rev[i] = r;
    ndig[i] = n;
}
