// Driver: generic address space pointers (CL3.0) via a helper taking an unqualified pointer,
// called with global and local pointers; to_global-free addrspace casts.
void bump(int *p, int v) { *p += v; }

kernel void generic_pointer(global int *g, local int *l, int sel) {
    size_t i = get_local_id(0);
    l[i] = (int)i;
    int *p = sel ? (int *)&g[i] : (int *)&l[i];
    bump(p, 7);
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    g[i] += l[i];
}
