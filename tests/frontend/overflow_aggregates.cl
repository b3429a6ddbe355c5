// Importer: {iN, i1} aggregates from llvm.*.with.overflow (extractvalue of both fields):
// __builtin_sadd/usub/smul/umull_overflow, and cmpxchg's {old, success} pair.
kernel void overflow_aggregates(global int *out, global ulong *w, global int *lock) {
    size_t i = get_global_id(0);
    int a = out[i], b = out[i + 1], r1, r2, r3;
    ulong r4;
    int f = __builtin_sadd_overflow(a, b, &r1);
    f |= __builtin_usub_overflow((uint)a, (uint)b, (uint *)&r2) << 1;
    f |= __builtin_smul_overflow(a, b, &r3) << 2;
    f |= __builtin_umull_overflow(w[i], w[i + 1], &r4) << 3;
    int old = atomic_cmpxchg(lock, 0, 1);
    out[i] = r1 + r2 + r3 + f + old;
    w[i] = r4;
}
