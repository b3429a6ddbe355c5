// Private arrays: filled from global memory, indexed by loop counters
// (insertion sort), by data-dependent indices (histogram) and by the
// work-item id (dynamic index into a per-item table).
#define M 8
__kernel void private_array(__global const int* in, __global int* sorted,
                            __global int* stats)
{
    int i = (int)get_global_id(0);
    int v[M];
    int hist[4] = {0, 0, 0, 0};
    int pick[8];
    for (int k = 0; k < M; k++) {
        v[k] = in[M * i + k];
        hist[v[k] & 3]++;
    }
    for (int k = 0; k < 8; k++)
        pick[k] = (k + 1) * (i + 1);
    // insertion sort
    for (int k = 1; k < M; k++) {
        int key = v[k];
        int j = k - 1;
        while (j >= 0 && v[j] > key) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = key;
    }
    for (int k = 0; k < M; k++)
        sorted[M * i + k] = v[k];
    stats[4 * i + 0] = v[M / 2] + v[M / 2 - 1];           // 2 * median
    stats[4 * i + 1] = hist[0] + 10 * hist[1] + 100 * hist[2] + 1000 * hist[3];
    stats[4 * i + 2] = pick[i % 8] - pick[(i + 3) & 7];
    stats[4 * i + 3] = v[M - 1] - v[0];
}
