// One compare-exchange step of a bitonic sorting network over n = 2^k uints
// (ascending): the host launches it for every (stage, pass), n/2 work-items
// each owning one pair.
kernel void bitonic_step(global uint *data, uint stage, uint pass)
{
    uint t = get_global_id(0);
    uint dist = 1u << pass;
    uint lo = ((t >> pass) << (pass + 1)) | (t & (dist - 1));
    uint hi = lo + dist;
    bool ascending = ((lo >> (stage + 1)) & 1) == 0;
    uint a = data[lo], b = data[hi];
    if ((a > b) == ascending) {
        data[lo] = b;
        data[hi] = a;
    }
}
