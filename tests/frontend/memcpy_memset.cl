// Importer: memcpy for a large struct copy and memset/array initialization in private memory.
typedef struct { int v[12]; } blob_t;

kernel void memcpy_memset(global blob_t *dst, global const blob_t *src, global int *out, int k) {
    size_t i = get_global_id(0);
    dst[i] = src[i];
    int arr[16] = {0};
    arr[k & 15] = k;
    int sum = 0;
    for (int j = 0; j < 16; j += 5)
        sum += arr[(j + k) & 15];
    out[i] = sum;
}
