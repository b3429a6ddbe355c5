// An infinite loop left through three different breaks; values defined in
// the loop are live out of it and the exit taken is recorded.
__kernel void loop_multi_exit(__global const int *hay, __global const int *needle,
                              __global int *pos, __global int *kind)
{
    int i = get_global_id(0);
    int n = needle[i];
    int j = i % 8;
    int k;
    int budget = 40;
    while (1) {
        if (hay[j] == n) {
            k = 1;
            break;
        }
        if (hay[j] > n + 90) {
            k = 2;
            break;
        }
        j = (j + 5) & 63;
        if (--budget == 0) {
            k = 3;
            break;
        }
    }
    pos[i] = j;
    kind[i] = k;
}
