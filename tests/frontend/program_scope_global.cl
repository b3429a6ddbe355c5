// Importer: program-scope __global variables (CL3.0): a zero-initialized counter and an initialized table.
global int counter;
global float weights[4] = {0.25f, 0.5f, 1.0f, 2.0f};

kernel void program_scope_global(global float *out) {
    size_t i = get_global_id(0);
    out[i] *= weights[i & 3];
    if (i == 0)
        counter += 1;
}
