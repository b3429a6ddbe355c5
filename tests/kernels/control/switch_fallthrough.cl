// switch on a varying value: fall-through chains, a default placed in the
// middle that falls into the next case, a break inside an if; then a sparse
// switch (if-chain / lookup lowering).
__kernel void switch_fallthrough(__global const int *in, __global int *out, __global int *out2)
{
    int i = get_global_id(0);
    int v = in[i];
    int r = 0;
    switch (v % 8) {
    case 0:
        r += 1;
    case 1:
        r += 2;
        break;
    case 2:
    case 3:
        r += 4;
    case 4:
        r += 8;
        if (v > 40)
            break;
        r += 16;
    case 6:
        r *= 3;
        break;
    default:
        r = -v;
    case 7:
        r += 100;
    }
    out[i] = r;

    int s;
    switch (v) {
    case 3:    s = 30; break;
    case 17:   s = 170; break;
    case 42:   s = 420;
    case 99:   s = 990; break;
    case 1000: s = -1; break;
    default:   s = v & 5;
    }
    out2[i] = s;
}
