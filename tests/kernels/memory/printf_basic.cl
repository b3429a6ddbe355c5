// printf from a single work-item (so the output order is defined): integer,
// floating-point, character, string, long and vector conversions with flags,
// field widths and precisions.
__kernel void printf_basic(__global const int* in, __global int* out)
{
    int gid = (int)get_global_id(0);
    out[gid] = in[gid] * 3 - 1;
    if (gid == 5) {
        printf("gid=%d lid=%d grp=%d\n", gid, (int)get_local_id(0), (int)get_group_id(0));
        printf("int: %d %i %u %x %X %o [%5d] [%-5d] [%05d] [%+d]\n",
               -42, in[gid], 4000000000u, 255, 48879, 8, 7, 7, 7, 9);
        printf("float: %f %.3f %e %g %G [%10.4f] %.0f\n",
               1.5f, 3.14159f, 12345.678f, 0.0001f, 1e-10f, -2.5f, 2.5f);
        printf("char: %c%c%c str: %s [%8s]\n", 'O', 'K', '!', "hello", "pad");
        printf("long: %ld %lu %lx\n", -1234567890123L, 18446744073709551615UL, 0xdeadbeefcafeUL);
        printf("percent: 100%%\n");
        printf("vec: %v4hld | %v2hlf | %v4hhd\n", (int4)(1, 2, 3, 4),
               (float2)(0.5f, -1.25f), (char4)(-1, 2, -3, 4));
    }
}
