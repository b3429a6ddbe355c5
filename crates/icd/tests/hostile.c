/* Hostile use of the OpenCL API, one case per command-line argument
 * (`hostile rect_wrap`, ...), run by reliability.rs on the Lockstep
 * platform: arithmetic that wraps, opposite lock orders on several
 * threads, kernels that print huge fields, options that reach the
 * preprocessor, stale headers. Prints "OK" and exits 0 when the case
 * passes; a hang is turned into a failure by an alarm. */

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static cl_platform_id platform;
static cl_device_id dev;
static cl_context ctx;

static void setup(void) {
    platform = find_lockstep();
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &dev, NULL));
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    OK(err);
}

static cl_command_queue new_queue(void) {
    cl_int err;
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    OK(err);
    return q;
}

static cl_mem new_buffer(size_t size) {
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    OK(err);
    return m;
}

/* Builds `src` with `opts`; returns the error (the program in *out). */
static cl_int try_build(const char *src, const char *opts, cl_program *out) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    OK(err);
    err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
    if (out)
        *out = p;
    else
        clReleaseProgram(p);
    return err;
}

static cl_program build(const char *src, const char *opts) {
    cl_program p;
    cl_int err = try_build(src, opts, &p);
    if (err != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "FAIL: build failed (%d): %s\n", err, log);
        exit(1);
    }
    return p;
}

/* Rect commands whose origin/region arithmetic wraps around: an origin of
 * -32 (as size_t) and a region of 48 on a 256-byte buffer would touch the
 * 32 bytes before the buffer. */
static void rect_wrap(void) {
    cl_command_queue q = new_queue();
    cl_mem a = new_buffer(256), b = new_buffer(256);
    unsigned char host[512];
    memset(host, 0x5a, sizeof host);
    size_t zero[3] = {0, 0, 0};
    size_t wrap[3] = {(size_t)-32, 0, 0};
    size_t region[3] = {48, 1, 1};
    EXPECT_ERR(clEnqueueWriteBufferRect(q, a, CL_TRUE, wrap, zero, region, 0, 0, 0, 0, host, 0,
                                        NULL, NULL),
               CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadBufferRect(q, a, CL_TRUE, wrap, zero, region, 0, 0, 0, 0, host, 0,
                                       NULL, NULL),
               CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueCopyBufferRect(q, a, b, wrap, zero, region, 0, 0, 0, 0, 0, NULL, NULL),
               CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueCopyBufferRect(q, a, b, zero, wrap, region, 0, 0, 0, 0, 0, NULL, NULL),
               CL_INVALID_VALUE);
    /* Wrapping through the row and slice terms. */
    size_t wrap_y[3] = {0, SIZE_MAX / 16 + 1, 0};
    size_t small[3] = {16, 1, 1};
    EXPECT_ERR(clEnqueueWriteBufferRect(q, a, CL_TRUE, wrap_y, zero, small, 16, 0, 0, 0, host,
                                        0, NULL, NULL),
               CL_INVALID_VALUE);
    size_t wrap_z[3] = {0, 0, SIZE_MAX / 64 + 1};
    EXPECT_ERR(clEnqueueReadBufferRect(q, a, CL_TRUE, wrap_z, zero, small, 16, 64, 0, 0, host,
                                       0, NULL, NULL),
               CL_INVALID_VALUE);
    size_t huge_region[3] = {16, SIZE_MAX / 8, 9};
    EXPECT_ERR(clEnqueueReadBufferRect(q, a, CL_TRUE, zero, zero, huge_region, 16, 0, 0, 0,
                                       host, 0, NULL, NULL),
               CL_INVALID_VALUE);
    /* The host side wraps. */
    EXPECT_ERR(clEnqueueReadBufferRect(q, a, CL_TRUE, zero, wrap, region, 0, 0, 0, 0, host, 0,
                                       NULL, NULL),
               CL_INVALID_VALUE);
    /* A legal rect still works. */
    size_t origin[3] = {8, 1, 0}, r[3] = {8, 2, 1};
    OK(clEnqueueWriteBufferRect(q, a, CL_TRUE, origin, zero, r, 32, 0, 8, 0, host, 0, NULL,
                                NULL));
    unsigned char back[256];
    OK(clEnqueueReadBuffer(q, a, CL_TRUE, 0, 256, back, 0, NULL, NULL));
    CHECK(back[40] == 0x5a && back[72] == 0x5a && back[39] == 0 && back[48] == 0, "rect write");
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
}

static cl_mem shared_a, shared_b;
static cl_program pair_program;

