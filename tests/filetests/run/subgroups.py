# Generates tests/filetests/run/subgroups.lir: IR kernels using subgroup
# collectives, with expected buffers computed here in Python.
import sys
W = 4
X = [5, 2, 7, 8, 3, 3, 10, 1, 6, 9, 4, 11]
K = 14

def i32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v >= 1 << 31 else v

def expected(global_size, local):
    out = [0] * (global_size * K)
    for g0 in range(0, global_size, local):
        n = min(local, global_size - g0)
        for s0 in range(0, n, W):
            lanes = list(range(s0, min(n, s0 + W)))
            xs = {l: X[g0 + l] for l in lanes}
            for l in lanes:
                gid = g0 + l
                lid = l - s0
                x = xs[l]
                o = out[gid * K:(gid + 1) * K]
                o[0] = sum(xs.values())
                o[1] = sum(xs[m] for m in lanes if m <= l)
                below = [xs[m] for m in lanes if m < l]
                o[2] = max(below) if below else -(1 << 31)
                odd = [m for m in lanes if xs[m] & 1]
                o[3] = sum(1 << (m - s0) for m in odd)
                o[4] = xs[s0 + (lid ^ 1)]
                o[5] = xs[s0 + 1]
                o[6] = int(len(odd) > 0)
                o[7] = int(len(odd) == len(lanes))
                pair = [m for m in lanes if (m - s0) // 2 == lid // 2]
                o[8] = sum(xs[m] for m in pair)
                if x & 1:
                    o[9] = sum(xs[m] for m in odd)
                    o[10] = sum(xs[m] for m in odd if m <= l)
                else:
                    even = [m for m in lanes if not xs[m] & 1]
                    o[9] = min(xs[m] for m in even)
                    o[10] = o[9]
                acc = 0
                for j in range(x & 3):
                    count = sum(1 for m in lanes if (xs[m] & 3) > j)
                    acc += (j + 1) * count
                o[11] = acc
                o[12] = len(lanes)
                o[13] = s0 // W + 100 * ((n + W - 1) // W)
                out[gid * K:(gid + 1) * K] = o
    return [i32(v) for v in out]

runs = []
for g, l in [(8, 8), (12, 6), (12, 12)]:
    xs = " ".join(map(str, X[:g]))
    exp = " ".join(map(str, expected(g, l)))
    runs.append("; run: @collectives global %d local %d width 4 (i32[%d], i32[%d] = %s) => arg0 = %s" % (g, l, g * K, g, xs, exp))

print("""test run
test verifier

; Subgroup collectives of scalar IR, run by the interpreter with subgroups
; of 4 work-items (`width 4`) as written, then after the pass pipeline for
; gangs of 4 (each linearization): the two must agree with the values
; computed by tests/filetests/run/subgroups.py. Per work-item, 14 results:
; the sum of x over its subgroup, the inclusive sum of x, the exclusive
; maximum (INT_MIN in the first lane), the ballot of the odd values, x of
; the neighbour lane (`lid ^ 1`), x of lane 1, whether any and whether all
; values are odd, the sum over the pair of lanes (a cluster of 2); in a
; divergent if, the sum and inclusive sum over the odd lanes, or the
; minimum over the even ones; the sum over a loop whose trip count
; (`x & 3`) differs between lanes of the subgroup's `reduce_add j + 1`
; (only the lanes still in the loop take part in iteration j); the
; subgroup's size, and its id plus 100 times the number of subgroups.
; Local size 6 leaves a subgroup of 2 in each group.""")
print("\n".join(runs))
print("""
kernel @collectives(ptr.global, ptr.global) {
    arg 0 "out" "int*" none none
    arg 1 "x" "int*" none none
block0(v0: ptr.global, v1: ptr.global):
    v2: i64 = global_id 0
    v3: i64 = iconst 4
    v4: i64 = imul v2, v3
    v5: ptr.global = ptradd v1, v4
    v6: i32 = load v5, align 4
    v7: i32 = sub_group reduce_add v6
    v8: i32 = sub_group scan_add v6
    v9: i32 = sub_group scan_excl_smax v6
    v10: i32 = iconst 1
    v11: i32 = band v6, v10
    v12: i1 = icmp eq v11, v10
    v13: i32 = sub_group ballot v12
    v14: i32 = sub_group_local_id
    v15: i32 = bxor v14, v10
    v16: i32 = sub_group shuffle v6, v15
    v17: i32 = sub_group broadcast v6, v10
    v18: i1 = sub_group any v12
    v19: i1 = sub_group all v12
    v20: i32 = zext v18
    v21: i32 = zext v19
    v22: i32 = iconst 2
    v23: i32 = sub_group reduce_add v6, v22
    v24: i64 = iconst 56
    v25: i64 = imul v2, v24
    v26: ptr.global = ptradd v0, v25
    store v7, v26, align 4
    v27: ptr.global = ptradd v26, v3
    store v8, v27, align 4
    v28: ptr.global = ptradd v27, v3
    store v9, v28, align 4
    v29: ptr.global = ptradd v28, v3
    store v13, v29, align 4
    v30: ptr.global = ptradd v29, v3
    store v16, v30, align 4
    v31: ptr.global = ptradd v30, v3
    store v17, v31, align 4
    v32: ptr.global = ptradd v31, v3
    store v20, v32, align 4
    v33: ptr.global = ptradd v32, v3
    store v21, v33, align 4
    v34: ptr.global = ptradd v33, v3
    store v23, v34, align 4
    v35: ptr.global = ptradd v34, v3
    brif v12, block1, block2
block1:
    v36: i32 = sub_group reduce_add v6
    v37: i32 = sub_group scan_add v6
    jump block3(v36, v37)
block2:
    v38: i32 = sub_group reduce_umin v6
    jump block3(v38, v38)
block3(v39: i32, v40: i32):
    store v39, v35, align 4
    v41: ptr.global = ptradd v35, v3
    store v40, v41, align 4
    v42: ptr.global = ptradd v41, v3
    v43: i32 = iconst 3
    v44: i32 = band v6, v43
    v45: i32 = iconst 0
    jump block4(v45, v45)
block4(v46: i32, v47: i32):
    v48: i1 = icmp slt v46, v44
    brif v48, block5, block6
block5:
    v49: i32 = iadd v46, v10
    v50: i32 = sub_group reduce_add v49
    v51: i32 = iadd v47, v50
    jump block4(v49, v51)
block6:
    store v47, v42, align 4
    v52: ptr.global = ptradd v42, v3
    v53: i32 = sub_group_size
    store v53, v52, align 4
    v54: ptr.global = ptradd v52, v3
    v55: i32 = sub_group_id
    v56: i32 = num_sub_groups
    v57: i32 = iconst 100
    v58: i32 = imul v56, v57
    v59: i32 = iadd v55, v58
    store v59, v54, align 4
    return
}""")
