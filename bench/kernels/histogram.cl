// 256-bin histogram of bytes. histogram_local: each work-group counts its
// slice into a local histogram with local atomics and writes it to its row
// of `partial`; histogram_merge: one work-item per bin sums the rows.
#define BINS 256

kernel void histogram_local(global const uint *restrict words, uint nwords,
                            global uint *restrict partial)
{
    local uint hist[BINS];
    uint lid = get_local_id(0);
    for (uint b = lid; b < BINS; b += get_local_size(0))
        hist[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t i = get_global_id(0); i < nwords; i += get_global_size(0)) {
        uint w = words[i];
        atomic_inc(&hist[w & 0xff]);
        atomic_inc(&hist[(w >> 8) & 0xff]);
        atomic_inc(&hist[(w >> 16) & 0xff]);
        atomic_inc(&hist[w >> 24]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    global uint *row = partial + get_group_id(0) * BINS;
    for (uint b = lid; b < BINS; b += get_local_size(0))
        row[b] = hist[b];
}

kernel void histogram_merge(global const uint *restrict partial, uint rows,
                            global uint *restrict hist)
{
    uint b = get_global_id(0);
    uint sum = 0;
    for (uint r = 0; r < rows; r++)
        sum += partial[r * BINS + b];
    hist[b] = sum;
}