static void *copy_loop(void *arg) {
    int flip = (int)(intptr_t)arg;
    cl_command_queue q = new_queue();
    for (int i = 0; i < 3000; i++) {
        cl_mem src = flip ? shared_b : shared_a, dst = flip ? shared_a : shared_b;
        OK(clEnqueueCopyBuffer(q, src, dst, 0, 0, 1 << 16, 0, NULL, NULL));
        if (i % 64 == 0) OK(clFinish(q));
    }
    OK(clFinish(q));
    clReleaseCommandQueue(q);
    return NULL;
}

static void *kernel_loop(void *arg) {
    int flip = (int)(intptr_t)arg;
    cl_command_queue q = new_queue();
    cl_int err;
    cl_kernel k = clCreateKernel(pair_program, "pair", &err);
    OK(err);
    cl_mem x = flip ? shared_b : shared_a, y = flip ? shared_a : shared_b;
    OK(clSetKernelArg(k, 0, sizeof x, &x));
    OK(clSetKernelArg(k, 1, sizeof y, &y));
    size_t global = 1024;
    for (int i = 0; i < 400; i++) OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    OK(clFinish(q));
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    return NULL;
}

static void run_pairs(void *(*body)(void *)) {
    enum { N = 4 };
    pthread_t t[N];
    for (int i = 0; i < N; i++) pthread_create(&t[i], NULL, body, (void *)(intptr_t)(i & 1));
    for (int i = 0; i < N; i++) pthread_join(t[i], NULL);
}

/* Threads copying A→B and B→A, and launching k(A,B) and k(B,A), on
 * separate queues: buffers locked in argument order deadlock. */
static void opposite_orders(void) {
    shared_a = new_buffer(1 << 16);
    shared_b = new_buffer(1 << 16);
    run_pairs(copy_loop);
    pair_program = build("kernel void pair(global int *x, global int *y) {\n"
                         "    size_t i = get_global_id(0);\n"
                         "    y[i] = x[i] + 1;\n"
                         "}\n",
                         "");
    run_pairs(kernel_loop);
    /* The same buffer twice in one launch. */
    cl_command_queue q = new_queue();
    cl_int err;
    cl_kernel k = clCreateKernel(pair_program, "pair", &err);
    OK(err);
    OK(clSetKernelArg(k, 0, sizeof shared_a, &shared_a));
    OK(clSetKernelArg(k, 1, sizeof shared_a, &shared_a));
    size_t global = 1024;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    OK(clFinish(q));
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    clReleaseProgram(pair_program);
    clReleaseMemObject(shared_a);
    clReleaseMemObject(shared_b);
}

/* printf with a 70000-digit precision: formatted, the process lives. */
static void printf_huge(void) {
    cl_program p = build("kernel void big(global float *x) {\n"
                         "    printf(\"<%.70000f>\\n\", x[0]);\n"
                         "    x[1] = 2.0f;\n"
                         "}\n",
                         "");
    cl_int err;
    cl_kernel k = clCreateKernel(p, "big", &err);
    OK(err);
    float init[2] = {1.5f, 0.0f};
    cl_mem x = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
    OK(err);
    OK(clSetKernelArg(k, 0, sizeof x, &x));
    cl_command_queue q = new_queue();
    size_t one = 1;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
    float back[2];
    OK(clEnqueueReadBuffer(q, x, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    CHECK(back[1] == 2.0f, "the kernel ran: %f", back[1]);
    clReleaseMemObject(x);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
}

/* Runs kernel `k` of `p` on one work-item; the int it writes. */
static int run_int_kernel(cl_program p) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    OK(err);
    cl_mem out = new_buffer(sizeof(int));
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    cl_command_queue q = new_queue();
    size_t one = 1;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
    int v = -1;
    OK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof v, &v, 0, NULL, NULL));
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseCommandQueue(q);
    return v;
}

/* A header included with -I changes between two builds of the same
 * source and options: the second program runs the new code (in this
 * process, and from the disk cache in the next; run it twice). */
static void header_changes(void) {
    const char *dir = getenv("HOSTILE_DIR");
    if (!dir) {
        fprintf(stderr, "FAIL: HOSTILE_DIR is not set\n");
        exit(1);
    }
    char header[4096], opts[4096];
    snprintf(header, sizeof header, "%s/value.h", dir);
    snprintf(opts, sizeof opts, "-I %s", dir);
    const char *src = "#include \"value.h\"\n"
                      "kernel void k(global int *out) { out[0] = VALUE; }\n";
    for (int value = 1; value <= 3; value++) {
        FILE *f = fopen(header, "w");
        CHECK(f != NULL, "writing %s", header);
        fprintf(f, "#define VALUE %d\n", value);
        fclose(f);
        cl_program p = build(src, opts);
        int got = run_int_kernel(p);
        CHECK(got == value, "header says %d, the kernel wrote %d", value, got);
        clReleaseProgram(p);
    }
}

