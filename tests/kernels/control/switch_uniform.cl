// switch on a value that is uniform per work-group (group id and a kernel
// argument); each case holds divergent control flow.
__kernel void switch_uniform(__global const int *in, __global int *out, int mode)
{
    int i = get_global_id(0);
    int v = in[i];
    int r;
    switch ((get_group_id(0) + mode) % 5) {
    case 0:
        r = v;
        if (v & 1)
            r = 3 * v;
        break;
    case 1:
        r = 0;
        for (int k = 0; k < (v & 7); k++)
            r += k;
    case 2:
        r = (get_group_id(0) + mode) % 5 == 2 ? -v : r + 1000;
        break;
    case 3:
        r = v > 30 ? v - 30 : 30 - v;
        break;
    default:
        r = get_local_id(0) * 100 + v;
        break;
    }
    out[i] = r;
}
