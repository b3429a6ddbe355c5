// A counted loop with continue and break under divergent conditions.
__kernel void break_continue(__global const int *data, __global const int *limit,
                             __global int *out, __global int *count)
{
    int i = get_global_id(0);
    int lim = limit[i];
    int sum = 0, n = 0;
    for (int k = 0; k < 32; k++) {
        int v = data[(i * 7 + k) & 127];
        if (v % 3 == 0)
            continue;
        if (v < 0) {
            sum -= 1;
            continue;
        }
        sum += v;
        n++;
        if (sum > lim)
            break;
        if (v == 13) {
            sum *= 2;
            break;
        }
    }
    out[i] = sum;
    count[i] = n;
}
