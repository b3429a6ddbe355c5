"""Independent Python references for tests/kernels/pipes/.

A pipe argument's value is the array of its initial packets (in the .sim's
element type), and a dumped pipe's result is what is left in it, oldest
first. Every kernel is written so that its dumped values do not depend on
the order in which work-items reach the pipe: counts of packets seen,
values scattered by an index they carry, and the packets a known number of
reads leaves behind (reservations take packets in order from the front).
"""
import numpy as np


def _ids(nd):
    return range(nd.gsize[0])


def pipe_consume(a, nd):
    packets = [int(x) for x in a["in"]]
    n = nd.gsize[0]
    read = min(n, len(packets))
    seen = [0] * 64
    for v in packets[:read]:
        seen[v] += 1
    return {"in": packets[read:], "seen": seen, "failed": [n - read]}


def pipe_reserve_read(a, nd):
    packets = [int(x) for x in a["in"]]
    taken = sum(g % 3 + 1 for g in _ids(nd))
    # at most 3 at a time from at least 4 left: no reservation fails
    assert taken + 3 <= len(packets) + 3 and len(packets) - taken >= 0
    seen = [0] * 100
    for v in packets[:taken]:
        seen[v - 100] += 1
    # no failed reservation, no failed read, no read past a reservation
    # succeeding, nothing through CLK_NULL_RESERVE_ID; the capacity is
    # the packets the pipe starts with
    return {"in": packets[taken:], "seen": seen, "status": [0, 0, 0, 0, len(packets)]}


def pipe_roundtrip(a, nd):
    return {"out": [], "seen": [1] * nd.gsize[0]}


def pipe_groups(a, nd):
    return {"out": [], "seen": [1] * nd.gsize[0], "failed": [0]}


def _signed(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def pipe_structs(a, nd):
    words = [int(x) for x in a["in"]]
    items = [words[i:i + 3] for i in range(0, len(words), 3)]
    n = nd.gsize[0]
    read = min(n, len(items))
    tags, sums = [0] * 40, [0] * 40
    for ident, packed, extra in items[:read]:
        tags[ident] = _signed(packed, 8)            # byte 4: tag
        value = _signed(packed >> 16, 16)           # bytes 6-7: value
        sums[ident] = value + extra
    rest = [w for item in items[read:] for w in item]
    return {"in": rest, "tags": tags, "sums": sums, "failed": [n - read]}


def pipe_vectors(a, nd):
    got4, got3 = [], []
    for g in _ids(nd):
        got4 += [np.float32(g + 1), np.float32(g + 0.5), np.float32(-g - 1), np.float32(g * 2.0 + 1)]
        got3 += [_signed(g, 8), _signed(-g, 8), 7, 1]
    return {"out4": [], "out3": [], "got4": got4, "got3": got3}


def pipe_full(a, nd):
    capacity, items = 10, nd.gsize[0]
    wrote = min(capacity, items)
    counts = [wrote, items - wrote,   # writes that succeeded, failed
              wrote, capacity,        # get_pipe_num_packets, get_pipe_max_packets
              0, 0, 0,                # reservations of 11 (write), 0 and 11 (read)
              wrote, items - wrote,   # reads that succeeded, failed
              0]                      # packets left
    return {"out": [], "counts": counts}


def pipe_reuse(a, nd):
    # at most one gang's packets (32) are in the pipe at once: no write
    # finds it full, and each read finds a packet
    return {"out": [], "seen": [1] * nd.gsize[0], "failed": [0, 0]}


def pipe_ring_room(a, nd):
    log = [0, 1,       # no room for 4; room for 3
           0, 0, 0,    # 102, 103, 104 written into the held reservation
           0,          # 3 packets are not all committed
           0]          # 6 is more than the pipe holds
    return {"out": [100, 101, 102, 103, 104], "log": log}


def pipe_ring_wrap(a, nd):
    log = [0, 0, 100, 101,  # both read, in order
           0,               # slot 0 is still being read
           1, 0, 0, 0, 0]   # room for 4 after the commit, round the ring
    return {"out": [102, 103, 104, 105], "log": log}


def pipe_ring_order(a, nd):
    log = [0, 0, 0, 0,  # 100 .. 103 written
           0]           # position 0 not committed, although 2 and 3 are
    return {"out": [100, 101, 102, 103], "log": log}
