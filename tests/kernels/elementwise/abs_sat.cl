// abs / abs_diff (unsigned results) and saturating add_sat / sub_sat for
// char, uchar, short, ushort, int, uint.
__kernel void abs_sat(__global const int* a, __global const int* b,
                      __global int* res, __global uint* ures)
{
    int i = (int)get_global_id(0);
    int x = a[i];
    int y = b[i];
    char cx = (char)x, cy = (char)y;
    uchar ux = (uchar)x, uy = (uchar)y;
    short sx = (short)x, sy = (short)y;
    ushort usx = (ushort)x, usy = (ushort)y;
    res[8 * i + 0] = add_sat(cx, cy);
    res[8 * i + 1] = sub_sat(cx, cy);
    res[8 * i + 2] = add_sat(ux, uy);
    res[8 * i + 3] = sub_sat(ux, uy);
    res[8 * i + 4] = add_sat(sx, sy);
    res[8 * i + 5] = sub_sat(usx, usy);
    res[8 * i + 6] = add_sat(x, y);
    res[8 * i + 7] = sub_sat(x, y);
    ures[5 * i + 0] = abs(x);
    ures[5 * i + 1] = abs_diff(x, y);
    ures[5 * i + 2] = abs(cx) + 1000u * abs_diff(cx, cy);
    ures[5 * i + 3] = add_sat((uint)x, (uint)y);
    ures[5 * i + 4] = sub_sat((uint)x, (uint)y);
}
