"""Python references for tests/kernels/enqueue/ (OpenCL C 2.0 device-side
enqueue: blocks, ndranges, device events and markers, __local block
arguments, nesting, error codes).  Computed independently of Lockstep
(pocl has no device enqueue to cross-check on)."""
from simref import Kernel, buf, scalar, out
from refs_elementwise import rand_int

CATEGORY = "enqueue"

# The CLK_* codes (opencl-c-base.h).
CLK_INVALID_QUEUE = -102
CLK_INVALID_NDRANGE = -160
CLK_INVALID_EVENT_WAIT_LIST = -57
CLK_INVALID_ARG_SIZE = -51
CLK_OUT_OF_RESOURCES = -5
MAX_WORK_GROUP_SIZE = 4096


def k_enqueue_basic():
    n, mul = 16, 7
    res = [0] * (n * 4)
    for g in range(n):
        size = 1 + g % 4
        for i in range(size):
            res[g * 4 + i] = mul * g + i * 1000 + size * 100000
    return Kernel("enqueue_basic", "enqueue_basic", (n,), (8,), [
        out("out", "int", res, init="fill", fill_value=0),
        out("status", "int", [0] * n, init="fill", fill_value=-1),
        scalar("mul", "int", mul)])


def k_enqueue_events():
    n = 8
    res = []
    for g in range(n):
        a = g + 1
        b = [a * 2 + k for k in range(4)]
        res += [a] + b + [sum(b), -1, -1]
    return Kernel("enqueue_events", "enqueue_events", (n,), (4,), [
        out("out", "int", res, init="fill", fill_value=-1),
        out("status", "int", [0] * n, init="fill", fill_value=-1)])


def k_enqueue_local():
    groups = 4
    data = rand_int(900, groups * 8 * 2, -50, 50)
    sums = [0] * (groups * 2)
    for g in range(groups):
        for child_group in range(2):
            xs = range(g * 8 + child_group * 4, g * 8 + child_group * 4 + 4)
            s = sum(data[x * 2 + y] for x in xs for y in range(2))
            sums[g * 2 + child_group] = s * 10 + 2
    return Kernel("enqueue_local", "enqueue_local", (groups * 8,), (8,), [
        buf("in", "int", data),
        out("sums", "int", sums, init="fill", fill_value=0),
        out("status", "int", [0] * groups, init="fill", fill_value=-1)])


def k_enqueue_nested():
    # Depth 3: 4 work-items in 2 groups; each group's first work-item
    # enqueues 3 work-items in groups of 1 at the next depth.
    items = [0] * 4
    items[3] = 4
    groups = 2
    for depth in (2, 1, 0):
        items[depth] = groups * 3
        groups = items[depth]
    counts = [items[0], items[1], items[2], items[3], MAX_WORK_GROUP_SIZE, 1, 1, 0]
    return Kernel("enqueue_nested", "enqueue_nested", (4,), (2,), [
        out("counts", "int", counts, init="fill", fill_value=0)])


def k_enqueue_errors():
    res = [CLK_INVALID_QUEUE, CLK_INVALID_NDRANGE, CLK_INVALID_NDRANGE,
           CLK_INVALID_EVENT_WAIT_LIST, CLK_INVALID_EVENT_WAIT_LIST,
           CLK_INVALID_EVENT_WAIT_LIST, CLK_INVALID_ARG_SIZE, CLK_OUT_OF_RESOURCES,
           0, 1, 0, 0, 0, 0, 0, 1]
    return Kernel("enqueue_errors", "enqueue_errors", (1,), (1,), [
        out("out", "int", res, init="fill", fill_value=0),
        out("filled", "int", [1, 1, 0], init="fill", fill_value=0)])


def k_enqueue_printf():
    n = 5
    lines = ["parent done"]
    lines += ["first: item %d of %d" % (i, n) for i in range(2)]
    for step in (1, 2):
        lines += ["step %d: item %d" % (step, i) for i in range(2)]
    return Kernel("enqueue_printf", "enqueue_printf", (1,), (1,), [
        scalar("n", "int", n)], printf=lines)


def k_enqueue_nesting_limit():
    # The host's launch, then MAX_NESTING (1024) levels of children; the
    # last level's enqueue fails.
    return Kernel("enqueue_nesting_limit", "enqueue_nesting_limit", (1,), (1,), [
        out("depth", "int", [1 + 1024, CLK_OUT_OF_RESOURCES], init="fill", fill_value=0)])
