// Signed/unsigned division and remainder (truncation toward zero, sign of the
// remainder follows the dividend), arithmetic vs logical right shifts and
// shift counts taken modulo the bit width (OpenCL rule).
__kernel void int_divmod_shift(__global const int* num, __global const int* den,
                               __global const int* sh, __global int* q,
                               __global int* r, __global uint* uq,
                               __global int* shifts)
{
    int i = (int)get_global_id(0);
    int n = num[i];
    int d = den[i];
    q[i] = n / d;
    r[i] = n % d;
    uint un = (uint)n;
    uint ud = (uint)(d < 0 ? -d : d);
    uq[2 * i + 0] = un / ud;
    uq[2 * i + 1] = un % ud;
    int s = sh[i];
    shifts[4 * i + 0] = n >> s;             // arithmetic shift, count mod 32
    shifts[4 * i + 1] = (int)(un >> s);     // logical shift
    shifts[4 * i + 2] = (int)(un << s);      // count mod 32
    shifts[4 * i + 3] = (int)((uint)d << (s + 32)); // (s + 32) mod 32 == s
}
