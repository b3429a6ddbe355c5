// Bitonic sort of 32 values per work-group in local memory; even groups
// sort ascending, odd groups descending.
__kernel void bitonic_local(__global const int *in, __global int *out)
{
    __local int a[32];
    int l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
    bool asc = (get_group_id(0) & 1) == 0;
    a[l] = in[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 2; k <= n; k <<= 1) {
        for (int j = k >> 1; j > 0; j >>= 1) {
            int p = l ^ j;
            if (p > l) {
                int x = a[l], y = a[p];
                bool up = ((l & k) == 0) == asc;
                if ((x > y) == up) {
                    a[l] = y;
                    a[p] = x;
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    out[g] = a[l];
}
