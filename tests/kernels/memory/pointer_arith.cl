// Pointer arithmetic on global memory: byte views of an int buffer
// (little-endian), negative indices from an offset pointer, pointer
// differences, pointer comparison loops and pointers to struct members.
typedef struct {
    int key;
    int val;
} Pair;

__kernel void pointer_arith(__global const int* words, __global Pair* pairs,
                            __global int* out)
{
    int i = (int)get_global_id(0);
    __global const uchar* bytes = (__global const uchar*)words;
    __global const int* p = words + 4 * i + 2;
    int b = (int)(bytes[16 * i] + ((uint)bytes[16 * i + 1] << 8) + ((uint)bytes[16 * i + 3] << 24));
    int neg = (int)((uint)p[-1] - (uint)p[-2]);
    __global const int* end = words + 4 * i + 4;
    int cnt = 0;
    uint s = 0;
    for (__global const int* q = words + 4 * i; q < end; q++) {
        s += (uint)*q;
        cnt++;
    }
    __global Pair* pp = pairs + i;
    __global int* vp = &pp->val;
    *vp += pp->key;
    __global int* kp = &pairs[i].key;
    out[5 * i + 0] = b;
    out[5 * i + 1] = neg;
    out[5 * i + 2] = (int)(end - p) * 100 + cnt;
    out[5 * i + 3] = (int)s;
    out[5 * i + 4] = (int)((__global char*)vp - (__global char*)kp) + *kp * 10;
}
