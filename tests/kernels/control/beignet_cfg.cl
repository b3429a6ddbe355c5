// The Beignet seed's 5-block CFG: 1->2, 1->4, 2->3, 2->5 (the jump over
// block 4), 3->4, 4->5. Lanes take every path.
__kernel void beignet_cfg(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
    int x = in[i];
    int r = x;                  /* block 1 */
    if (x & 1)
        goto block4;
    r = r * 3 + 1;              /* block 2 */
    if (x & 2)
        goto block5;
    r = r - 7;                  /* block 3 */
block4:
    r = r * 2 + (x >> 2);       /* block 4 */
block5:
    out[i] = r + 1000;          /* block 5 */
}
