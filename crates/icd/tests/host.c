/* An OpenCL host program built against the Khronos headers and the ICD
 * loader (-lOpenCL), run on the Lockstep platform (selected by name):
 * buffers of every kind, kernels with local memory, events, binaries,
 * separate compilation, and the error codes of bad arguments.
 * Prints "ALL OK" and exits 0 when every check passes. */

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char *SOURCE =
    "kernel void vadd(global const float *a, global const float *b, global float *c) {\n"
    "    size_t i = get_global_id(0);\n"
    "    c[i] = a[i] + b[i];\n"
    "}\n"
    "kernel void group_sums(global const int *in, global int *out, local int *scratch) {\n"
    "    size_t l = get_local_id(0), n = get_local_size(0);\n"
    "    scratch[l] = in[get_global_id(0)];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    for (size_t s = n / 2; s > 0; s /= 2) {\n"
    "        if (l < s) scratch[l] += scratch[l + s];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    if (l == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "kernel void scale(global int *x, int k) {\n"
    "    x[get_global_id(0)] *= k;\n"
    "}\n"
    "kernel void ids(global int *out) {\n"
    "    size_t i = get_global_id(0) - get_global_offset(0);\n"
    "    out[i] = (int)get_global_id(0);\n"
    "}\n";

static int callback_status = 1;
static void CL_CALLBACK on_complete(cl_event e, cl_int status, void *user) {
    (void)e;
    *(int *)user = status;
}

static int destructor_calls = 0;
static void CL_CALLBACK on_mem_destroy(cl_mem m, void *user) {
    (void)m;
    (void)user;
    destructor_calls++;
}

static cl_program build(cl_context ctx, cl_device_id dev, const char *src, const char *opts) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    OK(err);
    err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[8192];
        clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "build failed (%d): %s\n", err, log);
        exit(1);
    }
    return p;
}

