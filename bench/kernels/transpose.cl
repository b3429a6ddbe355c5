// out = transpose(in) for a w x h row-major matrix (w, h multiples of T):
// each T x T work-group reads a tile row by row, and writes it back column
// by column through local memory, so that both global accesses are
// consecutive; the padding column keeps the column reads off one bank.
#define T 16

kernel void transpose(global const float *restrict in, global float *restrict out, uint w,
                      uint h)
{
    local float tile[T][T + 1];
    uint lx = get_local_id(0), ly = get_local_id(1);
    uint bx = get_group_id(0) * T, by = get_group_id(1) * T;
    tile[ly][lx] = in[(by + ly) * w + bx + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(bx + ly) * h + by + lx] = tile[lx][ly];
}