/* Build options that would hand the preprocessor a file to write or read,
 * and an unknown OpenCL C version: CL_INVALID_BUILD_OPTIONS, nothing
 * written. */
static void build_options(void) {
    const char *dir = getenv("HOSTILE_DIR");
    if (!dir) {
        fprintf(stderr, "FAIL: HOSTILE_DIR is not set\n");
        exit(1);
    }
    const char *src = "kernel void k(global int *out) { out[0] = 1; }\n";
    char opts[4096], written[4096];
    snprintf(written, sizeof written, "%s/deps.d", dir);
    const char *patterns[] = {"-Wp,-MD,%s", "-Wp,-include,%s", "-include %s", "-MD -MF %s",
                              "-Wl,-o,%s", "-o %s", "-Xclang -dependency-file -Xclang %s"};
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
        snprintf(opts, sizeof opts, patterns[i], written);
        cl_int err = try_build(src, opts, NULL);
        CHECK(err == CL_INVALID_BUILD_OPTIONS, "'%s' gave %d", opts, err);
        CHECK(access(written, F_OK) != 0, "'%s' wrote %s", opts, written);
    }
    EXPECT_ERR(try_build(src, "-cl-std=CL9.9", NULL), CL_INVALID_BUILD_OPTIONS);
    /* Vetted options still build. */
    CHECK(try_build(src, "-DX=1 -w -Werror -Wall -cl-std=CL1.2 -cl-mad-enable", NULL) == CL_SUCCESS,
          "vetted options");
}

/* The largest buffer the device allows is created at once (zero pages from
 * the OS, not written up front) and reads back zeros; one byte more is
 * CL_INVALID_BUFFER_SIZE. */
static void big_buffer(void) {
    cl_ulong max = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max, &max, NULL));
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)max, NULL, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    OK(err);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
    CHECK(seconds < 0.5, "creating %llu bytes took %.2f s", (unsigned long long)max, seconds);
    cl_command_queue q = new_queue();
    unsigned char tail[64];
    memset(tail, 0xff, sizeof tail);
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, (size_t)max - sizeof tail, sizeof tail, tail, 0, NULL,
                           NULL));
    for (size_t i = 0; i < sizeof tail; i++) CHECK(tail[i] == 0, "byte %zu is %d", i, tail[i]);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)max + 1, NULL, &err);
    CHECK(m == NULL && err == CL_INVALID_BUFFER_SIZE, "max + 1 gave %d", err);
}

/* A buffer smaller than one element of the pointee type binds and runs
 * (4 bytes on a float4* whose kernel reads .x), as on pocl and Intel. */
static void small_buffer(void) {
    cl_program p = build("kernel void k(global float4 *v, global float *out) {\n"
                         "    out[get_global_id(0)] = v[0].x + 1.0f;\n"
                         "}\n",
                         "");
    cl_int err;
    cl_kernel k = clCreateKernel(p, "k", &err);
    OK(err);
    float x = 2.5f, out[8] = {0};
    cl_mem small = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof x, &x, &err);
    OK(err);
    cl_mem o = new_buffer(sizeof out);
    OK(clSetKernelArg(k, 0, sizeof small, &small));
    OK(clSetKernelArg(k, 1, sizeof o, &o));
    cl_command_queue q = new_queue();
    size_t global = 8;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, o, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < 8; i++) CHECK(out[i] == 3.5f, "out[%d] = %f", i, out[i]);
    clReleaseMemObject(small);
    clReleaseMemObject(o);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: hostile CASE\n");
        return 2;
    }
    alarm(120);
    setup();
    const char *c = argv[1];
    if (!strcmp(c, "rect_wrap"))
        rect_wrap();
    else if (!strcmp(c, "opposite_orders"))
        opposite_orders();
    else if (!strcmp(c, "printf_huge"))
        printf_huge();
    else if (!strcmp(c, "header_changes"))
        header_changes();
    else if (!strcmp(c, "build_options"))
        build_options();
    else if (!strcmp(c, "big_buffer"))
        big_buffer();
    else if (!strcmp(c, "small_buffer"))
        small_buffer();
    else {
        fprintf(stderr, "unknown case %s\n", c);
        return 2;
    }
    clReleaseContext(ctx);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("OK\n");
    return 0;
}