int main(void) {
    cl_int err;
    cl_platform_id platform = find_lockstep();

    /* The dispatch table is laid out as the installed cl_icd.h says. */
    void **dispatch = *(void ***)platform;
    CHECK(dispatch[offsetof(cl_icd_dispatch, clGetPlatformInfo) / sizeof(void *)] != NULL, "slot");
    CHECK(dispatch[offsetof(cl_icd_dispatch, clSetContextDestructorCallback) / sizeof(void *)] != NULL,
          "last slot");

    char suffix[64];
    OK(clGetPlatformInfo(platform, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof suffix, suffix, NULL));
    CHECK(strcmp(suffix, "LOCKSTEP") == 0, "suffix %s", suffix);

    cl_device_id dev;
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &dev, NULL));
    EXPECT_ERR(clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 1, &dev, NULL), CL_DEVICE_NOT_FOUND);
    cl_device_type type;
    OK(clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_DEVICE_TYPE_CPU, "type %lu", (unsigned long)type);
    cl_uint units;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
    CHECK(units >= 1, "units %u", units);
    size_t max_wg;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_wg, &max_wg, NULL));
    CHECK(max_wg >= 256, "max work-group %zu", max_wg);
    cl_bool images;
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    CHECK(images == CL_TRUE, "images");
    EXPECT_ERR(clGetDeviceInfo(dev, 0xdead, 0, NULL, NULL), CL_INVALID_VALUE);
    char small[2];
    EXPECT_ERR(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof small, small, NULL), CL_INVALID_VALUE);

    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    OK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
    OK(err);
    cl_queue_properties ooo[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue q2 = clCreateCommandQueueWithProperties(ctx, dev, ooo, &err);
    OK(err);

    cl_program prog = build(ctx, dev, SOURCE, "-cl-std=CL1.2");
    cl_kernel vadd = clCreateKernel(prog, "vadd", &err);
    OK(err);

    /* vadd over COPY_HOST_PTR inputs; profiling and a completion callback. */
    enum { N = 4096 };
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = 0.5f * (float)i;
    }
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
    OK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
    OK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof c, NULL, &err);
    OK(err);
    OK(clSetKernelArg(vadd, 0, sizeof da, &da));
    OK(clSetKernelArg(vadd, 1, sizeof db, &db));
    OK(clSetKernelArg(vadd, 2, sizeof dc, &dc));
    size_t global = N;
    cl_event kev;
    OK(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &global, NULL, 0, NULL, &kev));
    OK(clSetEventCallback(kev, CL_COMPLETE, on_complete, &callback_status));
    OK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof c, c, 1, &kev, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += c[i] != 1.5f * (float)i;
    CHECK(bad == 0, "vadd: %d wrong", bad);
    CHECK(callback_status == CL_COMPLETE, "callback status %d", callback_status);
    cl_ulong t[4];
    OK(clGetEventProfilingInfo(kev, CL_PROFILING_COMMAND_QUEUED, sizeof t[0], &t[0], NULL));
    OK(clGetEventProfilingInfo(kev, CL_PROFILING_COMMAND_SUBMIT, sizeof t[1], &t[1], NULL));
    OK(clGetEventProfilingInfo(kev, CL_PROFILING_COMMAND_START, sizeof t[2], &t[2], NULL));
    OK(clGetEventProfilingInfo(kev, CL_PROFILING_COMMAND_END, sizeof t[3], &t[3], NULL));
    CHECK(t[0] > 0 && t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3], "profiling times out of order");
    cl_int status;
    OK(clGetEventInfo(kev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_COMPLETE, "status %d", status);
    cl_command_type ctype;
    OK(clGetEventInfo(kev, CL_EVENT_COMMAND_TYPE, sizeof ctype, &ctype, NULL));
    CHECK(ctype == CL_COMMAND_NDRANGE_KERNEL, "command type");
    OK(clReleaseEvent(kev));

    /* Local memory: per-group sums with a __local argument. */
    cl_kernel sums = clCreateKernel(prog, "group_sums", &err);
    OK(err);
    enum { M = 1024, WG = 64 };
    static int in[M], out[M / WG];
    for (int i = 0; i < M; i++) in[i] = i % 7;
    cl_mem din = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
    OK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof out, NULL, &err);
    OK(err);
    OK(clSetKernelArg(sums, 0, sizeof din, &din));
    OK(clSetKernelArg(sums, 1, sizeof dout, &dout));
    OK(clSetKernelArg(sums, 2, WG * sizeof(int), NULL));
    size_t gm = M, lm = WG;
    OK(clEnqueueNDRangeKernel(q2, sums, 1, NULL, &gm, &lm, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q2, dout, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int g = 0; g < M / WG; g++) {
        int want = 0;
        for (int i = g * WG; i < (g + 1) * WG; i++) want += in[i];
        CHECK(out[g] == want, "group %d: %d != %d", g, out[g], want);
    }
    size_t local_mem;
    OK(clGetKernelWorkGroupInfo(sums, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL));
    CHECK(local_mem >= WG * sizeof(int), "local mem %zu", local_mem);
    size_t multiple;
    OK(clGetKernelWorkGroupInfo(sums, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof multiple,
                                &multiple, NULL));
    CHECK(multiple >= 4, "multiple %zu", multiple);

    /* USE_HOST_PTR: kernel writes land in the application's memory. */
    cl_kernel scale = clCreateKernel(prog, "scale", &err);
    OK(err);
    static int host[256] __attribute__((aligned(64)));
    for (int i = 0; i < 256; i++) host[i] = i;
    cl_mem dh = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    OK(err);
    OK(clSetMemObjectDestructorCallback(dh, on_mem_destroy, NULL));
    int k = 3;
    OK(clSetKernelArg(scale, 0, sizeof dh, &dh));
    OK(clSetKernelArg(scale, 1, sizeof k, &k));
    size_t g256 = 256;
    OK(clEnqueueNDRangeKernel(q, scale, 1, NULL, &g256, NULL, 0, NULL, NULL));
    OK(clFinish(q));
    CHECK(host[255] == 765 && host[1] == 3, "USE_HOST_PTR: %d %d", host[1], host[255]);
    int *mapped = clEnqueueMapBuffer(q, dh, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 16, 64, 0, NULL, NULL, &err);
    OK(err);
    CHECK(mapped == host + 4, "map of USE_HOST_PTR returns host_ptr + offset");
    mapped[0] = -1;
    cl_uint map_count;
    OK(clGetMemObjectInfo(dh, CL_MEM_MAP_COUNT, sizeof map_count, &map_count, NULL));
    CHECK(map_count == 1, "map count %u", map_count);
    OK(clEnqueueUnmapMemObject(q, dh, mapped, 0, NULL, NULL));
    EXPECT_ERR(clEnqueueUnmapMemObject(q, dh, mapped, 0, NULL, NULL), CL_INVALID_VALUE);

    /* Sub-buffers: a kernel on the second half of a buffer. */
    cl_buffer_region region = {128 * sizeof(int), 128 * sizeof(int)};
    cl_mem sub = clCreateSubBuffer(dh, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    OK(err);
    OK(clSetKernelArg(scale, 0, sizeof sub, &sub));
    size_t g128 = 128;
    OK(clEnqueueNDRangeKernel(q, scale, 1, NULL, &g128, NULL, 0, NULL, NULL));
    OK(clFinish(q));
    CHECK(host[127] == 381 && host[128] == 1152, "sub-buffer: %d %d", host[127], host[128]);
    cl_buffer_region misaligned = {4, 16};
    clCreateSubBuffer(dh, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err);
    CHECK(err == CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned sub-buffer: %d", err);
    cl_buffer_region too_big = {0, 4096};
    clCreateSubBuffer(dh, 0, CL_BUFFER_CREATE_TYPE_REGION, &too_big, &err);
    CHECK(err == CL_INVALID_VALUE, "sub-buffer out of range: %d", err);
    size_t sub_offset;
    OK(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof sub_offset, &sub_offset, NULL));
    CHECK(sub_offset == 512, "sub-buffer offset %zu", sub_offset);

    /* Reference counts (the sub-buffer retains its parent); the destructor
     * runs after the last release. */
    OK(clRetainMemObject(dh));
    cl_uint refs;
    OK(clGetMemObjectInfo(dh, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 3, "refs %u", refs);
    cl_mem parent;
    OK(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL));
    CHECK(parent == dh, "sub-buffer parent");
    OK(clReleaseMemObject(sub));
    OK(clReleaseMemObject(dh));
    CHECK(destructor_calls == 0, "destructor too early");
    OK(clReleaseMemObject(dh));
    CHECK(destructor_calls == 1, "destructor calls %d", destructor_calls);

    /* Fill, copy, rect read/write. */
    cl_mem d1 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
    OK(err);
    cl_mem d2 = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(int), NULL, &err);
    OK(err);
    int pattern[2] = {7, 9};
    OK(clEnqueueFillBuffer(q, d1, pattern, sizeof pattern, 0, 64 * sizeof(int), 0, NULL, NULL));
    OK(clEnqueueCopyBuffer(q, d1, d2, 0, 8 * sizeof(int), 16 * sizeof(int), 0, NULL, NULL));
    int back[64];
    OK(clEnqueueReadBuffer(q, d2, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    CHECK(back[0] == 0 && back[8] == 7 && back[9] == 9 && back[23] == 9 && back[24] == 0,
          "fill/copy: %d %d %d %d %d", back[0], back[8], back[9], back[23], back[24]);
    EXPECT_ERR(clEnqueueCopyBuffer(q, d1, d1, 0, 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT_ERR(clEnqueueFillBuffer(q, d1, pattern, 3, 0, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    /* An 8x8 int matrix: write a 3x2 block at (2, 1), read it back. */
    int block[6] = {1, 2, 3, 4, 5, 6}, matrix[64], block_back[6];
    memset(matrix, 0, sizeof matrix);
    OK(clEnqueueWriteBuffer(q, d2, CL_TRUE, 0, sizeof matrix, matrix, 0, NULL, NULL));
    size_t borigin[3] = {2 * sizeof(int), 1, 0}, horigin[3] = {0, 0, 0}, reg[3] = {3 * sizeof(int), 2, 1};
    OK(clEnqueueWriteBufferRect(q, d2, CL_TRUE, borigin, horigin, reg, 8 * sizeof(int), 0, 3 * sizeof(int), 0,
                                block, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, d2, CL_TRUE, 0, sizeof matrix, matrix, 0, NULL, NULL));
    CHECK(matrix[8 + 2] == 1 && matrix[8 + 4] == 3 && matrix[16 + 2] == 4 && matrix[16 + 4] == 6 &&
              matrix[8 + 5] == 0 && matrix[2] == 0,
          "write rect");
    OK(clEnqueueReadBufferRect(q, d2, CL_TRUE, borigin, horigin, reg, 8 * sizeof(int), 0, 3 * sizeof(int), 0,
                               block_back, 0, NULL, NULL));
    CHECK(memcmp(block, block_back, sizeof block) == 0, "read rect");
    size_t dorigin[3] = {0, 4, 0};
    OK(clEnqueueCopyBufferRect(q, d2, d1, borigin, dorigin, reg, 8 * sizeof(int), 0, 8 * sizeof(int), 0, 0, NULL,
                               NULL));
    OK(clEnqueueReadBuffer(q, d1, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
    CHECK(back[32] == 1 && back[34] == 3 && back[40] == 4 && back[35] == 9, "copy rect: %d %d %d %d", back[32],
          back[34], back[40], back[35]);

    /* Global offsets. */
    cl_kernel ids = clCreateKernel(prog, "ids", &err);
    OK(err);
    OK(clSetKernelArg(ids, 0, sizeof d1, &d1));
    size_t off = 100, g16 = 16;
    OK(clEnqueueNDRangeKernel(q, ids, 1, &off, &g16, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, d1, CL_TRUE, 0, 16 * sizeof(int), back, 0, NULL, NULL));
    CHECK(back[0] == 100 && back[15] == 115, "offset: %d %d", back[0], back[15]);

    /* A user event holds back a write and everything after it. */
    cl_event user = clCreateUserEvent(ctx, &err);
    OK(err);
    int seven[4] = {7, 7, 7, 7}, got[4] = {0, 0, 0, 0};
    cl_event wev;
    OK(clEnqueueWriteBuffer(q, d1, CL_FALSE, 0, sizeof seven, seven, 1, &user, &wev));
    OK(clEnqueueReadBuffer(q, d1, CL_FALSE, 0, sizeof got, got, 0, NULL, NULL));
    OK(clGetEventInfo(wev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_QUEUED, "deferred write ran early (%d)", status);
    CHECK(got[0] == 0, "read ran before the write it follows");
    OK(clSetUserEventStatus(user, CL_COMPLETE));
    EXPECT_ERR(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
    OK(clWaitForEvents(1, &wev));
    OK(clFinish(q));
    CHECK(got[0] == 7 && got[3] == 7, "deferred commands: %d", got[0]);
    EXPECT_ERR(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
               CL_PROFILING_INFO_NOT_AVAILABLE);
    /* A failed user event fails what waits on it. */
    cl_event user2 = clCreateUserEvent(ctx, &err);
    OK(err);
    cl_event failed;
    OK(clEnqueueWriteBuffer(q, d1, CL_FALSE, 0, sizeof seven, seven, 1, &user2, &failed));
    OK(clSetUserEventStatus(user2, -1));
    EXPECT_ERR(clWaitForEvents(1, &failed), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    OK(clReleaseEvent(user));
    OK(clReleaseEvent(user2));
    OK(clReleaseEvent(wev));
    OK(clReleaseEvent(failed));

    /* Binaries: out of one program, into another, built without source. */
    size_t bin_size;
    OK(clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof bin_size, &bin_size, NULL));
    CHECK(bin_size > 0, "binary size");
    unsigned char *bin = malloc(bin_size);
    OK(clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
    const unsigned char *bins[1] = {bin};
    cl_int bin_status;
    cl_program from_bin = clCreateProgramWithBinary(ctx, 1, &dev, &bin_size, bins, &bin_status, &err);
    OK(err);
    OK(bin_status);
    OK(clBuildProgram(from_bin, 1, &dev, NULL, NULL, NULL));
    cl_kernel vadd2 = clCreateKernel(from_bin, "vadd", &err);
    OK(err);
    OK(clSetKernelArg(vadd2, 0, sizeof db, &db));
    OK(clSetKernelArg(vadd2, 1, sizeof db, &db));
    OK(clSetKernelArg(vadd2, 2, sizeof dc, &dc));
    OK(clEnqueueNDRangeKernel(q, vadd2, 1, NULL, &global, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
    CHECK(c[10] == 10.0f && c[N - 1] == (float)(N - 1), "kernel from binary: %f", c[10]);
    unsigned char junk[16] = "not a binary";
    const unsigned char *junks[1] = {junk};
    size_t junk_size = sizeof junk;
    clCreateProgramWithBinary(ctx, 1, &dev, &junk_size, junks, &bin_status, &err);
    CHECK(err == CL_INVALID_BINARY && bin_status == CL_INVALID_BINARY, "bad binary: %d", err);
    free(bin);

    /* Separate compilation: a header, two objects, one link. */
    const char *header_src = "#define TWICE(x) (2 * (x))\n";
    const char *lib_src = "#include \"twice.h\"\nint twice(int x) { return TWICE(x); }\n";
    const char *main_src = "int twice(int x);\nkernel void use_twice(global int *x) { x[0] = twice(x[0]) + BIAS; }\n";
    cl_program header = clCreateProgramWithSource(ctx, 1, &header_src, NULL, &err);
    OK(err);
    cl_program lib = clCreateProgramWithSource(ctx, 1, &lib_src, NULL, &err);
    OK(err);
    cl_program mainp = clCreateProgramWithSource(ctx, 1, &main_src, NULL, &err);
    OK(err);
    const char *header_name = "twice.h";
    OK(clCompileProgram(lib, 1, &dev, NULL, 1, &header, &header_name, NULL, NULL));
    OK(clCompileProgram(mainp, 1, &dev, "-D BIAS=1", 0, NULL, NULL, NULL, NULL));
    cl_program objects[2] = {mainp, lib};
    cl_program linked = clLinkProgram(ctx, 1, &dev, NULL, 2, objects, NULL, NULL, &err);
    OK(err);
    cl_kernel use_twice = clCreateKernel(linked, "use_twice", &err);
    OK(err);
    int twenty = 20;
    OK(clEnqueueWriteBuffer(q, d1, CL_TRUE, 0, sizeof twenty, &twenty, 0, NULL, NULL));
    OK(clSetKernelArg(use_twice, 0, sizeof d1, &d1));
    OK(clEnqueueTask(q, use_twice, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, d1, CL_TRUE, 0, sizeof twenty, &twenty, 0, NULL, NULL));
    CHECK(twenty == 41, "linked program: %d", twenty);
    cl_program dup[2] = {mainp, mainp};
    cl_program dup_linked = clLinkProgram(ctx, 1, &dev, NULL, 2, dup, NULL, NULL, &err);
    CHECK(err == CL_LINK_PROGRAM_FAILURE, "duplicate kernels link: %d", err);
    if (dup_linked) clReleaseProgram(dup_linked);
    EXPECT_ERR(clCompileProgram(from_bin, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION);

    /* Error codes for bad arguments. */
    clCreateBuffer(ctx, CL_MEM_READ_WRITE, 0, NULL, &err);
    CHECK(err == CL_INVALID_BUFFER_SIZE, "zero-size buffer: %d", err);
    clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 16, NULL, &err);
    CHECK(err == CL_INVALID_HOST_PTR, "USE_HOST_PTR without pointer: %d", err);
    clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 16, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "conflicting flags: %d", err);
    EXPECT_ERR(clSetKernelArg(vadd, 3, sizeof da, &da), CL_INVALID_ARG_INDEX);
    EXPECT_ERR(clSetKernelArg(vadd, 0, 4, &da), CL_INVALID_ARG_SIZE);
    cl_mem not_a_buffer = (cl_mem)ctx;
    EXPECT_ERR(clSetKernelArg(vadd, 0, sizeof not_a_buffer, &not_a_buffer), CL_INVALID_MEM_OBJECT);
    /* OpenCL 3.1: a local memory argument may have 0 bytes; a value for it
     * is still an error. */
    OK(clSetKernelArg(sums, 2, 0, NULL));
    EXPECT_ERR(clSetKernelArg(sums, 2, 4, &k), CL_INVALID_ARG_VALUE);
    EXPECT_ERR(clSetKernelArg(scale, 1, 2, &k), CL_INVALID_ARG_SIZE);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, vadd, 0, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, vadd, 4, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
    size_t bad_local = 48; /* does not divide 4096: an OpenCL C 1.2 program */
    EXPECT_ERR(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &global, &bad_local, 0, NULL, NULL),
               CL_INVALID_WORK_GROUP_SIZE);
    size_t huge_local = 8192;
    EXPECT_ERR(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &global, &huge_local, 0, NULL, NULL),
               CL_INVALID_WORK_ITEM_SIZE);
    /* OpenCL 2.1+: a NULL global size is a command that does nothing. */
    EXPECT_ERR(clEnqueueNDRangeKernel(q, vadd, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_SUCCESS);
    cl_kernel unset = clCreateKernel(prog, "vadd", &err);
    OK(err);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, unset, 1, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, vadd, 1, NULL, &global, NULL, 1, NULL, NULL),
               CL_INVALID_EVENT_WAIT_LIST);
    EXPECT_ERR(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, sizeof c + 4, c, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadBuffer(q, dc, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    clCreateKernel(prog, "no_such_kernel", &err);
    CHECK(err == CL_INVALID_KERNEL_NAME, "bad kernel name: %d", err);
    EXPECT_ERR(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL), CL_INVALID_OPERATION); /* kernels attached */
    const char *broken = "kernel void broken(global int *x) { x[0] = undefined_thing; }\n";
    cl_program bp = clCreateProgramWithSource(ctx, 1, &broken, NULL, &err);
    OK(err);
    EXPECT_ERR(clBuildProgram(bp, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[4096] = "";
    OK(clGetProgramBuildInfo(bp, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strstr(log, "undefined_thing") != NULL, "build log: %s", log);
    cl_build_status bstatus;
    OK(clGetProgramBuildInfo(bp, dev, CL_PROGRAM_BUILD_STATUS, sizeof bstatus, &bstatus, NULL));
    CHECK(bstatus == CL_BUILD_ERROR, "build status %d", bstatus);
    clCreateKernel(bp, "broken", &err);
    CHECK(err == CL_INVALID_PROGRAM_EXECUTABLE, "kernel of unbuilt program: %d", err);
    EXPECT_ERR(clBuildProgram(bp, 1, &dev, "-no-such-option", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
    EXPECT_ERR(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clRetainKernel(NULL), CL_INVALID_KERNEL);
    EXPECT_ERR(clFinish(NULL), CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
    clCreateContext(NULL, 0, NULL, NULL, NULL, &err);
    CHECK(err == CL_INVALID_VALUE, "context without devices: %d", err);
    clCreateImage2D(ctx, CL_MEM_READ_ONLY, NULL, 4, 4, 0, NULL, &err);
    CHECK(err == CL_INVALID_OPERATION || err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image: %d", err);

    /* Kernel and argument info. */
    char name[64];
    OK(clGetKernelInfo(sums, CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
    CHECK(strcmp(name, "group_sums") == 0, "kernel name %s", name);
    cl_uint nargs;
    OK(clGetKernelInfo(sums, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
    CHECK(nargs == 3, "num args %u", nargs);
    cl_kernel_arg_address_qualifier aq;
    OK(clGetKernelArgInfo(sums, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
    CHECK(aq == CL_KERNEL_ARG_ADDRESS_LOCAL, "address qualifier %x", aq);
    OK(clGetKernelArgInfo(sums, 0, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
    CHECK(strcmp(name, "in") == 0, "arg name %s", name);
    OK(clGetKernelArgInfo(sums, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL));
    CHECK(strcmp(name, "int*") == 0, "arg type %s", name);
    cl_kernel_arg_type_qualifier tq;
    OK(clGetKernelArgInfo(sums, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
    CHECK(tq & CL_KERNEL_ARG_TYPE_CONST, "const qualifier");
    EXPECT_ERR(clGetKernelArgInfo(sums, 3, CL_KERNEL_ARG_NAME, sizeof name, name, NULL), CL_INVALID_ARG_INDEX);
    char names[256];
    OK(clGetProgramInfo(prog, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
    CHECK(strcmp(names, "vadd;group_sums;scale;ids") == 0, "kernel names %s", names);

    clReleaseKernel(vadd);
    clReleaseKernel(vadd2);
    clReleaseKernel(sums);
    clReleaseKernel(scale);
    clReleaseKernel(unset);
    clReleaseKernel(use_twice);
    /* A kernel keeps its program: released by the application, the
     * program handle still answers through the kernel. */
    OK(clReleaseProgram(prog));
    cl_program kprog;
    OK(clGetKernelInfo(ids, CL_KERNEL_PROGRAM, sizeof kprog, &kprog, NULL));
    cl_uint prog_refs;
    OK(clGetProgramInfo(kprog, CL_PROGRAM_REFERENCE_COUNT, sizeof prog_refs, &prog_refs, NULL));
    CHECK(kprog == prog && prog_refs >= 1, "program of kernel");
    clReleaseKernel(ids);
    clReleaseProgram(from_bin);
    clReleaseProgram(header);
    clReleaseProgram(lib);
    clReleaseProgram(mainp);
    clReleaseProgram(linked);
    clReleaseProgram(bp);
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseMemObject(d1);
    clReleaseMemObject(d2);
    OK(clReleaseCommandQueue(q));
    OK(clReleaseCommandQueue(q2));
    cl_uint ctx_refs;
    OK(clGetContextInfo(ctx, CL_CONTEXT_REFERENCE_COUNT, sizeof ctx_refs, &ctx_refs, NULL));
    CHECK(ctx_refs == 1, "context refs %u", ctx_refs);
    OK(clReleaseContext(ctx));

    if (failures) {
        fprintf(stderr, "%d checks failed\n", failures);
        return 1;
    }
    printf("ALL OK\n");
    return 0;
}
