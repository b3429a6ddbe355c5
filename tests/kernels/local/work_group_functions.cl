// OpenCL 2.0 work-group functions: reductions, inclusive and exclusive
// scans (signed, unsigned, float), broadcasts in 1D, all/any.
kernel void work_group_functions(global const int *in, global int *red,
                                 global int *scan_in, global int *scan_ex,
                                 global uint *umax_scan, global int *bcast,
                                 global int *allany, global float *fmin_red)
{
    size_t g = get_global_id(0);
    int x = in[g];
    int r = work_group_reduce_add(x);
    int mx = work_group_reduce_max(x);
    int mn = work_group_reduce_min(x);
    red[g] = r * 10000 + mx * 100 + mn;
    scan_in[g] = work_group_scan_inclusive_add(x);
    scan_ex[g] = work_group_scan_exclusive_min(x);
    umax_scan[g] = work_group_scan_inclusive_max((uint)x);
    bcast[g] = work_group_broadcast(x, (size_t)5);
    allany[g] = work_group_all(x > -50) * 2 + work_group_any(x == 7);
    fmin_red[g] = work_group_reduce_min((float)x * 0.5f);
}
