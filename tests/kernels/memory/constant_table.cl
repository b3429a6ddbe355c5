// Program-scope __constant tables: a nibble-wise CRC-32 table driving a loop
// over 8 input bytes per work-item, and a float weight table indexed by
// data-dependent and work-item-dependent indices.
__constant uint crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu,
    0x76DC4190u, 0x6B6B51F4u, 0x4DB26158u, 0x5005713Cu,
    0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu
};

__constant float weights[8] = { 0.5f, 1.25f, -2.0f, 3.5f, 0.125f, -0.75f, 8.0f, 1.0f };

__kernel void constant_table(__global const uchar* data, __global uint* crc,
                             __global float* wsum)
{
    int i = (int)get_global_id(0);
    uint c = 0xFFFFFFFFu;
    float acc = 0.0f;
    for (int k = 0; k < 8; k++) {
        uchar b = data[8 * i + k];
        c ^= b;
        c = (c >> 4) ^ crc_nibble[c & 15u];
        c = (c >> 4) ^ crc_nibble[c & 15u];
        acc += weights[b & 7] * (float)(k + 1);
    }
    crc[i] = ~c;
    wsum[i] = acc * weights[i & 7];
}
