// Importer: a loop whose closed-form sum LLVM computes in odd-width (i33) integers.
kernel void odd_width_trip_count(global int *out, int n) {
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += i;
    out[get_global_id(0)] = sum;
}
