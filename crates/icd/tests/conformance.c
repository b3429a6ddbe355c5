/* What the Khronos OpenCL CTS checks and Lockstep once got wrong, one case
 * per command-line argument (`conformance host_timer`, ...), run by
 * conformance.rs on the Lockstep platform without the CTS. Each case names
 * the CTS subtests it stands for. Prints "OK" and exits 0 when the case
 * passes; a hang is turned into a failure by an alarm. */

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS /* clCreateCommandQueue */
#include <CL/cl.h>
#include <CL/cl_ext.h> /* clCreateCommandQueueWithPropertiesKHR_fn */
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
static cl_command_queue queue;

static void setup(void) {
    platform = find_lockstep();
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &dev, NULL));
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    OK(err);
    queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    OK(err);
}

static cl_mem new_buffer(size_t size) {
    cl_int err;
    cl_mem m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, NULL, &err);
    OK(err);
    return m;
}

static void print_log(cl_program p) {
    char log[16384] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build log:\n%s\n", log);
}

/* Builds `src` with `opts`, exiting on failure (with the build log). */
static cl_program build(const char *src, const char *opts) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    OK(err);
    err = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "FAIL: build with \"%s\" failed (%d)\n", opts ? opts : "", err);
        print_log(p);
        exit(1);
    }
    return p;
}

static cl_kernel kernel(cl_program p, const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(p, name, &err);
    OK(err);
    return k;
}

/* Runs a 1-D kernel on `n` work-items and waits. */
static void run(cl_kernel k, size_t n) {
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    OK(clFinish(queue));
}

static void read_buffer(cl_mem m, size_t size, void *dst) {
    OK(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, size, dst, 0, NULL, NULL));
}

/* --- Host timer (api/consistency_device_and_host_timer,
 * api/negative_get_host_timer, api/negative_get_device_and_host_timer). */
static void host_timer(void) {
    cl_ulong resolution = 0;
    OK(clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution,
                         &resolution, NULL));
    /* The timers work, so the resolution may not be 0 (0 means "no timer
     * synchronization", and then the calls must fail). */
    CHECK(resolution > 0 && resolution <= 1000000, "resolution %llu ns",
          (unsigned long long)resolution);

    cl_ulong host0 = 0, host1 = 0, device_ts = 0;
    OK(clGetHostTimer(dev, &host0));
    OK(clGetDeviceAndHostTimer(dev, &device_ts, &host1));
    CHECK(host0 > 0 && host1 >= host0, "host timer %llu then %llu",
          (unsigned long long)host0, (unsigned long long)host1);
    CHECK(device_ts > 0, "device timer %llu", (unsigned long long)device_ts);

    /* NULL pointers: CL_INVALID_VALUE. */
    cl_ulong t;
    EXPECT_ERR(clGetHostTimer(dev, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetDeviceAndHostTimer(dev, NULL, &t), CL_INVALID_VALUE);
    EXPECT_ERR(clGetDeviceAndHostTimer(dev, &t, NULL), CL_INVALID_VALUE);
    /* A bad device (NULL, or a valid object of another type), checked
     * before the pointers: CL_INVALID_DEVICE. */
    cl_device_id not_devices[] = {NULL, (cl_device_id)platform, (cl_device_id)ctx};
    for (size_t i = 0; i < sizeof not_devices / sizeof *not_devices; i++) {
        EXPECT_ERR(clGetHostTimer(not_devices[i], &t), CL_INVALID_DEVICE);
        EXPECT_ERR(clGetHostTimer(not_devices[i], NULL), CL_INVALID_DEVICE);
        EXPECT_ERR(clGetDeviceAndHostTimer(not_devices[i], &t, &t), CL_INVALID_DEVICE);
        EXPECT_ERR(clGetDeviceAndHostTimer(not_devices[i], NULL, NULL), CL_INVALID_DEVICE);
    }
}

/* --- Feature macros (basic/kernel_preprocessor_macros,
 * basic/kernel_numeric_constants, compiler/features_macro): a kernel sees
 * a feature's macro exactly when the device reports the feature. */

/* Feature and extension macros a kernel may test, each with whether the
 * device reports it: __IMAGE_SUPPORT__ against CL_DEVICE_IMAGE_SUPPORT,
 * __opencl_c_* against CL_DEVICE_OPENCL_C_FEATURES, cl_khr_* against
 * CL_DEVICE_EXTENSIONS. */
static const char *const MACROS[] = {
    "__IMAGE_SUPPORT__",
    "__opencl_c_images",
    "__opencl_c_3d_image_writes",
    "__opencl_c_read_write_images",
    "__opencl_c_pipes",
    "__opencl_c_device_enqueue",
    "__opencl_c_subgroups",
    "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_fp64",
    "__opencl_c_int64",
    "__opencl_c_fp16",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_ext_fp32_global_atomic_add",
    "__opencl_c_kernel_clock_scope_device",
    "cl_khr_fp64",
    "cl_khr_fp16",
    "cl_khr_int64_base_atomics",
    "cl_khr_global_int32_base_atomics",
    "cl_khr_byte_addressable_store",
    "cl_khr_3d_image_writes",
    "cl_khr_depth_images",
    "cl_khr_subgroups",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_shuffle",
    "cl_khr_integer_dot_product",
    "cl_khr_extended_bit_ops",
    "cl_khr_kernel_clock",
    "cl_khr_mipmap_image",
};
#define NUM_MACROS (sizeof MACROS / sizeof *MACROS)

/* Whether the device reports `name`. */
static int device_reports(const char *name) {
    if (!strcmp(name, "__IMAGE_SUPPORT__")) {
        cl_bool images = CL_FALSE;
        OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
        return images;
    }
    if (!strncmp(name, "__opencl_c_", 11)) {
        size_t size = 0;
        OK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, 0, NULL, &size));
        cl_name_version *fs = malloc(size + 1);
        OK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_FEATURES, size, fs, NULL));
        int found = 0;
        for (size_t i = 0; i < size / sizeof *fs; i++) found |= !strcmp(fs[i].name, name);
        free(fs);
        return found;
    }
    char exts[8192];
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof exts, exts, NULL));
    size_t n = strlen(name);
    for (char *at = exts; (at = strstr(at, name)) != NULL; at += n)
        if ((at == exts || at[-1] == ' ') && (at[n] == ' ' || at[n] == '\0')) return 1;
    return 0;
}

/* One kernel whose `#ifdef` of each macro writes a flag, built with
 * `opts`; checked against what the device reports. */
static void check_macros(const char *opts) {
    static char src[16384];
    size_t len = 0;
    len += snprintf(src + len, sizeof src - len, "kernel void macros(global int *out) {\n");
    for (size_t i = 0; i < NUM_MACROS; i++)
        len += snprintf(src + len, sizeof src - len,
                        "#ifdef %s\n  out[%zu] = 1;\n#else\n  out[%zu] = 0;\n#endif\n",
                        MACROS[i], i, i);
    snprintf(src + len, sizeof src - len, "}\n");
    cl_program p = build(src, opts);
    cl_kernel k = kernel(p, "macros");
    cl_mem out = new_buffer(NUM_MACROS * sizeof(cl_int));
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    run(k, 1);
    cl_int flags[NUM_MACROS];
    read_buffer(out, sizeof flags, flags);
    for (size_t i = 0; i < NUM_MACROS; i++) {
        int reported = device_reports(MACROS[i]);
        /* Before OpenCL C 3.0 there are no optional features: a 1.2 or
         * 2.0 kernel may lack their macros, but may not have one the
         * device does not report. */
        int before_2_0 = !opts || strstr(opts, "CL1.");
        /* The cl_khr_subgroup_* extensions, integer dot products and
         * extended bit operations are OpenCL C 2.0 ones to clang: a 1.2
         * kernel lacks their functions and their macros. */
        int from_2_0 = !strncmp(MACROS[i], "cl_khr_subgroup", 15) ||
                       !strcmp(MACROS[i], "cl_khr_integer_dot_product") ||
                       !strcmp(MACROS[i], "cl_khr_extended_bit_ops");
        int optional = ((!opts || !strstr(opts, "CL3.")) && !strncmp(MACROS[i], "__opencl_c_", 11)) ||
                       (before_2_0 && from_2_0);
        if (optional && !reported)
            CHECK(!flags[i], "%s: %s defined but not reported", opts, MACROS[i]);
        else if (!optional)
            CHECK(flags[i] == reported, "%s: %s is %sdefined but %sreported", opts ? opts : "(none)",
                  MACROS[i], flags[i] ? "" : "not ", reported ? "" : "not ");
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

static void feature_macros(void) {
    check_macros(NULL);
    check_macros("-cl-std=CL1.2");
    check_macros("-cl-std=CL2.0");
    check_macros("-cl-std=CL3.0");
    check_macros("-cl-std=CL3.1");
    /* The device offers none of these, and says so. */
    const char *absent[] = {"cl_khr_depth_images", "cl_khr_mipmap_image"};
    for (size_t i = 0; i < sizeof absent / sizeof *absent; i++)
        CHECK(!device_reports(absent[i]), "the device reports %s", absent[i]);
    /* Images: the support, the OpenCL C 3.0 features and the extension. */
    const char *present[] = {"__IMAGE_SUPPORT__",          "__opencl_c_images",
                             "__opencl_c_3d_image_writes", "__opencl_c_read_write_images",
                             "cl_khr_3d_image_writes",     "__opencl_c_device_enqueue"};
    for (size_t i = 0; i < sizeof present / sizeof *present; i++)
        CHECK(device_reports(present[i]), "the device does not report %s", present[i]);
    CHECK(device_reports("__opencl_c_fp64") && device_reports("cl_khr_fp64"),
          "fp64 not reported");
    /* Pipes: the OpenCL C 3.0 feature and CL_DEVICE_PIPE_SUPPORT. */
    cl_bool pipes = CL_FALSE;
    OK(clGetDeviceInfo(dev, CL_DEVICE_PIPE_SUPPORT, sizeof pipes, &pipes, NULL));
    CHECK(pipes == CL_TRUE && device_reports("__opencl_c_pipes"), "pipes not reported");
    /* Subgroups: the OpenCL C 3.0 feature, not cl_khr_subgroups, which
     * promises independent forward progress (subgroups/ifp_ext). */
    CHECK(device_reports("__opencl_c_subgroups"), "subgroups not reported");
    CHECK(!device_reports("cl_khr_subgroups"), "cl_khr_subgroups reported");
    cl_bool ifp = CL_TRUE;
    OK(clGetDeviceInfo(dev, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, sizeof ifp, &ifp, NULL));
    CHECK(ifp == CL_FALSE, "independent forward progress reported");
}

/* basic/kernel_preprocessor_macros: __OPENCL_VERSION__ is the device's
 * OpenCL version (clang leaves it to the implementation) whatever the
 * -cl-std, and __OPENCL_C_VERSION__ the -cl-std given. */
static void version_macros(void) {
    cl_version numeric = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_NUMERIC_VERSION, sizeof numeric, &numeric, NULL));
    int device_version = CL_VERSION_MAJOR(numeric) * 100 + CL_VERSION_MINOR(numeric) * 10;
    char version[256] = "";
    OK(clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof version, version, NULL));
    char expected[32];
    snprintf(expected, sizeof expected, "OpenCL %d.%d ", device_version / 100,
             device_version / 10 % 10);
    CHECK(!strncmp(version, expected, strlen(expected)), "CL_DEVICE_VERSION \"%s\" but numeric %d",
          version, device_version);
    const char *src = "kernel void versions(global int *out) {\n"
                      "#ifdef __OPENCL_VERSION__\n  out[0] = __OPENCL_VERSION__;\n"
                      "#else\n  out[0] = -1;\n#endif\n"
                      "#ifdef __OPENCL_C_VERSION__\n  out[1] = __OPENCL_C_VERSION__;\n"
                      "#else\n  out[1] = -1;\n#endif\n"
                      "}\n";
    struct {
        const char *opts;
        int c_version; /* 0: any the device supports */
    } cases[] = {{NULL, 0},
                 {"-cl-std=CL1.1", 110},
                 {"-cl-std=CL1.2", 120},
                 {"-cl-std=CL2.0", 200},
                 {"-cl-std=CL3.0", 300},
                 {"-cl-std=CL3.1", 310}};
    cl_mem out = new_buffer(2 * sizeof(cl_int));
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *opts = cases[i].opts ? cases[i].opts : "(none)";
        cl_program p = build(src, cases[i].opts);
        cl_kernel k = kernel(p, "versions");
        OK(clSetKernelArg(k, 0, sizeof out, &out));
        run(k, 1);
        cl_int got[2];
        read_buffer(out, sizeof got, got);
        CHECK(got[0] == device_version, "%s: __OPENCL_VERSION__ is %d, the device's version %d",
              opts, got[0], device_version);
        if (cases[i].c_version)
            CHECK(got[1] == cases[i].c_version, "%s: __OPENCL_C_VERSION__ is %d", opts, got[1]);
        else
            CHECK(got[1] >= 100 && got[1] <= device_version, "%s: __OPENCL_C_VERSION__ is %d",
                  opts, got[1]);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    clReleaseMemObject(out);
}

/* api/get_device_info_31: what an OpenCL 3.1 device must offer (subgroups,
 * the extensions 3.1 makes core, SPIR-V 1.0 to 1.4, OpenCL C 3.1), and
 * what 3.1 changes: a local memory argument may have 0 bytes. */
static void opencl_3_1(void) {
    cl_version numeric = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_NUMERIC_VERSION, sizeof numeric, &numeric, NULL));
    CHECK(numeric == CL_MAKE_VERSION(3, 1, 0), "device version 0x%x", numeric);
    OK(clGetPlatformInfo(platform, CL_PLATFORM_NUMERIC_VERSION, sizeof numeric, &numeric, NULL));
    CHECK(numeric == CL_MAKE_VERSION(3, 1, 0), "platform version 0x%x", numeric);
    cl_uint subgroups = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof subgroups, &subgroups, NULL));
    CHECK(subgroups > 0, "no subgroups");
    const char *required[] = {"cl_khr_spirv_queries",           "cl_khr_extended_bit_ops",
                              "cl_khr_suggested_local_work_size", "cl_khr_device_uuid",
                              "cl_khr_integer_dot_product",     "cl_khr_subgroup_extended_types",
                              "cl_khr_subgroup_rotate",         "cl_khr_subgroup_shuffle",
                              "cl_khr_subgroup_shuffle_relative"};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        CHECK(device_reports(required[i]), "%s not reported", required[i]);
    cl_name_version versions[16];
    size_t size = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_ALL_VERSIONS, sizeof versions, versions, &size));
    int c_3_0 = 0, c_3_1 = 0;
    for (size_t i = 0; i < size / sizeof *versions; i++) {
        c_3_0 |= versions[i].version == CL_MAKE_VERSION(3, 0, 0);
        c_3_1 |= versions[i].version == CL_MAKE_VERSION(3, 1, 0);
    }
    CHECK(c_3_0 && c_3_1, "OpenCL C 3.0 %d, 3.1 %d", c_3_0, c_3_1);

    /* A 0-byte local argument binds, and a kernel that does not touch it
     * runs. */
    const char *src = "kernel void k(local int *scratch, int n, global int *out) {\n"
                      "  if (n > 0) scratch[0] = n;\n"
                      "  out[get_global_id(0)] = __OPENCL_C_VERSION__ + (int)get_local_id(0);\n"
                      "}\n";
    cl_program p = build(src, "-cl-std=CL3.1");
    cl_kernel k = kernel(p, "k");
    OK(clSetKernelArg(k, 0, 0, NULL));
    cl_int n = 0;
    OK(clSetKernelArg(k, 1, sizeof n, &n));
    cl_mem out = new_buffer(8 * sizeof(cl_int));
    OK(clSetKernelArg(k, 2, sizeof out, &out));
    run(k, 8);
    cl_int got[8];
    read_buffer(out, sizeof got, got);
    for (int i = 0; i < 8; i++) CHECK(got[i] >= 310 && got[i] < 318, "out[%d] = %d", i, got[i]);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* --- API details. */

/* compiler/options_build_optimizations: every optimization option of the
 * spec builds, -cl-no-subgroup-ifp included. */
static void build_options(void) {
    const char *src = "kernel void k(global int *p) { p[get_global_id(0)] = 1; }";
    const char *opts[] = {"-cl-no-subgroup-ifp", "-cl-std=CL3.0 -cl-no-subgroup-ifp",
                          "-cl-opt-disable", "-cl-mad-enable", "-cl-fast-relaxed-math",
                          "-cl-uniform-work-group-size"};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) clReleaseProgram(build(src, opts[i]));
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    OK(err);
    OK(clCompileProgram(p, 1, &dev, "-cl-no-subgroup-ifp", 0, NULL, NULL, NULL, NULL));
    clReleaseProgram(p);
}

/* Whether `attrs` (spaces removed, as the CTS compares) contains `want`. */
static int has_attribute(const char *attrs, const char *want) {
    char squeezed[1024];
    size_t n = 0;
    for (const char *c = attrs; *c && n + 1 < sizeof squeezed; c++)
        if (*c != ' ') squeezed[n++] = *c;
    squeezed[n] = 0;
    return strstr(squeezed, want) != NULL;
}

/* api/kernel_attributes: CL_KERNEL_ATTRIBUTES lists each attribute as
 * written in OpenCL C. */
static void kernel_attributes(void) {
    const char *cases[][3] = {
        {"vec_type_hint(uint4)", NULL, NULL},
        {"vec_type_hint(float8)", "work_group_size_hint(1,1,1)", NULL},
        {"reqd_work_group_size(1,1,1)", "vec_type_hint(ulong16)", "work_group_size_hint(1,1,1)"},
        {"work_group_size_hint(4,2,1)", "reqd_work_group_size(8,4,2)", "vec_type_hint(double2)"},
        {"vec_type_hint(uchar3)", NULL, NULL},
        {"vec_type_hint(int)", NULL, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char src[512] = "";
        for (int a = 0; a < 3 && cases[i][a]; a++)
            snprintf(src + strlen(src), sizeof src - strlen(src), "__attribute__((%s))\n",
                     cases[i][a]);
        strcat(src, "kernel void test_kernel() {}\n");
        cl_program p = build(src, NULL);
        cl_kernel k = kernel(p, "test_kernel");
        char attrs[1024] = "";
        size_t size = 0;
        OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, 0, NULL, &size));
        CHECK(size > 0 && size <= sizeof attrs, "size %zu", size);
        OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
        for (int a = 0; a < 3 && cases[i][a]; a++)
            CHECK(has_attribute(attrs, cases[i][a]), "CL_KERNEL_ATTRIBUTES \"%s\" lacks %s", attrs,
                  cases[i][a]);
        clReleaseKernel(k);
        clReleaseProgram(p);
    }
    /* No attributes: an empty string. */
    cl_program p = build("kernel void plain() {}", NULL);
    cl_kernel k = kernel(p, "plain");
    char attrs[64] = "x";
    OK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof attrs, attrs, NULL));
    CHECK(attrs[0] == 0, "\"%s\"", attrs);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* api/zero_sized_enqueue: since OpenCL 2.1 a NULL or zero global size is a
 * command that does nothing, waits for its wait list and completes its
 * event. */
static void zero_sized_enqueue(void) {
    cl_program p = build("kernel void foo_kernel(global int *dst) { dst[get_global_id(0)] = 1; }",
                         NULL);
    cl_kernel k = kernel(p, "foo_kernel");
    cl_mem out = new_buffer(128 * sizeof(cl_int));
    cl_int zero = 0;
    OK(clEnqueueFillBuffer(queue, out, &zero, sizeof zero, 0, 128 * sizeof(cl_int), 0, NULL, NULL));
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    size_t sizes[][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 1, 1}};
    for (cl_uint dims = 1; dims <= 3; dims++) {
        OK(clEnqueueNDRangeKernel(queue, k, dims, NULL, NULL, NULL, 0, NULL, NULL));
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
            int empty = 0;
            for (cl_uint d = 0; d < dims; d++) empty |= sizes[i][d] == 0;
            if (!empty) continue;
            cl_int err = clEnqueueNDRangeKernel(queue, k, dims, NULL, sizes[i], NULL, 0, NULL, NULL);
            CHECK(err == CL_SUCCESS, "%uD {%zu,%zu,%zu}: %d", dims, sizes[i][0], sizes[i][1],
                  sizes[i][2], err);
            /* With a local size too (uniform work-groups need not divide 0). */
            size_t local[3] = {4, 1, 1};
            err = clEnqueueNDRangeKernel(queue, k, dims, NULL, sizes[i], local, 0, NULL, NULL);
            CHECK(err == CL_SUCCESS, "%uD {%zu,%zu,%zu} local 4: %d", dims, sizes[i][0],
                  sizes[i][1], sizes[i][2], err);
        }
    }
    OK(clFinish(queue));
    cl_int host[128];
    read_buffer(out, sizeof host, host);
    int changed = 0;
    for (int i = 0; i < 128; i++) changed |= host[i] != 0;
    CHECK(!changed, "a zero-sized kernel wrote to the buffer");

    /* Behind a user event: queued until the event completes, then complete. */
    cl_int err;
    cl_event user = clCreateUserEvent(ctx, &err);
    OK(err);
    cl_event ev = NULL;
    size_t none[3] = {0, 0, 0};
    OK(clEnqueueNDRangeKernel(queue, k, 3, NULL, none, NULL, 1, &user, &ev));
    CHECK(ev != NULL, "no event");
    cl_command_type type = 0;
    OK(clGetEventInfo(ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_NDRANGE_KERNEL, "command type 0x%x", type);
    cl_int st = -1;
    OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_QUEUED || st == CL_SUBMITTED, "status %d before the user event", st);
    OK(clSetUserEventStatus(user, CL_COMPLETE));
    OK(clFinish(queue));
    OK(clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_COMPLETE, "status %d after", st);
    clReleaseEvent(ev);
    clReleaseEvent(user);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* Error codes: api/consistency_il_programs,
 * api/negative_create_command_queue(_with_properties),
 * api/negative_create_context(_from_type). */
static void error_codes(void) {
    cl_int err;
    /* IL (SPIR-V) is supported: a program from source has no IL and no
     * specialization constants (CL_INVALID_PROGRAM, as for no program);
     * bytes that are no SPIR-V module are CL_INVALID_VALUE. */
    cl_program p = build("kernel void test(global int *p) { p[0] = 1; }", NULL);
    cl_uint spec = 42;
    EXPECT_ERR(clSetProgramSpecializationConstant(p, 0, sizeof spec, &spec), CL_INVALID_PROGRAM);
    EXPECT_ERR(clSetProgramSpecializationConstant(NULL, 0, sizeof spec, &spec), CL_INVALID_PROGRAM);
    size_t il_size = 1;
    OK(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &il_size));
    CHECK(il_size == 0, "CL_PROGRAM_IL size %zu", il_size);
    cl_uint bogus = 0xDEADBEEF;
    cl_program il = clCreateProgramWithIL(ctx, &bogus, sizeof bogus, &err);
    CHECK(il == NULL && err == CL_INVALID_VALUE, "clCreateProgramWithIL: %d", err);
    clReleaseProgram(p);

    /* Queue properties: bits no version defines are CL_INVALID_VALUE, and
     * so are on-device queues through the OpenCL 1.x call (whose table
     * lists only the host queue properties; device_queues tests those). */
    cl_command_queue q = clCreateCommandQueue(ctx, dev, (cl_command_queue_properties)-1, &err);
    CHECK(q == NULL && err == CL_INVALID_VALUE, "clCreateCommandQueue(-1): %d", err);
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                             &err);
    CHECK(q == NULL && err == CL_INVALID_VALUE, "on-device queue: %d", err);
    cl_queue_properties invalid[] = {(cl_queue_properties)-1, (cl_queue_properties)-1, 0, 0, 0};
    q = clCreateCommandQueueWithProperties(ctx, dev, invalid, &err);
    CHECK(q == NULL && err == CL_INVALID_VALUE, "property name -1: %d", err);
    cl_queue_properties all_bits[] = {CL_QUEUE_PROPERTIES, (cl_queue_properties)-1, 0};
    q = clCreateCommandQueueWithProperties(ctx, dev, all_bits, &err);
    CHECK(q == NULL && err == CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES -1: %d", err);
    cl_queue_properties fine[] = {CL_QUEUE_PROPERTIES,
                                  CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    q = clCreateCommandQueueWithProperties(ctx, dev, fine, &err);
    OK(err);
    clReleaseCommandQueue(q);

    /* CL_CONTEXT_INTEROP_USER_SYNC takes a cl_bool. */
    cl_context_properties sync_bad[] = {CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
    cl_context c = clCreateContext(sync_bad, 1, &dev, NULL, NULL, &err);
    CHECK(c == NULL && err == CL_INVALID_PROPERTY, "clCreateContext sync -1: %d", err);
    cl_context_properties sync_twice[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE,
                                          CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
    c = clCreateContext(sync_twice, 1, &dev, NULL, NULL, &err);
    CHECK(c == NULL && err == CL_INVALID_PROPERTY, "clCreateContext sync twice: %d", err);
    cl_context_properties not_a_name[] = {(cl_context_properties) "INVALID_PROPERTY", 0, 0};
    c = clCreateContext(not_a_name, 1, &dev, NULL, NULL, &err);
    CHECK(c == NULL && err == CL_INVALID_PROPERTY, "clCreateContext bad name: %d", err);
    cl_context_properties from_type_bad[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                             CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
    c = clCreateContextFromType(from_type_bad, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
    CHECK(c == NULL && err == CL_INVALID_PROPERTY, "clCreateContextFromType sync -1: %d", err);
    cl_context_properties sync_ok[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform,
                                       CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
    c = clCreateContextFromType(sync_ok, CL_DEVICE_TYPE_DEFAULT, NULL, NULL, &err);
    OK(err);
    clReleaseContext(c);
}

/* --- Alignment (basic/parameter_types, basic/vector_swizzle,
 * basic/progvar_prog_scope_uninit, basic/kernel_memory_alignment_*,
 * api/min_data_type_align_size_alignment): 16-element vectors by value,
 * and every kind of memory aligned for long16 (128 bytes). */

static const char *ALIGN_SRC =
    "global long16 uninit_longs[3];\n"
    "global char uninit_char;\n"
    "global int16 uninit_ints[2];\n"
    "constant long16 const_longs[3] = {(long16)(0)};\n"
    "constant char const_char[3] = {1, 2, 3};\n"
    "constant long16 const_more[2] = {(long16)(5)};\n"
    "kernel void by_value(global long *out, int16 a, float16 b, long16 c, short16 d,\n"
    "                     char x, long16 e) {\n"
    "    int16 a2 = a * 2;\n"
    "    float16 b2 = b + 0.5f;\n"
    "    long16 c2 = c + e;\n"
    "    short16 d2 = d.sFEDCBA9876543210;\n"
    "    for (int i = 0; i < 16; i++) {\n"
    "        out[i] = a2[i];\n"
    "        out[16 + i] = (long)(b2[i] * 2.0f);\n"
    "        out[32 + i] = c2[i];\n"
    "        out[48 + i] = d2[i];\n"
    "    }\n"
    "    out[64] = x;\n"
    "}\n"
    "kernel void param_types(char16 c, uchar16 uc, short16 s, ushort16 us, int16 i,\n"
    "                        uint16 ui, float16 f, global float16 *result) {\n"
    "    result[0] = convert_float16(c);\n"
    "    result[1] = convert_float16(uc);\n"
    "    result[2] = convert_float16(s);\n"
    "    result[3] = convert_float16(us);\n"
    "    result[4] = convert_float16(i);\n"
    "    result[5] = convert_float16(ui);\n"
    "    result[6] = f;\n"
    "}\n"
    "kernel void uninit(global long *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    uninit_longs[i] = (long16)(i) * (long16)(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);\n"
    "    uninit_ints[i % 2] = (int16)(7);\n"
    "    uninit_char = 1;\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "    long16 v = uninit_longs[i];\n"
    "    out[i] = v.s0 + v.sF + uninit_ints[i % 2].s3;\n"
    "}\n"
    "kernel void addresses(global ulong *out, global long16 *g, local long16 *l, constant long16 *c,\n"
    "                      local char *lc, global char *gc, local long16 *l2) {\n"
    "    local long16 lm[3];\n"
    "    local char lchar[3];\n"
    "    local long16 lm2[2];\n"
    "    lm[0] = (long16)(0); lchar[0] = 0; lm2[0] = (long16)(0); lc[0] = 0;\n"
    "    out[0] = (ulong)g % 128;\n"
    "    out[1] = (ulong)l % 128;\n"
    "    out[2] = (ulong)c % 128;\n"
    "    out[3] = (ulong)lc % 128;\n"
    "    out[4] = (ulong)gc % 128;\n"
    "    out[5] = (ulong)l2 % 128;\n"
    "    out[6] = (ulong)&lm[0] % 128;\n"
    "    out[7] = (ulong)&lm2[0] % 128;\n"
    "    out[8] = (ulong)&uninit_longs[0] % 128;\n"
    "    out[9] = (ulong)&uninit_ints[0] % 64;\n"
    "    out[10] = (ulong)&const_longs[0] % 128;\n"
    "    out[11] = (ulong)&const_more[0] % 128;\n"
    "    out[12] = (ulong)&uninit_char % 1 + lchar[0] + const_char[get_global_id(0)];\n"
    "}\n";

static void alignment(void) {
    cl_uint base_align = 0, min_type_align = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof base_align, &base_align, NULL));
    OK(clGetDeviceInfo(dev, CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, sizeof min_type_align,
                       &min_type_align, NULL));
    CHECK(base_align >= 1024 && (base_align & (base_align - 1)) == 0,
          "CL_DEVICE_MEM_BASE_ADDR_ALIGN %u bits", base_align);
    CHECK(min_type_align >= 128, "CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE %u", min_type_align);

    cl_program p = build(ALIGN_SRC, "-cl-std=CL2.0");

    /* 16-element vectors by value (with a char between them). */
    cl_kernel k = kernel(p, "by_value");
    cl_mem out = new_buffer(65 * sizeof(cl_long));
    cl_int a[16];
    cl_float b[16];
    cl_long c[16], e[16];
    cl_short d[16];
    for (int i = 0; i < 16; i++) {
        a[i] = i - 5;
        b[i] = (cl_float)i * 1.5f;
        c[i] = (cl_long)i << 40;
        e[i] = 1000 + i;
        d[i] = (cl_short)(100 * i);
    }
    cl_char x = -7;
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    OK(clSetKernelArg(k, 1, sizeof a, a));
    OK(clSetKernelArg(k, 2, sizeof b, b));
    OK(clSetKernelArg(k, 3, sizeof c, c));
    OK(clSetKernelArg(k, 4, sizeof d, d));
    OK(clSetKernelArg(k, 5, sizeof x, &x));
    OK(clSetKernelArg(k, 6, sizeof e, e));
    run(k, 1);
    cl_long got[65];
    read_buffer(out, sizeof got, got);
    for (int i = 0; i < 16; i++) {
        CHECK(got[i] == 2 * a[i], "int16 [%d] %lld", i, (long long)got[i]);
        CHECK(got[16 + i] == (cl_long)((b[i] + 0.5f) * 2.0f), "float16 [%d] %lld", i,
              (long long)got[16 + i]);
        CHECK(got[32 + i] == c[i] + e[i], "long16 [%d] %lld", i, (long long)got[32 + i]);
        CHECK(got[48 + i] == d[15 - i], "short16 [%d] %lld", i, (long long)got[48 + i]);
    }
    CHECK(got[64] == -7, "char %lld", (long long)got[64]);
    clReleaseMemObject(out);
    clReleaseKernel(k);

    /* basic/parameter_types with 16-element vectors. */
    k = kernel(p, "param_types");
    out = new_buffer(7 * 16 * sizeof(cl_float));
    cl_char pc[16];
    cl_uchar puc[16];
    cl_short ps[16];
    cl_ushort pus[16];
    cl_int pi[16];
    cl_uint pui[16];
    cl_float pf[16];
    for (int i = 0; i < 16; i++) {
        pc[i] = (cl_char)(-i);
        puc[i] = (cl_uchar)(2 * i);
        ps[i] = (cl_short)(-3 * i);
        pus[i] = (cl_ushort)(4 * i);
        pi[i] = -5 * i;
        pui[i] = 6 * i;
        pf[i] = 0.5f * i;
    }
    OK(clSetKernelArg(k, 0, sizeof pc, pc));
    OK(clSetKernelArg(k, 1, sizeof puc, puc));
    OK(clSetKernelArg(k, 2, sizeof ps, ps));
    OK(clSetKernelArg(k, 3, sizeof pus, pus));
    OK(clSetKernelArg(k, 4, sizeof pi, pi));
    OK(clSetKernelArg(k, 5, sizeof pui, pui));
    OK(clSetKernelArg(k, 6, sizeof pf, pf));
    OK(clSetKernelArg(k, 7, sizeof out, &out));
    run(k, 1);
    cl_float floats[7][16];
    read_buffer(out, sizeof floats, floats);
    for (int i = 0; i < 16; i++) {
        cl_float want[7] = {(cl_float)pc[i], (cl_float)puc[i], (cl_float)ps[i], (cl_float)pus[i],
                            (cl_float)pi[i], (cl_float)pui[i], pf[i]};
        for (int t = 0; t < 7; t++)
            CHECK(floats[t][i] == want[t], "param_types [%d][%d] %g", t, i, floats[t][i]);
    }
    clReleaseMemObject(out);
    clReleaseKernel(k);

    /* Uninitialized program-scope long16s, written and read back. */
    k = kernel(p, "uninit");
    out = new_buffer(3 * sizeof(cl_long));
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    run(k, 3);
    cl_long sums[3];
    read_buffer(out, sizeof sums, sums);
    for (int i = 0; i < 3; i++)
        CHECK(sums[i] == (cl_long)i * 17 + 7, "uninit [%d] %lld", i, (long long)sums[i]);
    clReleaseMemObject(out);
    clReleaseKernel(k);

    /* Addresses of every kind of memory, modulo 128 (or the type's size). */
    k = kernel(p, "addresses");
    out = new_buffer(13 * sizeof(cl_ulong));
    cl_mem g = new_buffer(3 * 128);
    cl_mem odd = new_buffer(5); /* an odd size */
    cl_int err;
    cl_mem cbuf = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 200, NULL, &err);
    OK(err);
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    OK(clSetKernelArg(k, 1, sizeof g, &g));
    OK(clSetKernelArg(k, 2, 3 * 128, NULL));
    OK(clSetKernelArg(k, 3, sizeof cbuf, &cbuf));
    OK(clSetKernelArg(k, 4, 3, NULL)); /* 3 bytes: the next local argument must be realigned */
    OK(clSetKernelArg(k, 5, sizeof odd, &odd));
    OK(clSetKernelArg(k, 6, 128, NULL));
    run(k, 1);
    cl_ulong addr[13];
    read_buffer(out, sizeof addr, addr);
    const char *what[] = {"global arg",    "local arg",      "constant arg",  "local char arg",
                          "global odd arg", "2nd local arg", "local array",   "2nd local array",
                          "global var",     "global int16 var", "constant var", "2nd constant var"};
    for (int i = 0; i < 12; i++) CHECK(addr[i] == 0, "%s: address %% 128 = %llu", what[i],
                                      (unsigned long long)addr[i]);
    CHECK(addr[12] == 1, "constant char %llu", (unsigned long long)addr[12]);
    clReleaseMemObject(g);
    clReleaseMemObject(odd);
    clReleaseMemObject(cbuf);
    clReleaseKernel(k);

    /* Sub-buffers: origins must be multiples of CL_DEVICE_MEM_BASE_ADDR_ALIGN. */
    cl_mem parent = new_buffer(4096);
    cl_buffer_region region = {64, 256};
    cl_mem sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK(sub == NULL && err == CL_MISALIGNED_SUB_BUFFER_OFFSET, "origin 64: %d", err);
    region.origin = base_align / 8;
    sub = clCreateSubBuffer(parent, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    OK(err);
    k = kernel(p, "addresses");
    cl_mem lc = new_buffer(128);
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    OK(clSetKernelArg(k, 1, sizeof sub, &sub));
    OK(clSetKernelArg(k, 2, 128, NULL));
    OK(clSetKernelArg(k, 3, sizeof sub, &sub));
    OK(clSetKernelArg(k, 4, 1, NULL));
    OK(clSetKernelArg(k, 5, sizeof lc, &lc));
    OK(clSetKernelArg(k, 6, 128, NULL));
    run(k, 1);
    read_buffer(out, sizeof addr, addr);
    CHECK(addr[0] == 0 && addr[2] == 0, "sub-buffer address %% 128 = %llu, %llu",
          (unsigned long long)addr[0], (unsigned long long)addr[2]);
    clReleaseMemObject(lc);
    clReleaseMemObject(sub);
    clReleaseMemObject(parent);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* --- Separate compilation (basic/progvar_prog_scope_misc,
 * compiler/two_file_regular_struct_access and friends): objects compiled
 * apart, each with its own declarations, linked into one program. */

/* A program from `src` compiled with `opts`, exiting on failure. */
static cl_program compile(const char *src, const char *opts) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
    OK(err);
    err = clCompileProgram(p, 1, &dev, opts, 0, NULL, NULL, NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "FAIL: compile with \"%s\" failed (%d)\n", opts ? opts : "", err);
        print_log(p);
        exit(1);
    }
    return p;
}

/* Links `n` programs with `opts`: the program, its error in *err. */
static cl_program link_programs(cl_uint n, cl_program *ps, const char *opts, cl_int *err) {
    return clLinkProgram(ctx, 1, &dev, opts, n, ps, NULL, NULL, err);
}

static const char *LINK_MAIN =
    "struct bar { int a; float b; };\n"
    "extern constant struct bar bart;\n"
    "extern global int counter;\n"
    "int helper(struct bar x);\n"
    "static int twice(int x) { return 2 * x; }\n"
    "kernel void link_main(global int *out) {\n"
    "    struct bar v = {3, 2.5f};\n"
    "    out[0] = helper(v);\n"
    "    out[1] = bart.a;\n"
    "    counter += 1;\n"
    "    out[2] = counter;\n"
    "    out[3] = twice(5);\n"
    "}\n";

static const char *LINK_OTHER =
    "struct bar { int a; float b; };\n"
    "constant struct bar bart = {7, 1.0f};\n"
    "global int counter = 40;\n"
    "static int twice(int x) { return 3 * x; }\n"
    "int helper(struct bar x) { return x.a * 10 + (int)x.b + twice(0); }\n"
    "kernel void link_other(global int *out) { out[4] = twice(5); }\n";

/* Runs link_main and link_other of a linked program; checks the results. */
static void check_linked(cl_program linked, const char *what) {
    cl_int out_host[5] = {0};
    cl_mem out = new_buffer(sizeof out_host);
    OK(clEnqueueWriteBuffer(queue, out, CL_TRUE, 0, sizeof out_host, out_host, 0, NULL, NULL));
    cl_kernel k = kernel(linked, "link_main");
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    run(k, 1);
    clReleaseKernel(k);
    k = kernel(linked, "link_other");
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    run(k, 1);
    clReleaseKernel(k);
    read_buffer(out, sizeof out_host, out_host);
    CHECK(out_host[0] == 32, "%s: helper across objects gave %d", what, out_host[0]);
    CHECK(out_host[1] == 7, "%s: extern constant struct gave %d", what, out_host[1]);
    CHECK(out_host[2] == 41, "%s: extern global counter gave %d", what, out_host[2]);
    CHECK(out_host[3] == 10 && out_host[4] == 15, "%s: static functions gave %d, %d", what,
          out_host[3], out_host[4]);
    clReleaseMemObject(out);
}

static void separate_compilation(void) {
    /* OpenCL C 2.0 objects (program-scope variables), each with the
     * default header and its own `struct bar`. */
    const char *opts[] = {"-cl-std=CL2.0", "-cl-std=CL3.0"};
    for (size_t o = 0; o < 2; o++) {
        cl_program objs[2] = {compile(LINK_MAIN, opts[o]), compile(LINK_OTHER, opts[o])};
        cl_uint type = 0;
        OK(clGetProgramBuildInfo(objs[0], dev, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
        CHECK(type == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT, "binary type %u", type);
        cl_int err;
        cl_program linked = link_programs(2, objs, NULL, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "FAIL: link (%s) failed (%d)\n", opts[o], err);
            print_log(linked);
            exit(1);
        }
        check_linked(linked, opts[o]);
        clReleaseProgram(linked);

        /* Through a library, and through an object's binary. */
        cl_program lib = link_programs(1, &objs[1], "-create-library", &err);
        OK(err);
        OK(clGetProgramBuildInfo(lib, dev, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, NULL));
        CHECK(type == CL_PROGRAM_BINARY_TYPE_LIBRARY, "library binary type %u", type);
        size_t size = 0;
        OK(clGetProgramInfo(objs[0], CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
        unsigned char *bin = malloc(size);
        OK(clGetProgramInfo(objs[0], CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
        cl_int bin_status;
        cl_program from_bin = clCreateProgramWithBinary(ctx, 1, &dev, &size,
                                                        (const unsigned char **)&bin, &bin_status, &err);
        OK(err);
        free(bin);
        cl_program inputs[2] = {from_bin, lib};
        linked = link_programs(2, inputs, NULL, &err);
        if (err != CL_SUCCESS) {
            fprintf(stderr, "FAIL: link with a library (%s) failed (%d)\n", opts[o], err);
            print_log(linked);
            exit(1);
        }
        check_linked(linked, "binary + library");
        clReleaseProgram(linked);
        clReleaseProgram(from_bin);
        clReleaseProgram(lib);

        /* The same kernel in two objects: a link error, with a program and
         * a log. */
        cl_program twice[2] = {objs[1], objs[1]};
        linked = link_programs(2, twice, NULL, &err);
        CHECK(err == CL_LINK_PROGRAM_FAILURE && linked != NULL, "duplicate kernels: %d", err);
        if (linked) {
            char log[4096] = "";
            OK(clGetProgramBuildInfo(linked, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
            CHECK(strlen(log) > 0, "empty link log");
            clReleaseProgram(linked);
        }
        clReleaseProgram(objs[0]);
        clReleaseProgram(objs[1]);
    }

    /* A call to a kernel no object defines (compiler/link_error_returns_program),
     * and a variable no object defines. */
    const char *undefined[] = {
        "extern kernel void CopyBuffer(global float *src, global float *dst);\n"
        "kernel void AnotherCopyBuffer(global float *src, global float *dst) {\n"
        "    CopyBuffer(src, dst);\n"
        "}\n",
        "extern global int nowhere;\n"
        "kernel void reads(global int *out) { out[0] = nowhere; }\n",
    };
    for (size_t i = 0; i < 2; i++) {
        cl_program obj = compile(undefined[i], "-cl-std=CL2.0");
        cl_int err;
        cl_program linked = link_programs(1, &obj, NULL, &err);
        CHECK(err == CL_LINK_PROGRAM_FAILURE && linked != NULL, "undefined symbol %zu: %d", i, err);
        if (linked) {
            char log[4096] = "";
            OK(clGetProgramBuildInfo(linked, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
            CHECK(strlen(log) > 0, "empty link log");
            clReleaseProgram(linked);
        }
        clReleaseProgram(obj);
    }
}

/* --- cl_khr_suggested_local_work_size (api/get_kernel_suggested_local_work_size_*):
 * the suggestion is what an enqueue without a local size uses (the kernel
 * records its local size), within CL_KERNEL_WORK_GROUP_SIZE; bad arguments
 * give the extension's error codes. */
typedef cl_int (*suggest_fn)(cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *,
                             size_t *);

static void suggested_local_size(void) {
    char ext[4096] = "";
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, "cl_khr_suggested_local_work_size") != NULL, "not in %s", ext);
    OK(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, "cl_khr_suggested_local_work_size") != NULL, "not in %s", ext);
    suggest_fn suggest = (suggest_fn)clGetExtensionFunctionAddressForPlatform(
        platform, "clGetKernelSuggestedLocalWorkSizeKHR");
    CHECK(suggest != NULL, "no clGetKernelSuggestedLocalWorkSizeKHR");
    if (!suggest)
        return;
    cl_program p = build("kernel void sizes(global uint *out) {\n"
                         "    if (get_global_id(0) == get_global_offset(0) && get_global_id(1) == get_global_offset(1)\n"
                         "        && get_global_id(2) == get_global_offset(2))\n"
                         "        for (uint d = 0; d < 3; d++) out[d] = get_local_size(d);\n"
                         "}\n",
                         "");
    cl_kernel k = kernel(p, "sizes");
    size_t local[3] = {0, 0, 0};
    size_t global[3] = {1000, 6, 5};
    CHECK(suggest(queue, k, 1, NULL, global, local) == CL_INVALID_KERNEL_ARGS, "args unset");
    cl_mem out = new_buffer(3 * sizeof(cl_uint));
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    size_t wg = 0;
    OK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    size_t offset[3] = {3, 0, 0};
    for (cl_uint dims = 1; dims <= 3; dims++) {
        size_t s[3] = {0, 0, 0};
        OK(suggest(queue, k, dims, offset, global, s));
        size_t product = 1;
        for (cl_uint d = 0; d < dims; d++)
            product *= s[d];
        CHECK(product >= 1 && product <= wg, "%u dims: %zu work-items, limit %zu", dims, product, wg);
        OK(clEnqueueNDRangeKernel(queue, k, dims, offset, global, NULL, 0, NULL, NULL));
        cl_uint used[3];
        read_buffer(out, sizeof used, used);
        for (cl_uint d = 0; d < dims; d++)
            CHECK(used[d] == s[d], "%u dims, dim %u: suggested %zu, enqueue used %u", dims, d, s[d],
                  used[d]);
    }
    size_t zero[3] = {0, 4, 4};
    CHECK(suggest(queue, k, 1, NULL, NULL, local) == CL_INVALID_GLOBAL_WORK_SIZE, "NULL global");
    CHECK(suggest(queue, k, 1, NULL, zero, local) == CL_INVALID_GLOBAL_WORK_SIZE, "zero global");
    CHECK(suggest(queue, k, 4, NULL, global, local) == CL_INVALID_WORK_DIMENSION, "4 dims");
    CHECK(suggest(queue, k, 1, NULL, global, NULL) == CL_INVALID_VALUE, "NULL result");
    size_t huge[3] = {SIZE_MAX, 1, 1};
    CHECK(suggest(queue, k, 1, offset, huge, local) == CL_INVALID_GLOBAL_OFFSET, "offset overflow");
    CHECK(suggest(NULL, k, 1, NULL, global, local) == CL_INVALID_COMMAND_QUEUE, "NULL queue");
    CHECK(suggest(queue, NULL, 1, NULL, global, local) == CL_INVALID_KERNEL, "NULL kernel");
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* --- SPIR-V programs (api/consistency_il_programs, api/test_min_max_*
 * image limits, spirv_new's basics): the device lists SPIR-V 1.0 to 1.3
 * and its image limits; a module builds and
 * runs as its source does, and CL_PROGRAM_IL gives its bytes back;
 * specialization constants take their values; compile and link work on
 * IL; malformed modules are CL_INVALID_VALUE, or a build error with the
 * translator's log. The modules come from $LOCKSTEP_TEST_SPIRV_DIR
 * (conformance.rs assembles tests/spirv/ there). */

static unsigned char *read_test_file(const char *name, size_t *size) {
    const char *dir = getenv("LOCKSTEP_TEST_SPIRV_DIR");
    if (!dir) {
        fprintf(stderr, "FAIL: LOCKSTEP_TEST_SPIRV_DIR is not set\n");
        exit(1);
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "FAIL: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = calloc(n + 1, 1);
    if (fread(data, 1, n, f) != (size_t)n) {
        fprintf(stderr, "FAIL: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = n;
    return data;
}

static cl_program from_il(const void *il, size_t size) {
    cl_int err;
    cl_program p = clCreateProgramWithIL(ctx, il, size, &err);
    OK(err);
    return p;
}

/* Runs kernel `control` (kernels.cl) of `p` over 64 work-items. */
static void run_control(cl_program p, cl_int out[64]) {
    cl_kernel k = kernel(p, "control");
    cl_mem m = new_buffer(64 * sizeof(cl_int));
    cl_int n = 10;
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    OK(clSetKernelArg(k, 1, sizeof n, &n));
    size_t global = 64, local = 16;
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    read_buffer(m, 64 * sizeof(cl_int), out);
    clReleaseMemObject(m);
    clReleaseKernel(k);
}

/* Runs kernel `specialized` (specialized.spvasm) of `p` over 4
 * work-items; checks out[i] = i * scale + bonus, f[i] = i + offset,
 * l[i] = i + big. */
static void check_specialized(cl_program p, cl_uint scale, cl_uint bonus, float offset,
                              cl_ulong big, const char *what) {
    cl_kernel k = kernel(p, "specialized");
    cl_mem out = new_buffer(16), f = new_buffer(16), l = new_buffer(32);
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    OK(clSetKernelArg(k, 1, sizeof f, &f));
    OK(clSetKernelArg(k, 2, sizeof l, &l));
    run(k, 4);
    cl_uint o[4];
    float fv[4];
    cl_ulong lv[4];
    read_buffer(out, sizeof o, o);
    read_buffer(f, sizeof fv, fv);
    read_buffer(l, sizeof lv, lv);
    for (cl_uint i = 0; i < 4; i++) {
        CHECK(o[i] == i * scale + bonus, "%s: out[%u] = %u", what, i, o[i]);
        CHECK(fv[i] == (float)i + offset, "%s: f[%u] = %g", what, i, fv[i]);
        CHECK(lv[i] == i + big, "%s: l[%u] = %llu", what, i, (unsigned long long)lv[i]);
    }
    clReleaseMemObject(out);
    clReleaseMemObject(f);
    clReleaseMemObject(l);
    clReleaseKernel(k);
}

/* --- cl_khr_spirv_queries (api/spirv_query_requirements and
 * api/spirv_query_dependencies): the SPIR-V extended instruction sets,
 * extensions and capabilities the device accepts include every one its
 * OpenCL features require, and each capability's SPIR-V version or
 * extension is offered too. */

#ifndef CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR
#define CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR 0x12B9
#define CL_DEVICE_SPIRV_EXTENSIONS_KHR 0x12BA
#define CL_DEVICE_SPIRV_CAPABILITIES_KHR 0x12BB
#endif

/* The strings of a query answering with an array of const char *. */
static size_t spirv_strings(cl_device_info name, const char **out, size_t max) {
    size_t size = 0;
    OK(clGetDeviceInfo(dev, name, 0, NULL, &size));
    CHECK(size % sizeof(char *) == 0 && size / sizeof(char *) <= max, "query 0x%x: %zu bytes",
          name, size);
    OK(clGetDeviceInfo(dev, name, size, out, NULL));
    return size / sizeof(char *);
}

static int has_capability(const cl_uint *caps, size_t n, cl_uint want) {
    for (size_t i = 0; i < n; i++)
        if (caps[i] == want)
            return 1;
    return 0;
}

static int in_strings(const char *const *list, size_t n, const char *want) {
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i], want))
            return 1;
    return 0;
}

static void spirv_queries(void) {
    CHECK(device_reports("cl_khr_spirv_queries"), "cl_khr_spirv_queries not reported");
    const char *sets[16], *exts[64];
    size_t n_sets = spirv_strings(CL_DEVICE_SPIRV_EXTENDED_INSTRUCTION_SETS_KHR, sets, 16);
    size_t n_exts = spirv_strings(CL_DEVICE_SPIRV_EXTENSIONS_KHR, exts, 64);
    CHECK(in_strings(sets, n_sets, "OpenCL.std"), "OpenCL.std not among %zu sets", n_sets);
    cl_uint caps[256];
    size_t caps_size = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_SPIRV_CAPABILITIES_KHR, sizeof caps, caps, &caps_size));
    CHECK(caps_size % sizeof(cl_uint) == 0, "capabilities: %zu bytes", caps_size);
    size_t n_caps = caps_size / sizeof(cl_uint);
#define HAS_CAP(c) has_capability(caps, n_caps, c)
    /* Every device: Addresses, Float16Buffer, Int16, Int8, Kernel, Linkage,
     * Vector16, and Int64 for the full profile. */
    const cl_uint core[] = {4, 8, 22, 39, 6, 5, 7, 11};
    for (size_t i = 0; i < sizeof core / sizeof *core; i++)
        CHECK(HAS_CAP(core[i]), "capability %u missing", core[i]);
    /* Images: Image1D, ImageBasic, ImageBuffer, LiteralSampler, Sampled1D,
     * SampledBuffer, and ImageReadWrite for read-write images. */
    const cl_uint images[] = {44, 13, 47, 20, 43, 46, 14};
    for (size_t i = 0; i < sizeof images / sizeof *images; i++)
        CHECK(HAS_CAP(images[i]), "image capability %u missing", images[i]);
    /* GenericPointer, Groups, Pipes, DeviceEnqueue, SubgroupDispatch (3.0
     * with subgroups), Float64, Int64Atomics. */
    const cl_uint features[] = {38, 18, 17, 19, 58, 10, 12};
    for (size_t i = 0; i < sizeof features / sizeof *features; i++)
        CHECK(HAS_CAP(features[i]), "capability %u missing", features[i]);
    /* Each extension's: (extension, SPIR-V extension or NULL, capabilities). */
    const struct { const char *ext, *spv; cl_uint caps[3]; } by_ext[] = {
        {"cl_khr_extended_bit_ops", "SPV_KHR_bit_instructions", {6025}},
        {"cl_khr_integer_dot_product", "SPV_KHR_integer_dot_product", {6019, 6018, 6017}},
        {"cl_khr_subgroup_rotate", "SPV_KHR_subgroup_rotate", {6026}},
        {"cl_khr_subgroup_ballot", NULL, {64}},
        {"cl_khr_subgroup_clustered_reduce", NULL, {67}},
        {"cl_khr_subgroup_non_uniform_arithmetic", NULL, {63}},
        {"cl_khr_subgroup_non_uniform_vote", NULL, {61, 62}},
        {"cl_khr_subgroup_shuffle", NULL, {65}},
        {"cl_khr_subgroup_shuffle_relative", NULL, {66}},
        {"cl_khr_spirv_no_integer_wrap_decoration", "SPV_KHR_no_integer_wrap_decoration", {0}},
        {"cl_khr_spirv_linkonce_odr", "SPV_KHR_linkonce_odr", {0}},
    };
    for (size_t i = 0; i < sizeof by_ext / sizeof *by_ext; i++) {
        CHECK(device_reports(by_ext[i].ext), "%s not reported", by_ext[i].ext);
        if (by_ext[i].spv)
            CHECK(in_strings(exts, n_exts, by_ext[i].spv), "%s missing", by_ext[i].spv);
        for (int c = 0; c < 3 && by_ext[i].caps[c]; c++)
            CHECK(HAS_CAP(by_ext[i].caps[c]), "%s: capability %u missing", by_ext[i].ext,
                  by_ext[i].caps[c]);
    }
    /* Dependencies: the GroupNonUniform capabilities (61-67) come with
     * SPIR-V 1.3. */
    char il_version[256] = "";
    OK(clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, sizeof il_version, il_version, NULL));
    for (cl_uint c = 61; c <= 67; c++)
        if (HAS_CAP(c))
            CHECK(strstr(il_version, "SPIR-V_1.3") != NULL, "capability %u without SPIR-V 1.3", c);
#undef HAS_CAP
    /* A smaller buffer is CL_INVALID_VALUE. */
    cl_uint one;
    EXPECT_ERR(clGetDeviceInfo(dev, CL_DEVICE_SPIRV_CAPABILITIES_KHR, sizeof one, &one, NULL),
               CL_INVALID_VALUE);
}

static void il_programs(void) {
    /* The device: SPIR-V 1.0 to 1.4 (OpenCL 3.1 requires them). */
    char il_version[256] = "";
    OK(clGetDeviceInfo(dev, CL_DEVICE_IL_VERSION, sizeof il_version, il_version, NULL));
    CHECK(!strcmp(il_version, "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4"),
          "IL version '%s'", il_version);
    cl_name_version ils[8];
    size_t ils_size = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_ILS_WITH_VERSION, sizeof ils, ils, &ils_size));
    CHECK(ils_size == 5 * sizeof(cl_name_version), "ILs size %zu", ils_size);
    for (cl_uint i = 0; i < 5 && i < ils_size / sizeof(cl_name_version); i++)
        CHECK(!strcmp(ils[i].name, "SPIR-V") && ils[i].version == CL_MAKE_VERSION(1, i, 0),
              "IL %u: %s 0x%x", i, ils[i].name, ils[i].version);

    /* Images: CL_DEVICE_IMAGE_SUPPORT, limits at least the full profile's
     * minimums, the required formats. */
    cl_bool images = CL_FALSE;
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    CHECK(images == CL_TRUE, "image support %u", images);
    const struct { cl_device_info name; size_t min; } size_limits[] = {
        {CL_DEVICE_IMAGE2D_MAX_WIDTH, 16384}, {CL_DEVICE_IMAGE2D_MAX_HEIGHT, 16384},
        {CL_DEVICE_IMAGE3D_MAX_WIDTH, 2048}, {CL_DEVICE_IMAGE3D_MAX_HEIGHT, 2048},
        {CL_DEVICE_IMAGE3D_MAX_DEPTH, 2048}, {CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, 65536},
        {CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, 2048}};
    for (size_t i = 0; i < sizeof size_limits / sizeof *size_limits; i++) {
        size_t v = 0, vs = 0;
        OK(clGetDeviceInfo(dev, size_limits[i].name, sizeof v, &v, &vs));
        CHECK(v >= size_limits[i].min && vs == sizeof(size_t), "image limit 0x%x: %zu",
              size_limits[i].name, v);
    }
    const struct { cl_device_info name; cl_uint min; } uint_limits[] = {
        {CL_DEVICE_MAX_READ_IMAGE_ARGS, 128}, {CL_DEVICE_MAX_WRITE_IMAGE_ARGS, 64},
        {CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, 64}, {CL_DEVICE_MAX_SAMPLERS, 16},
        {CL_DEVICE_IMAGE_PITCH_ALIGNMENT, 0}, {CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, 0}};
    for (size_t i = 0; i < sizeof uint_limits / sizeof *uint_limits; i++) {
        cl_uint v = 0;
        size_t vs = 0;
        OK(clGetDeviceInfo(dev, uint_limits[i].name, sizeof v, &v, &vs));
        CHECK(v >= uint_limits[i].min && vs == sizeof(cl_uint), "image limit 0x%x: %u",
              uint_limits[i].name, v);
    }
    cl_uint formats = 0;
    OK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, NULL, &formats));
    CHECK(formats >= 20, "%u image formats", formats);

    /* kernels.spv builds, runs as kernels.cl does, and gives its bytes back. */
    size_t spv_size, src_size;
    unsigned char *spv = read_test_file("kernels.spv", &spv_size);
    char *src = (char *)read_test_file("kernels.cl", &src_size);
    cl_program from_source = build(src, "-cl-std=CL1.2");
    cl_program p = from_il(spv, spv_size);
    size_t il_size = 0;
    OK(clGetProgramInfo(p, CL_PROGRAM_IL, 0, NULL, &il_size));
    CHECK(il_size == spv_size, "CL_PROGRAM_IL size %zu, not %zu", il_size, spv_size);
    unsigned char *back = calloc(il_size + 1, 1);
    OK(clGetProgramInfo(p, CL_PROGRAM_IL, il_size, back, NULL));
    CHECK(!memcmp(back, spv, spv_size), "CL_PROGRAM_IL differs from the module");
    free(back);
    OK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
    cl_build_status st;
    OK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_BUILD_SUCCESS, "build status %d", st);
    char names[1024] = "";
    OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
    CHECK(strstr(names, "control") && strstr(names, "local_reverse") && strstr(names, "print"),
          "kernel names %s", names);
    cl_int want[64], got[64];
    run_control(from_source, want);
    run_control(p, got);
    CHECK(!memcmp(want, got, sizeof want), "control from SPIR-V differs from the source's");
    /* Argument info: types from the module; clang-15 kept no names. */
    cl_kernel k = kernel(p, "control");
    char type[64] = "";
    OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
    CHECK(!strcmp(type, "int*"), "arg 0 type %s", type);
    cl_kernel_arg_address_qualifier aq = 0;
    OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
    CHECK(aq == CL_KERNEL_ARG_ADDRESS_GLOBAL, "arg 0 address qualifier 0x%x", aq);
    char arg_name[64];
    EXPECT_ERR(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof arg_name, arg_name, NULL),
               CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseProgram(from_source);

    /* Specialization constants: SCALE (1, uint), FLAG (2, bool), OFFSET
     * (3, float), BIG (4, ulong). */
    size_t sp_size;
    unsigned char *sp = read_test_file("specialized.spv", &sp_size);
    p = from_il(sp, sp_size);
    cl_uint ten = 10;
    cl_uchar yes = 1;
    float quarter = -0.25f;
    cl_ulong big = 0xFFFFFFFFFFFFFF00ull;
    OK(clSetProgramSpecializationConstant(p, 1, sizeof ten, &ten));
    OK(clSetProgramSpecializationConstant(p, 2, sizeof yes, &yes));
    OK(clSetProgramSpecializationConstant(p, 3, sizeof quarter, &quarter));
    OK(clSetProgramSpecializationConstant(p, 4, sizeof big, &big));
    EXPECT_ERR(clSetProgramSpecializationConstant(p, 9, sizeof ten, &ten), CL_INVALID_SPEC_ID);
    EXPECT_ERR(clSetProgramSpecializationConstant(p, 1, sizeof big, &big), CL_INVALID_VALUE);
    EXPECT_ERR(clSetProgramSpecializationConstant(p, 1, sizeof ten, NULL), CL_INVALID_VALUE);
    OK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
    check_specialized(p, 10, 100, -0.25f, big, "specialized");
    /* Names from the module's OpName. */
    k = kernel(p, "specialized");
    OK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof arg_name, arg_name, NULL));
    CHECK(!strcmp(arg_name, "l"), "arg 2 name %s", arg_name);
    clReleaseKernel(k);
    /* A new value applies to the next build. */
    cl_uint two = 2;
    OK(clSetProgramSpecializationConstant(p, 1, sizeof two, &two));
    OK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
    check_specialized(p, 2, 100, -0.25f, big, "rebuilt");
    clReleaseProgram(p);
    /* Defaults, through clCompileProgram and clLinkProgram. */
    p = from_il(sp, sp_size);
    OK(clCompileProgram(p, 1, &dev, NULL, 0, NULL, NULL, NULL, NULL));
    cl_int err;
    cl_program linked = clLinkProgram(ctx, 1, &dev, NULL, 1, &p, NULL, NULL, &err);
    OK(err);
    check_specialized(linked, 3, 0, 0.5f, 1000000000000ull, "compiled and linked");
    clReleaseProgram(linked);
    clReleaseProgram(p);

    /* Malformed modules: no SPIR-V module for this device is
     * CL_INVALID_VALUE, and never a crash. */
    cl_program bad = clCreateProgramWithIL(ctx, NULL, 16, &err);
    CHECK(bad == NULL && err == CL_INVALID_VALUE, "NULL IL: %d", err);
    bad = clCreateProgramWithIL(ctx, sp, 0, &err);
    CHECK(bad == NULL && err == CL_INVALID_VALUE, "zero length: %d", err);
    bad = clCreateProgramWithIL(NULL, sp, sp_size, &err);
    CHECK(bad == NULL && err == CL_INVALID_CONTEXT, "no context: %d", err);
    bad = clCreateProgramWithIL(ctx, sp, sp_size - 2, &err);
    CHECK(bad == NULL && err == CL_INVALID_VALUE, "not whole words: %d", err);
    bad = clCreateProgramWithIL(ctx, sp, 12, &err);
    CHECK(bad == NULL && err == CL_INVALID_VALUE, "header only: %d", err);
    cl_uint *words = malloc(sp_size + 8);
    memcpy(words, sp, sp_size);
    words[1] = 0x00010500; /* SPIR-V 1.5 */
    bad = clCreateProgramWithIL(ctx, words, sp_size, &err);
    CHECK(bad == NULL && err == CL_INVALID_VALUE, "SPIR-V 1.5: %d", err);
    memcpy(words, sp, sp_size);
    words[sp_size / 4 - 1] = 0x00090038; /* OpFunctionEnd claims 9 words */
    bad = clCreateProgramWithIL(ctx, words, sp_size, &err);
    CHECK(bad == NULL && err == CL_INVALID_VALUE, "instruction past the end: %d", err);
    /* Well-formed words the translator rejects (an unknown opcode before
     * OpFunctionEnd): the program is made, its build fails with a log. */
    memcpy(words, sp, sp_size);
    words[sp_size / 4 - 1] = 0x00017fff;
    words[sp_size / 4] = 0x00010038; /* OpFunctionEnd */
    bad = from_il(words, sp_size + 4);
    EXPECT_ERR(clBuildProgram(bad, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    OK(clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_STATUS, sizeof st, &st, NULL));
    CHECK(st == CL_BUILD_ERROR, "build status %d", st);
    char log[4096] = "";
    OK(clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strstr(log, "llvm-spirv") != NULL, "build log: %s", log);
    cl_kernel none = clCreateKernel(bad, "specialized", &err);
    CHECK(none == NULL && err == CL_INVALID_PROGRAM_EXECUTABLE, "kernel of a failed build: %d", err);
    clReleaseProgram(bad);
    /* A capability the device does not list (Float16, 9: half arithmetic)
     * fails the build with a log naming it. */
    words[5] = 0x00020011; /* OpCapability */
    words[6] = 9;
    memcpy(words + 7, (const cl_uint *)sp + 5, sp_size - 20);
    bad = from_il(words, sp_size + 8);
    EXPECT_ERR(clBuildProgram(bad, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    OK(clGetProgramBuildInfo(bad, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(strstr(log, "capability Float16 (9)") != NULL, "build log: %s", log);
    clReleaseProgram(bad);
    free(words);
    free(sp);
    free(spv);
    free(src);
}

/* --- Asynchronous queues (events/event_flush, events/event_finish_*,
 * events/out_of_order_event_waitlist_*, events/event_enqueue_marker,
 * events/event_enqueue_barrier_*, events/userevents*, events/callbacks*,
 * events/event_waitlist_abort, profiling/execute, multiple_device_context/
 * test_queues): enqueues return before their commands run, which run in
 * order (in-order queues) or as their wait lists allow (out of order). */

static const char *ASYNC_SRC =
    "kernel void step(global uint *buf, uint k) {\n"
    "    size_t i = get_global_id(0);\n"
    "    buf[i] = buf[i] * 3u + k + (uint)i;\n"
    "}\n"
    "kernel void add(global int *buf, int k) { buf[get_global_id(0)] += k; }\n"
    "kernel void spin(global float *buf, int n) {\n"
    "    size_t i = get_global_id(0);\n"
    "    float x = buf[i];\n"
    "    for (int j = 0; j < n; j++) x = x * 0.999f + 1.0f;\n"
    "    buf[i] = x;\n"
    "}\n";

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static cl_command_queue new_queue(cl_command_queue_properties props) {
    cl_int err;
    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, list, &err);
    OK(err);
    return q;
}

static cl_event user_event(void) {
    cl_int err;
    cl_event e = clCreateUserEvent(ctx, &err);
    OK(err);
    return e;
}

static cl_int event_status(cl_event e) {
    cl_int st = 1234;
    OK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
    return st;
}

/* Polls until `e` is done (complete or failed) or `seconds` pass; its
 * status. Polling (not clWaitForEvents) turns a command that never runs
 * into a failed check instead of a hang. */
static cl_int wait_done(cl_event e, double seconds) {
    double end = now_s() + seconds;
    cl_int st;
    while ((st = event_status(e)) > CL_COMPLETE && now_s() < end) usleep(1000);
    return st;
}

/* Polls until `*counter` reaches `want` or `seconds` pass; its value. */
static int wait_count(int *counter, int want, double seconds) {
    double end = now_s() + seconds;
    int v;
    while ((v = __atomic_load_n(counter, __ATOMIC_SEQ_CST)) < want && now_s() < end) usleep(1000);
    return v;
}

static void set_arg_mem(cl_kernel k, cl_uint i, cl_mem m) { OK(clSetKernelArg(k, i, sizeof m, &m)); }
static void set_arg_int(cl_kernel k, cl_uint i, cl_int v) { OK(clSetKernelArg(k, i, sizeof v, &v)); }

/* In order: a long kernel's enqueue returns before it has run; a chain of
 * dependent kernels (each reading what the one before wrote), with a
 * write in the middle, enqueued without waiting, gives the sequential
 * result; arguments are taken when each command is enqueued. */
static void async_in_order(void) {
    cl_program p = build(ASYNC_SRC, NULL);
    cl_kernel step = kernel(p, "step"), spin = kernel(p, "spin");
    cl_command_queue q = new_queue(0);
    enum { N = 4096, STEPS = 64, SPIN_N = 1024 };
    static float spun[SPIN_N];
    cl_mem fbuf = new_buffer(sizeof spun);
    OK(clEnqueueWriteBuffer(q, fbuf, CL_FALSE, 0, sizeof spun, spun, 0, NULL, NULL));
    set_arg_mem(spin, 0, fbuf);
    set_arg_int(spin, 1, 3000000);
    size_t spin_global = SPIN_N;
    cl_event spin_done;
    double t0 = now_s();
    OK(clEnqueueNDRangeKernel(q, spin, 1, NULL, &spin_global, NULL, 0, NULL, &spin_done));
    double t_enqueue = now_s() - t0;
    cl_int st = event_status(spin_done);
    CHECK(st != CL_COMPLETE, "the long kernel was complete when its enqueue returned");

    static cl_uint host[N], expect[N], reset[N];
    for (int i = 0; i < N; i++) {
        host[i] = (cl_uint)i;
        expect[i] = (cl_uint)i;
        reset[i] = (cl_uint)(7 * i + 1);
    }
    cl_mem buf = new_buffer(sizeof host);
    OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof host, host, 0, NULL, NULL));
    set_arg_mem(step, 0, buf);
    size_t global = N;
    for (cl_uint s = 0; s < STEPS; s++) {
        if (s == STEPS / 2) {
            OK(clEnqueueWriteBuffer(q, buf, CL_FALSE, 0, sizeof reset, reset, 0, NULL, NULL));
            memcpy(expect, reset, sizeof reset);
        }
        cl_uint k = 1000 + s;
        OK(clSetKernelArg(step, 1, sizeof k, &k));
        OK(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, NULL, 0, NULL, NULL));
        for (int i = 0; i < N; i++) expect[i] = expect[i] * 3u + k + (cl_uint)i;
    }
    /* Changing the argument after the last enqueue changes nothing. */
    cl_uint other = 5;
    OK(clSetKernelArg(step, 1, sizeof other, &other));
    static cl_uint got[N];
    OK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += got[i] != expect[i];
    CHECK(bad == 0, "%d of %d wrong after the chain (got[1] = %u, want %u)", bad, N, got[1],
          expect[1]);
    CHECK(event_status(spin_done) == CL_COMPLETE, "an in-order command ran after a later one");
    OK(clFinish(q));
    double t_total = now_s() - t0;
    CHECK(t_enqueue < t_total / 4, "the enqueue took %.3f s of %.3f s", t_enqueue, t_total);
    OK(clEnqueueReadBuffer(q, fbuf, CL_TRUE, 0, sizeof spun, spun, 0, NULL, NULL));
    CHECK(spun[0] > 999.0f && spun[0] < 1001.0f && spun[SPIN_N - 1] == spun[0], "spin: %f %f",
          spun[0], spun[SPIN_N - 1]);
    clReleaseEvent(spin_done);
    clReleaseMemObject(buf);
    clReleaseMemObject(fbuf);
    clReleaseCommandQueue(q);
    clReleaseKernel(step);
    clReleaseKernel(spin);
    clReleaseProgram(p);
}

static void check_all(cl_command_queue q, cl_mem m, int n, cl_int want, const char *what) {
    cl_int *got = calloc((size_t)n, sizeof *got);
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, (size_t)n * sizeof *got, got, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += got[i] != want;
    CHECK(bad == 0, "%s: %d wrong (got[0] = %d, want %d)", what, bad, got[0], want);
    free(got);
}

/* Out of order: a command gated by a user event does not hold back
 * independent ones; a command runs after what its wait list names; a
 * marker without a wait list waits for everything before it; a barrier
 * holds back everything after it. */
static void async_out_of_order(void) {
    cl_program p = build(ASYNC_SRC, NULL);
    cl_kernel add = kernel(p, "add");
    cl_command_queue q = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    cl_command_queue in_order = new_queue(0);
    enum { N = 1024 };
    size_t size = N * sizeof(cl_int), global = N;
    cl_mem a = new_buffer(size), b = new_buffer(size);
    cl_int five = 5, seven = 7, one = 1;

    cl_event gate = user_event(), ea, eb, ec, em;
    OK(clEnqueueFillBuffer(q, a, &five, sizeof five, 0, size, 1, &gate, &ea));
    OK(clEnqueueFillBuffer(q, b, &seven, sizeof seven, 0, size, 0, NULL, &eb));
    CHECK(wait_done(eb, 30) == CL_COMPLETE, "an independent command waited for a gated one");
    set_arg_mem(add, 0, a);
    set_arg_int(add, 1, 1);
    OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 1, &ea, &ec));
    OK(clEnqueueMarkerWithWaitList(q, 0, NULL, &em));
    usleep(50000);
    CHECK(event_status(ea) == CL_QUEUED, "the gated fill ran: %d", event_status(ea));
    CHECK(event_status(ec) == CL_QUEUED, "a kernel ran before its wait list: %d", event_status(ec));
    CHECK(event_status(em) == CL_QUEUED, "a marker completed before earlier commands: %d",
          event_status(em));
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(wait_done(em, 30) == CL_COMPLETE, "the marker did not complete");
    CHECK(event_status(ea) == CL_COMPLETE && event_status(ec) == CL_COMPLETE,
          "the marker completed before what it waits for");
    check_all(in_order, a, N, 6, "fill then add");
    check_all(in_order, b, N, 7, "independent fill");

    /* A barrier: what comes after waits for what came before. */
    cl_event gate2 = user_event(), ee, ef, eg;
    OK(clEnqueueFillBuffer(q, a, &one, sizeof one, 0, size, 1, &gate2, &ee));
    OK(clEnqueueBarrierWithWaitList(q, 0, NULL, NULL));
    set_arg_int(add, 1, 10);
    OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 0, NULL, &ef));
    /* A command of another queue waiting for this queue's command. */
    set_arg_int(add, 1, 100);
    OK(clEnqueueNDRangeKernel(in_order, add, 1, NULL, &global, NULL, 1, &ef, &eg));
    usleep(50000);
    CHECK(event_status(ef) == CL_QUEUED, "a command after a barrier ran early: %d",
          event_status(ef));
    CHECK(event_status(eg) == CL_QUEUED, "a command of another queue ran before its wait list");
    OK(clSetUserEventStatus(gate2, CL_COMPLETE));
    CHECK(wait_done(eg, 30) == CL_COMPLETE, "the chain across queues did not complete");
    OK(clFinish(q));
    check_all(in_order, a, N, 111, "fill, barrier, add, add on another queue");

    /* Many commands, each waiting for the one enqueued before it: they
     * run in that order although the queue is out of order. */
    cl_event prev = NULL;
    for (int i = 0; i < 50; i++) {
        set_arg_int(add, 1, i);
        cl_event next;
        OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, prev ? 1 : 0,
                                  prev ? &prev : NULL, &next));
        if (prev) clReleaseEvent(prev);
        prev = next;
    }
    OK(clWaitForEvents(1, &prev));
    clReleaseEvent(prev);
    check_all(in_order, a, N, 111 + 49 * 50 / 2, "a chain of 50 waits");
    cl_event evs[] = {gate, ea, eb, ec, em, gate2, ee, ef, eg};
    for (size_t i = 0; i < sizeof evs / sizeof *evs; i++) clReleaseEvent(evs[i]);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(q);
    clReleaseCommandQueue(in_order);
    clReleaseKernel(add);
    clReleaseProgram(p);
}

struct gate_setter {
    cl_event gate;
    cl_int status;
    int delay_us;
};

static void *set_gate_later(void *arg) {
    struct gate_setter *g = arg;
    usleep((useconds_t)g->delay_us);
    OK(clSetUserEventStatus(g->gate, g->status));
    return NULL;
}

/* User events gate commands of several queues; one set from another
 * thread while this one blocks in clWaitForEvents. */
static void async_user_events(void) {
    cl_program p = build(ASYNC_SRC, NULL);
    cl_kernel add = kernel(p, "add");
    cl_command_queue q1 = new_queue(0), q2 = new_queue(0);
    enum { N = 256 };
    size_t size = N * sizeof(cl_int), global = N;
    cl_mem m = new_buffer(size);
    static cl_int threes[N], got[N];
    for (int i = 0; i < N; i++) threes[i] = 3;
    cl_event gate = user_event(), ew, ek, er;
    OK(clEnqueueWriteBuffer(q2, m, CL_FALSE, 0, size, threes, 1, &gate, &ew));
    set_arg_mem(add, 0, m);
    set_arg_int(add, 1, 4);
    OK(clEnqueueNDRangeKernel(q1, add, 1, NULL, &global, NULL, 1, &ew, &ek));
    OK(clEnqueueReadBuffer(q1, m, CL_FALSE, 0, size, got, 0, NULL, &er));
    OK(clFlush(q1));
    OK(clFlush(q2));
    usleep(50000);
    CHECK(event_status(ew) == CL_QUEUED && event_status(ek) == CL_QUEUED &&
              event_status(er) == CL_QUEUED,
          "gated commands ran: %d %d %d", event_status(ew), event_status(ek), event_status(er));
    CHECK(got[0] == 0, "the read ran early");
    pthread_t t;
    struct gate_setter setter = {gate, CL_COMPLETE, 20000};
    pthread_create(&t, NULL, set_gate_later, &setter);
    OK(clWaitForEvents(1, &er));
    pthread_join(t, NULL);
    CHECK(got[0] == 7 && got[N - 1] == 7, "gated chain: %d", got[0]);
    CHECK(event_status(ew) == CL_COMPLETE && event_status(ek) == CL_COMPLETE, "statuses");
    cl_event evs[] = {gate, ew, ek, er};
    for (size_t i = 0; i < sizeof evs / sizeof *evs; i++) clReleaseEvent(evs[i]);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseKernel(add);
    clReleaseProgram(p);
}

struct callback_record {
    int calls;
    cl_int status;
};

static void CL_CALLBACK record_callback(cl_event e, cl_int status, void *user) {
    (void)e;
    struct callback_record *r = user;
    r->status = status;
    __atomic_add_fetch(&r->calls, 1, __ATOMIC_SEQ_CST);
}

static void CL_CALLBACK count_callback(cl_event e, cl_int status, void *user) {
    (void)e;
    if (status == CL_COMPLETE) __atomic_add_fetch((int *)user, 1, __ATOMIC_SEQ_CST);
}

static cl_command_queue callback_queue;
static cl_mem callback_buffer;
static cl_event enqueued_from_callback;

/* Enqueues a (non-blocking) command from inside a callback. */
static void CL_CALLBACK enqueue_callback(cl_event e, cl_int status, void *user) {
    (void)e;
    (void)status;
    (void)user;
    cl_int nine = 9;
    cl_event done;
    OK(clEnqueueFillBuffer(callback_queue, callback_buffer, &nine, sizeof nine, 0, sizeof nine, 0,
                           NULL, &done));
    __atomic_store_n(&enqueued_from_callback, done, __ATOMIC_SEQ_CST);
}

/* Callbacks: each registered one is called once, when its status is
 * reached (or at once if it was), with the status; on failure with the
 * error; a callback may enqueue. */
static void async_callbacks(void) {
    cl_program p = build(ASYNC_SRC, NULL);
    cl_kernel add = kernel(p, "add");
    cl_command_queue q = new_queue(0);
    enum { N = 256 };
    size_t global = N;
    cl_mem m = new_buffer(N * sizeof(cl_int));
    set_arg_mem(add, 0, m);
    set_arg_int(add, 1, 1);
    cl_event gate = user_event(), e;
    OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 1, &gate, &e));
    static struct callback_record rec[3], late, failed[2];
    cl_int types[3] = {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE};
    for (int i = 0; i < 3; i++) OK(clSetEventCallback(e, types[i], record_callback, &rec[i]));
    usleep(30000);
    for (int i = 0; i < 3; i++) CHECK(rec[i].calls == 0, "callback %d called before its status", i);
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clWaitForEvents(1, &e));
    for (int i = 0; i < 3; i++) {
        CHECK(wait_count(&rec[i].calls, 1, 30) == 1, "callback %d: %d calls", i, rec[i].calls);
        CHECK(rec[i].status == types[i], "callback %d: status %d", i, rec[i].status);
    }
    OK(clSetEventCallback(e, CL_COMPLETE, record_callback, &late));
    CHECK(wait_count(&late.calls, 1, 30) == 1 && late.status == CL_COMPLETE,
          "a callback on a complete event: %d calls, status %d", late.calls, late.status);

    /* A failed wait list: callbacks get the error, once. */
    cl_event gate2 = user_event(), f;
    OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 1, &gate2, &f));
    OK(clSetEventCallback(f, CL_SUBMITTED, record_callback, &failed[0]));
    OK(clSetEventCallback(f, CL_COMPLETE, record_callback, &failed[1]));
    OK(clSetUserEventStatus(gate2, -12));
    for (int i = 0; i < 2; i++) {
        CHECK(wait_count(&failed[i].calls, 1, 30) == 1, "failure callback %d: %d calls", i,
              failed[i].calls);
        CHECK(failed[i].status == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
              "failure callback %d: status %d", i, failed[i].status);
    }

    /* Many commands, each with a callback: every one called exactly once. */
    static int completed = 0;
    enum { MANY = 200 };
    for (int i = 0; i < MANY; i++) {
        cl_event ev;
        OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 0, NULL, &ev));
        OK(clSetEventCallback(ev, CL_COMPLETE, count_callback, &completed));
        OK(clReleaseEvent(ev));
    }
    OK(clFinish(q));
    CHECK(wait_count(&completed, MANY, 30) == MANY, "%d of %d callbacks", completed, MANY);
    usleep(20000);
    CHECK(completed == MANY, "%d callbacks for %d commands", completed, MANY);

    /* A callback that enqueues on the queue whose command it follows. */
    callback_queue = q;
    callback_buffer = m;
    cl_event g;
    OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 0, NULL, &g));
    OK(clSetEventCallback(g, CL_COMPLETE, enqueue_callback, NULL));
    double end = now_s() + 30;
    while (!__atomic_load_n(&enqueued_from_callback, __ATOMIC_SEQ_CST) && now_s() < end)
        usleep(1000);
    cl_event from_cb = __atomic_load_n(&enqueued_from_callback, __ATOMIC_SEQ_CST);
    CHECK(from_cb != NULL, "the callback did not enqueue");
    if (from_cb) {
        CHECK(wait_done(from_cb, 30) == CL_COMPLETE, "the command enqueued by a callback");
        clReleaseEvent(from_cb);
    }
    cl_int first = 0;
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof first, &first, 0, NULL, NULL));
    CHECK(first == 9, "first element %d", first);
    cl_event evs[] = {gate, e, gate2, f, g};
    for (size_t i = 0; i < sizeof evs / sizeof *evs; i++) clReleaseEvent(evs[i]);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    clReleaseKernel(add);
    clReleaseProgram(p);
}

static void profile(cl_event e, cl_ulong t[4]) {
    cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                 CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int i = 0; i < 4; i++) OK(clGetEventProfilingInfo(e, what[i], sizeof t[i], &t[i], NULL));
}

/* Profiling: per command queued <= submitted <= started <= ended; in an
 * in-order queue each command starts after the one before ended; a gated
 * command starts after its gate opened. */
static void async_profiling(void) {
    cl_program p = build(ASYNC_SRC, NULL);
    cl_kernel step = kernel(p, "step");
    cl_command_queue q = new_queue(CL_QUEUE_PROFILING_ENABLE);
    enum { N = 4096, CMDS = 24 };
    size_t global = N;
    cl_mem m = new_buffer(N * sizeof(cl_uint));
    static cl_uint host[N];
    set_arg_mem(step, 0, m);
    set_arg_int(step, 1, 1);
    cl_event gate = user_event();
    cl_event evs[CMDS];
    for (int i = 0; i < CMDS; i++) {
        if (i % 3 == 2)
            OK(clEnqueueReadBuffer(q, m, CL_FALSE, 0, sizeof host, host, 0, NULL, &evs[i]));
        else
            OK(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, NULL, i == CMDS / 2 ? 1 : 0,
                                      i == CMDS / 2 ? &gate : NULL, &evs[i]));
    }
    cl_ulong t[4];
    EXPECT_ERR(clGetEventProfilingInfo(evs[CMDS - 1], CL_PROFILING_COMMAND_END, sizeof t[0], t,
                                       NULL),
               CL_PROFILING_INFO_NOT_AVAILABLE);
    usleep(20000);
    cl_ulong opened = 0;
    OK(clGetHostTimer(dev, &opened));
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    OK(clFinish(q));
    cl_ulong prev_end = 0;
    for (int i = 0; i < CMDS; i++) {
        profile(evs[i], t);
        CHECK(t[0] > 0 && t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3],
              "command %d: %llu %llu %llu %llu", i, (unsigned long long)t[0],
              (unsigned long long)t[1], (unsigned long long)t[2], (unsigned long long)t[3]);
        CHECK(t[2] >= prev_end, "command %d started before the one before ended", i);
        if (i == CMDS / 2)
            CHECK(t[0] < opened && t[2] >= opened, "the gated command: queued %llu, started %llu, "
                  "gate opened %llu", (unsigned long long)t[0], (unsigned long long)t[2],
                  (unsigned long long)opened);
        prev_end = t[3];
        clReleaseEvent(evs[i]);
    }
    clReleaseEvent(gate);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    clReleaseKernel(step);
    clReleaseProgram(p);
}

enum { THREADS = 8, ROUNDS = 25, TN = 512 };
static cl_program thread_program;
static cl_command_queue shared_q;

/* A thread: enqueues kernels on the shared queue and its own without
 * waiting (its own waiting for the shared one's), then clFinish on both;
 * what it enqueued before clFinish is complete when clFinish returns. */
static void *finish_thread(void *arg) {
    int id = (int)(intptr_t)arg;
    cl_int err;
    cl_kernel add = clCreateKernel(thread_program, "add", &err);
    OK(err);
    cl_command_queue own = new_queue(id % 2 ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0);
    cl_mem m = new_buffer(TN * sizeof(cl_int)), n = new_buffer(TN * sizeof(cl_int));
    size_t global = TN;
    cl_event last_shared = NULL, last_own = NULL;
    for (int r = 0; r < ROUNDS; r++) {
        set_arg_mem(add, 0, m);
        set_arg_int(add, 1, 1);
        if (last_shared) clReleaseEvent(last_shared);
        OK(clEnqueueNDRangeKernel(shared_q, add, 1, NULL, &global, NULL, 0, NULL, &last_shared));
        set_arg_mem(add, 0, n);
        set_arg_int(add, 1, 2);
        cl_event prev = last_own;
        OK(clEnqueueNDRangeKernel(own, add, 1, NULL, &global, NULL, prev ? 1 : 0,
                                  prev ? &prev : NULL, &last_own));
        if (prev) clReleaseEvent(prev);
    }
    OK(clFinish(shared_q));
    CHECK(event_status(last_shared) == CL_COMPLETE, "thread %d: clFinish returned early", id);
    OK(clFinish(own));
    CHECK(event_status(last_own) == CL_COMPLETE, "thread %d: clFinish (own) returned early", id);
    cl_int got[TN];
    OK(clEnqueueReadBuffer(own, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK(got[0] == ROUNDS && got[TN - 1] == ROUNDS, "thread %d: shared queue %d", id, got[0]);
    OK(clEnqueueReadBuffer(own, n, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    CHECK(got[0] == 2 * ROUNDS && got[TN - 1] == 2 * ROUNDS, "thread %d: own queue %d", id,
          got[0]);
    clReleaseEvent(last_shared);
    clReleaseEvent(last_own);
    clReleaseMemObject(m);
    clReleaseMemObject(n);
    clReleaseCommandQueue(own);
    clReleaseKernel(add);
    return NULL;
}

static void *finish_gated(void *arg) {
    (void)arg;
    OK(clFinish(shared_q));
    return NULL;
}

/* clFinish from several threads at once, while they and others enqueue. */
static void async_threads(void) {
    thread_program = build(ASYNC_SRC, NULL);
    shared_q = new_queue(0);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&t[i], NULL, finish_thread, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);

    /* Threads blocked in clFinish behind a user event another sets. */
    cl_event gate = user_event(), gated;
    OK(clEnqueueMarkerWithWaitList(shared_q, 1, &gate, &gated));
    pthread_t waiters[4];
    for (int i = 0; i < 4; i++) pthread_create(&waiters[i], NULL, finish_gated, NULL);
    usleep(30000);
    CHECK(event_status(gated) == CL_QUEUED, "the gated marker ran");
    struct gate_setter setter = {gate, CL_COMPLETE, 10000};
    pthread_t s;
    pthread_create(&s, NULL, set_gate_later, &setter);
    for (int i = 0; i < 4; i++) pthread_join(waiters[i], NULL);
    pthread_join(s, NULL);
    CHECK(event_status(gated) == CL_COMPLETE, "clFinish returned before the gated marker ran");
    clReleaseEvent(gate);
    clReleaseEvent(gated);
    clReleaseCommandQueue(shared_q);
    clReleaseProgram(thread_program);
}

/* A failed event fails what waits for it, through other queues and
 * markers; a blocking read waiting for it returns the error; commands that
 * do not wait for it still run. */
static void async_failure(void) {
    cl_program p = build(ASYNC_SRC, NULL);
    cl_kernel add = kernel(p, "add");
    cl_command_queue q1 = new_queue(0), q2 = new_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    enum { N = 256 };
    size_t size = N * sizeof(cl_int), global = N;
    cl_mem m = new_buffer(size);
    static cl_int nines[N], got[N];
    for (int i = 0; i < N; i++) nines[i] = 9;
    cl_int zero = 0;
    OK(clEnqueueFillBuffer(q1, m, &zero, sizeof zero, 0, size, 0, NULL, NULL));
    OK(clFinish(q1));
    cl_event gate = user_event(), e1, e2, e3;
    OK(clEnqueueWriteBuffer(q1, m, CL_FALSE, 0, size, nines, 1, &gate, &e1));
    set_arg_mem(add, 0, m);
    set_arg_int(add, 1, 1);
    OK(clEnqueueNDRangeKernel(q2, add, 1, NULL, &global, NULL, 1, &e1, &e2));
    OK(clEnqueueMarkerWithWaitList(q2, 1, &e2, &e3));
    struct gate_setter setter = {gate, -7, 30000};
    pthread_t t;
    pthread_create(&t, NULL, set_gate_later, &setter);
    /* Blocks until the gate fails. */
    EXPECT_ERR(clEnqueueReadBuffer(q2, m, CL_TRUE, 0, size, got, 1, &e1, NULL),
               CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    pthread_join(t, NULL);
    CHECK(event_status(gate) == -7, "gate %d", event_status(gate));
    CHECK(wait_done(e1, 30) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "e1 %d",
          event_status(e1));
    CHECK(wait_done(e2, 30) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "e2 %d",
          event_status(e2));
    CHECK(wait_done(e3, 30) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "e3 %d",
          event_status(e3));
    EXPECT_ERR(clWaitForEvents(1, &e3), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    check_all(q1, m, N, 0, "failed commands wrote");
    /* An event that failed already fails a new command at once. */
    cl_event e4;
    OK(clEnqueueNDRangeKernel(q1, add, 1, NULL, &global, NULL, 1, &e2, &e4));
    CHECK(wait_done(e4, 30) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "e4 %d",
          event_status(e4));
    /* The queues go on. */
    set_arg_int(add, 1, 4);
    OK(clEnqueueNDRangeKernel(q1, add, 1, NULL, &global, NULL, 0, NULL, NULL));
    OK(clEnqueueNDRangeKernel(q2, add, 1, NULL, &global, NULL, 0, NULL, NULL));
    OK(clFinish(q1));
    OK(clFinish(q2));
    check_all(q1, m, N, 8, "after the failure");
    cl_event evs[] = {gate, e1, e2, e3, e4};
    for (size_t i = 0; i < sizeof evs / sizeof *evs; i++) clReleaseEvent(evs[i]);
    clReleaseMemObject(m);
    clReleaseCommandQueue(q1);
    clReleaseCommandQueue(q2);
    clReleaseKernel(add);
    clReleaseProgram(p);
}

static int mem_destroyed = 0, context_destroyed = 0;
static cl_int value_at_destruction = -1;

static void CL_CALLBACK on_mem_destroyed(cl_mem m, void *user) {
    (void)m;
    value_at_destruction = *(cl_int *)user;
    __atomic_store_n(&mem_destroyed, 1, __ATOMIC_SEQ_CST);
}

static void CL_CALLBACK on_context_destroyed(cl_context c, void *user) {
    (void)c;
    (void)user;
    __atomic_store_n(&context_destroyed, 1, __ATOMIC_SEQ_CST);
}

/* Releasing the buffer, kernel, queue and context of a pending command:
 * the command still runs, on live memory, and the destructor callbacks
 * come after it. */
static void async_release(void) {
    cl_int err;
    cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    OK(err);
    OK(clSetContextDestructorCallback(c, on_context_destroyed, NULL));
    const char *src = ASYNC_SRC;
    cl_program p = clCreateProgramWithSource(c, 1, &src, NULL, &err);
    OK(err);
    OK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
    cl_kernel add = clCreateKernel(p, "add", &err);
    OK(err);
    cl_queue_properties none[] = {0};
    cl_command_queue q = clCreateCommandQueueWithProperties(c, dev, none, &err);
    OK(err);
    enum { N = 64 };
    static cl_int host[N] __attribute__((aligned(128)));
    cl_mem m = clCreateBuffer(c, CL_MEM_USE_HOST_PTR, sizeof host, host, &err);
    OK(err);
    OK(clSetMemObjectDestructorCallback(m, on_mem_destroyed, host));
    cl_event gate = clCreateUserEvent(c, &err), done;
    OK(err);
    set_arg_mem(add, 0, m);
    set_arg_int(add, 1, 5);
    size_t global = N;
    OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 1, &gate, &done));
    OK(clReleaseMemObject(m));
    OK(clReleaseKernel(add));
    OK(clReleaseProgram(p));
    OK(clReleaseCommandQueue(q));
    OK(clReleaseContext(c));
    usleep(20000);
    CHECK(!mem_destroyed, "the buffer of a pending command was destroyed");
    CHECK(!context_destroyed, "the context of a pending command was destroyed");
    OK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(wait_done(done, 30) == CL_COMPLETE, "the command of released objects: %d",
          event_status(done));
    CHECK(wait_count(&mem_destroyed, 1, 30) == 1, "the buffer was not destroyed after its command");
    CHECK(value_at_destruction == 5, "the buffer was destroyed before its command ran (%d)",
          value_at_destruction);
    CHECK(host[0] == 5 && host[N - 1] == 5, "host memory %d", host[0]);
    OK(clReleaseEvent(done));
    OK(clReleaseEvent(gate));
    CHECK(wait_count(&context_destroyed, 1, 30) == 1, "the context was not destroyed at the end");
}

/* --- Image and sampler arguments (api/negative_invalid_arg_sampler,
 * api/negative_invalid_arg_sampler_size, api/negative_set_kernel_arg_invalid_image,
 * api/negative_set_read_write_image_arg): clSetKernelArg's error codes. */
static cl_mem new_image_2d(cl_mem_flags flags, size_t w, size_t h) {
    cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
    cl_image_desc d = {0};
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = w;
    d.image_height = h;
    cl_int err;
    cl_mem m = clCreateImage(ctx, flags, &f, &d, NULL, &err);
    OK(err);
    return m;
}

static void image_kernel_args(void) {
    const char *src =
        "kernel void copy(sampler_t s, read_only image2d_t src, write_only image2d_t dst,\n"
        "                 global uint4 *out) {\n"
        "  int2 p = (int2)(get_global_id(0), 0);\n"
        "  uint4 v = read_imageui(src, s, p);\n"
        "  write_imageui(dst, p, v + 1);\n"
        "  out[p.x] = v;\n"
        "}\n"
        "kernel void bump(read_write image2d_t img) {\n"
        "  int2 p = (int2)(get_global_id(0), 0);\n"
        "  write_imageui(img, p, read_imageui(img, p) * 2);\n"
        "}\n"
        "kernel void vol(read_only image3d_t v, global float4 *out) {\n"
        "  out[0] = read_imagef(v, (int4)(0));\n"
        "}\n";
    cl_program p = build(src, "-cl-std=CL3.0");
    cl_kernel copy = kernel(p, "copy"), bump = kernel(p, "bump"), vol = kernel(p, "vol");
    cl_int err;
    cl_sampler s = clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &err);
    OK(err);
    cl_mem ro = new_image_2d(CL_MEM_READ_ONLY, 4, 1), wo = new_image_2d(CL_MEM_WRITE_ONLY, 4, 1);
    cl_mem rw = new_image_2d(CL_MEM_READ_WRITE, 4, 1), buf = new_buffer(4 * 16);
    cl_mem none = NULL;

    /* A sampler: a NULL value, or anything not a sampler, is
     * CL_INVALID_SAMPLER; a size other than sizeof(cl_sampler) is
     * CL_INVALID_ARG_SIZE (even with a valid sampler). */
    EXPECT_ERR(clSetKernelArg(copy, 0, sizeof(cl_sampler), NULL), CL_INVALID_SAMPLER);
    EXPECT_ERR(clSetKernelArg(copy, 0, sizeof(cl_sampler), &buf), CL_INVALID_SAMPLER);
    EXPECT_ERR(clSetKernelArg(copy, 0, sizeof(cl_sampler), &none), CL_INVALID_SAMPLER);
    EXPECT_ERR(clSetKernelArg(copy, 0, 2 * sizeof(cl_sampler), &s), CL_INVALID_ARG_SIZE);
    EXPECT_ERR(clSetKernelArg(copy, 0, sizeof(cl_sampler) / 2, &s), CL_INVALID_ARG_SIZE);
    OK(clSetKernelArg(copy, 0, sizeof s, &s));

    /* An image: a buffer, NULL, a sampler, or an image of another type is
     * CL_INVALID_MEM_OBJECT; a size other than sizeof(cl_mem)
     * CL_INVALID_ARG_SIZE. */
    EXPECT_ERR(clSetKernelArg(copy, 1, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clSetKernelArg(copy, 1, sizeof(cl_mem), NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clSetKernelArg(copy, 1, sizeof none, &none), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clSetKernelArg(copy, 1, sizeof s, &s), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clSetKernelArg(copy, 1, 2 * sizeof(cl_mem), &rw), CL_INVALID_ARG_SIZE);
    EXPECT_ERR(clSetKernelArg(vol, 0, sizeof rw, &rw), CL_INVALID_MEM_OBJECT);
    /* An image is not a buffer either. */
    EXPECT_ERR(clSetKernelArg(copy, 3, sizeof rw, &rw), CL_INVALID_MEM_OBJECT);

    /* Access: a read_only argument takes no CL_MEM_WRITE_ONLY image, a
     * write_only one no CL_MEM_READ_ONLY image (CL_INVALID_ARG_VALUE);
     * READ_WRITE images go anywhere. */
    EXPECT_ERR(clSetKernelArg(copy, 1, sizeof wo, &wo), CL_INVALID_ARG_VALUE);
    EXPECT_ERR(clSetKernelArg(copy, 2, sizeof ro, &ro), CL_INVALID_ARG_VALUE);
    OK(clSetKernelArg(copy, 1, sizeof ro, &ro));
    OK(clSetKernelArg(copy, 2, sizeof wo, &wo));
    OK(clSetKernelArg(copy, 3, sizeof buf, &buf));
    OK(clSetKernelArg(bump, 0, sizeof rw, &rw));

    /* The arguments that were set run. */
    cl_uchar texels[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    size_t origin[3] = {0, 0, 0}, region[3] = {4, 1, 1};
    OK(clEnqueueWriteImage(queue, ro, CL_TRUE, origin, region, 0, 0, texels, 0, NULL, NULL));
    OK(clEnqueueWriteImage(queue, rw, CL_TRUE, origin, region, 0, 0, texels, 0, NULL, NULL));
    run(copy, 4);
    run(bump, 4);
    cl_uint seen[16];
    read_buffer(buf, sizeof seen, seen);
    cl_uchar plus1[16], twice[16];
    OK(clEnqueueReadImage(queue, wo, CL_TRUE, origin, region, 0, 0, plus1, 0, NULL, NULL));
    OK(clEnqueueReadImage(queue, rw, CL_TRUE, origin, region, 0, 0, twice, 0, NULL, NULL));
    for (int i = 0; i < 16; i++) {
        CHECK(seen[i] == texels[i], "texel %d read as %u", i, seen[i]);
        CHECK(plus1[i] == texels[i] + 1, "texel %d written as %u", i, plus1[i]);
        CHECK(twice[i] == 2 * texels[i], "read_write texel %d is %u", i, twice[i]);
    }
    clReleaseMemObject(ro);
    clReleaseMemObject(wo);
    clReleaseMemObject(rw);
    clReleaseMemObject(buf);
    clReleaseSampler(s);
    clReleaseKernel(copy);
    clReleaseKernel(bump);
    clReleaseKernel(vol);
    clReleaseProgram(p);
}

/* --- Images from buffers (api/consistency_2d_image_from_buffer; the
 * images suite's 1D buffer and image2d_from_buffer runs): a 1D buffer
 * image and a 2D image from a buffer share the buffer's memory both ways
 * (kernels, host commands, maps), report it, keep it alive, and their
 * creation gives the spec's errors. */
static int buffer_destroyed, image_destroyed;
static void CL_CALLBACK on_buffer_destroyed(cl_mem m, void *user) {
    (void)m;
    (void)user;
    /* The image holds the buffer: the buffer goes after it. */
    CHECK(__atomic_load_n(&image_destroyed, __ATOMIC_SEQ_CST), "the buffer went before its image");
    __atomic_store_n(&buffer_destroyed, 1, __ATOMIC_SEQ_CST);
}
static void CL_CALLBACK on_image_destroyed(cl_mem m, void *user) {
    (void)m;
    (void)user;
    __atomic_store_n(&image_destroyed, 1, __ATOMIC_SEQ_CST);
}

static cl_mem image_of_buffer(cl_mem_object_type ty, cl_mem_flags flags, cl_image_format f,
                              size_t w, size_t h, size_t pitch, cl_mem buffer, cl_int *err) {
    cl_image_desc d = {0};
    d.image_type = ty;
    d.image_width = w;
    d.image_height = h;
    d.image_row_pitch = pitch;
    d.mem_object = buffer;
    return clCreateImage(ctx, flags, &f, &d, NULL, err);
}

static void images_from_buffers(void) {
    /* The device supports 2D images from buffers and says how they align. */
    cl_uint pitch_align = 0, base_align = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof pitch_align, &pitch_align, NULL));
    OK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof base_align, &base_align,
                       NULL));
    CHECK(pitch_align == 1 && base_align == 1, "alignments %u %u", pitch_align, base_align);
    CHECK(device_reports("cl_khr_image2d_from_buffer"), "cl_khr_image2d_from_buffer not reported");

    const char *src =
        "kernel void put2d(write_only image2d_t img) {\n"
        "  int x = get_global_id(0), y = get_global_id(1);\n"
        "  write_imageui(img, (int2)(x, y), (uint4)(x, y, 1, 2));\n"
        "}\n"
        "kernel void twice(read_only image1d_buffer_t src, write_only image1d_buffer_t dst) {\n"
        "  int x = get_global_id(0);\n"
        "  write_imageui(dst, x, read_imageui(src, x) * 2);\n"
        "}\n";
    cl_program p = build(src, NULL);
    cl_kernel put2d = kernel(p, "put2d"), twice = kernel(p, "twice");
    cl_int err;
    cl_image_format rgba8 = {CL_RGBA, CL_UNSIGNED_INT8}, r32 = {CL_R, CL_UNSIGNED_INT32};

    /* A 5x3 RGBA8 image with rows 32 bytes apart in a 96-byte buffer. */
    enum { W = 5, H = 3, PITCH = 32 };
    cl_uchar init[PITCH * H];
    memset(init, 0xab, sizeof init);
    cl_mem buf2d = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init, &err);
    OK(err);
    cl_mem img2d = image_of_buffer(CL_MEM_OBJECT_IMAGE2D, 0, rgba8, W, H, PITCH, buf2d, &err);
    OK(err);
    size_t v = 0;
    OK(clGetImageInfo(img2d, CL_IMAGE_ROW_PITCH, sizeof v, &v, NULL));
    CHECK(v == PITCH, "row pitch %zu", v);
    cl_mem assoc = NULL;
    OK(clGetMemObjectInfo(img2d, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, NULL));
    CHECK(assoc == buf2d, "associated %p", (void *)assoc);
    assoc = NULL;
    OK(clGetImageInfo(img2d, CL_IMAGE_BUFFER, sizeof assoc, &assoc, NULL));
    CHECK(assoc == buf2d, "image buffer %p", (void *)assoc);
    cl_mem_flags flags = 0;
    OK(clGetMemObjectInfo(img2d, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == (CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR), "inherited flags 0x%llx",
          (unsigned long long)flags);
    cl_mem_object_type type = 0;
    OK(clGetMemObjectInfo(img2d, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_OBJECT_IMAGE2D, "type 0x%x", type);

    /* A kernel's writes to the image are in the buffer, between the rows'
     * padding it leaves alone. */
    set_arg_mem(put2d, 0, img2d);
    size_t global[2] = {W, H};
    OK(clEnqueueNDRangeKernel(queue, put2d, 2, NULL, global, NULL, 0, NULL, NULL));
    cl_uchar got[PITCH * H];
    read_buffer(buf2d, sizeof got, got);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < PITCH / 4; x++) {
            const cl_uchar *t = got + y * PITCH + 4 * x;
            if (x < W)
                CHECK(t[0] == x && t[1] == y && t[2] == 1 && t[3] == 2, "texel (%d,%d): %u %u %u %u",
                      x, y, t[0], t[1], t[2], t[3]);
            else
                CHECK(t[0] == 0xab && t[3] == 0xab, "padding at (%d,%d) written", x, y);
        }
    /* The buffer's writes are the image's texels: read, mapped. */
    cl_uchar row1[W * 4];
    for (int i = 0; i < W * 4; i++) row1[i] = (cl_uchar)(100 + i);
    OK(clEnqueueWriteBuffer(queue, buf2d, CL_TRUE, PITCH, sizeof row1, row1, 0, NULL, NULL));
    size_t origin[3] = {0, 1, 0}, region[3] = {W, 1, 1};
    cl_uchar back[W * 4];
    OK(clEnqueueReadImage(queue, img2d, CL_TRUE, origin, region, 0, 0, back, 0, NULL, NULL));
    CHECK(!memcmp(back, row1, sizeof back), "image row 1 after writing the buffer");
    size_t rp = 0;
    cl_uchar *mapped = clEnqueueMapImage(queue, img2d, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, origin,
                                         region, &rp, NULL, 0, NULL, NULL, &err);
    OK(err);
    cl_uchar *mapped_buf = clEnqueueMapBuffer(queue, buf2d, CL_TRUE, CL_MAP_READ, PITCH, W * 4, 0,
                                              NULL, NULL, &err);
    OK(err);
    CHECK(mapped == mapped_buf && rp == PITCH, "the image maps to the buffer's memory (%p, %p, %zu)",
          (void *)mapped, (void *)mapped_buf, rp);
    mapped[0] = 42;
    OK(clEnqueueUnmapMemObject(queue, img2d, mapped, 0, NULL, NULL));
    OK(clEnqueueUnmapMemObject(queue, buf2d, mapped_buf, 0, NULL, NULL));
    cl_uchar one;
    OK(clEnqueueReadBuffer(queue, buf2d, CL_TRUE, PITCH, 1, &one, 0, NULL, NULL));
    CHECK(one == 42, "write through the mapped image: %u", one);
    /* A fill of the image lands in the buffer too. */
    cl_uint color[4] = {9, 8, 7, 6};
    size_t corner[3] = {4, 2, 0}, one_texel[3] = {1, 1, 1};
    OK(clEnqueueFillImage(queue, img2d, color, corner, one_texel, 0, NULL, NULL));
    cl_uchar filled[4];
    OK(clEnqueueReadBuffer(queue, buf2d, CL_TRUE, 2 * PITCH + 16, 4, filled, 0, NULL, NULL));
    CHECK(filled[0] == 9 && filled[3] == 6, "fill: %u %u", filled[0], filled[3]);
    /* A copy between the image and its own buffer's overlapping bytes is
     * CL_MEM_COPY_OVERLAP; one to bytes the image does not use goes. */
    size_t zero[3] = {0, 0, 0}, row[3] = {2, 1, 1};
    EXPECT_ERR(clEnqueueCopyImageToBuffer(queue, img2d, buf2d, zero, row, 4, 0, NULL, NULL),
               CL_MEM_COPY_OVERLAP);
    EXPECT_ERR(clEnqueueCopyBufferToImage(queue, buf2d, img2d, 4, zero, row, 0, NULL, NULL),
               CL_MEM_COPY_OVERLAP);
    OK(clEnqueueCopyImageToBuffer(queue, img2d, buf2d, zero, row, W * 4, 0, NULL, NULL));
    cl_uchar copied[8];
    OK(clEnqueueReadBuffer(queue, buf2d, CL_TRUE, W * 4, 8, copied, 0, NULL, NULL));
    CHECK(copied[0] == 0 && copied[1] == 0 && copied[4] == 1 && copied[7] == 2, "copy to padding");

    /* 1D buffer images: a kernel reads one and writes another, each in a
     * buffer (one a sub-buffer). */
    enum { N = 64 };
    cl_uint vals[N];
    for (int i = 0; i < N; i++) vals[i] = (cl_uint)(3 * i + 1);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof vals, vals, &err);
    OK(err);
    cl_mem parent = new_buffer(256 + sizeof vals);
    cl_buffer_region at = {256, sizeof vals};
    cl_mem out = clCreateSubBuffer(parent, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &at, &err);
    OK(err);
    cl_mem src1d = image_of_buffer(CL_MEM_OBJECT_IMAGE1D_BUFFER, 0, r32, N, 0, 0, in, &err);
    OK(err);
    cl_mem dst1d = image_of_buffer(CL_MEM_OBJECT_IMAGE1D_BUFFER, 0, r32, N, 0, 0, out, &err);
    OK(err);
    OK(clGetMemObjectInfo(src1d, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags & CL_MEM_READ_ONLY, "1D image flags 0x%llx", (unsigned long long)flags);
    set_arg_mem(twice, 0, src1d);
    set_arg_mem(twice, 1, dst1d);
    run(twice, N);
    cl_uint doubled[N];
    OK(clEnqueueReadBuffer(queue, parent, CL_TRUE, 256, sizeof doubled, doubled, 0, NULL, NULL));
    for (int i = 0; i < N; i++) CHECK(doubled[i] == 2 * vals[i], "1D texel %d: %u", i, doubled[i]);
    /* The buffer's new contents are what the next launch reads. */
    for (int i = 0; i < N; i++) vals[i] = (cl_uint)(1000 + i);
    OK(clEnqueueWriteBuffer(queue, in, CL_TRUE, 0, sizeof vals, vals, 0, NULL, NULL));
    run(twice, N);
    OK(clEnqueueReadImage(queue, dst1d, CL_TRUE, zero, (size_t[]){N, 1, 1}, 0, 0, doubled, 0, NULL,
                          NULL));
    for (int i = 0; i < N; i++) CHECK(doubled[i] == 2000 + 2 * (cl_uint)i, "relaunch %d: %u", i, doubled[i]);

    /* The image holds its buffer: one more reference, and the buffer
     * lives on after the application releases it. */
    cl_uint refs = 0;
    OK(clGetMemObjectInfo(in, CL_MEM_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(refs == 2, "buffer references with an image: %u", refs);
    OK(clSetMemObjectDestructorCallback(in, on_buffer_destroyed, NULL));
    OK(clSetMemObjectDestructorCallback(src1d, on_image_destroyed, NULL));
    OK(clReleaseMemObject(in));
    run(twice, N);
    OK(clEnqueueReadImage(queue, src1d, CL_TRUE, zero, (size_t[]){N, 1, 1}, 0, 0, doubled, 0, NULL,
                          NULL));
    CHECK(doubled[5] == 1005, "the released buffer's texel: %u", doubled[5]);
    CHECK(!__atomic_load_n(&buffer_destroyed, __ATOMIC_SEQ_CST), "the buffer went with its image alive");
    OK(clReleaseMemObject(src1d));
    CHECK(wait_count(&buffer_destroyed, 1, 30) == 1 && image_destroyed, "destructors %d %d",
          buffer_destroyed, image_destroyed);

    /* Errors. */
    cl_mem small = new_buffer(64);
    cl_mem ro = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 256, NULL, &err);
    OK(err);
    /* Texels past the buffer's end: CL_INVALID_IMAGE_SIZE. */
    image_of_buffer(CL_MEM_OBJECT_IMAGE2D, 0, rgba8, 4, 5, 0, small, &err);
    CHECK(err == CL_INVALID_IMAGE_SIZE, "2D past the end: %d", err);
    image_of_buffer(CL_MEM_OBJECT_IMAGE1D_BUFFER, 0, r32, 17, 0, 0, small, &err);
    CHECK(err == CL_INVALID_IMAGE_SIZE, "1D past the end: %d", err);
    /* A pitch below a row: CL_INVALID_IMAGE_DESCRIPTOR; not a multiple of
     * the pitch alignment (pixels): CL_INVALID_IMAGE_FORMAT_DESCRIPTOR. */
    image_of_buffer(CL_MEM_OBJECT_IMAGE2D, 0, rgba8, 4, 2, 12, small, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "pitch below a row: %d", err);
    image_of_buffer(CL_MEM_OBJECT_IMAGE2D, 0, rgba8, 4, 2, 18, small, &err);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "unaligned pitch: %d", err);
    /* A USE_HOST_PTR buffer not aligned to a pixel: the same. */
    static cl_uchar host[256] __attribute__((aligned(64)));
    cl_mem odd = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 128, host + 2, &err);
    OK(err);
    image_of_buffer(CL_MEM_OBJECT_IMAGE2D, 0, rgba8, 4, 2, 0, odd, &err);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "unaligned base: %d", err);
    /* Host pointer flags, or access the buffer forbids: CL_INVALID_VALUE. */
    cl_mem_flags bad[] = {CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR, CL_MEM_ALLOC_HOST_PTR,
                          CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                          CL_MEM_HOST_WRITE_ONLY};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        image_of_buffer(CL_MEM_OBJECT_IMAGE2D, bad[i], rgba8, 4, 2, 0, ro, &err);
        CHECK(err == CL_INVALID_VALUE, "flags 0x%llx: %d", (unsigned long long)bad[i], err);
    }
    cl_mem inherits = image_of_buffer(CL_MEM_OBJECT_IMAGE2D, 0, rgba8, 4, 2, 0, ro, &err);
    OK(err);
    OK(clGetMemObjectInfo(inherits, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS), "inherited 0x%llx",
          (unsigned long long)flags);
    /* A host pointer: CL_INVALID_HOST_PTR. */
    cl_image_desc d = {0};
    d.image_type = CL_MEM_OBJECT_IMAGE2D;
    d.image_width = 4;
    d.image_height = 2;
    d.mem_object = small;
    clCreateImage(ctx, 0, &rgba8, &d, host, &err);
    CHECK(err == CL_INVALID_HOST_PTR, "host pointer: %d", err);
    /* An image as the memory of a 2D image (only sRGB views of a linear
     * image are allowed, and there are no sRGB formats), or a buffer given
     * to another type: the spec's codes. */
    d.mem_object = img2d;
    clCreateImage(ctx, 0, &rgba8, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "2D image from an image: %d", err);
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    clCreateImage(ctx, 0, &rgba8, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "1D buffer image of an image: %d", err);
    d.image_type = CL_MEM_OBJECT_IMAGE3D;
    d.image_depth = 2;
    d.mem_object = small;
    clCreateImage(ctx, 0, &rgba8, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "3D image of a buffer: %d", err);
    d.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    d.mem_object = NULL;
    clCreateImage(ctx, 0, &rgba8, &d, NULL, &err);
    CHECK(err == CL_INVALID_IMAGE_DESCRIPTOR, "1D buffer image without a buffer: %d", err);
    /* Sub-buffers of an image are not allowed. */
    clCreateSubBuffer(img2d, 0, CL_BUFFER_CREATE_TYPE_REGION, &(cl_buffer_region){0, 16}, &err);
    CHECK(err == CL_INVALID_MEM_OBJECT, "sub-buffer of an image: %d", err);

    clReleaseMemObject(inherits);
    clReleaseMemObject(odd);
    clReleaseMemObject(ro);
    clReleaseMemObject(small);
    clReleaseMemObject(dst1d);
    clReleaseMemObject(out);
    clReleaseMemObject(parent);
    clReleaseMemObject(img2d);
    clReleaseMemObject(buf2d);
    clReleaseKernel(put2d);
    clReleaseKernel(twice);
    clReleaseProgram(p);
}

/* --- Device partitioning (api/get_context_info_mult_devices,
 * api/negative_create_sub_devices, the device_partition binary): the
 * schemes, the sub-devices' info, their reference counts, contexts,
 * programs and queues of several devices, and a kernel on a sub-device of
 * one compute unit, which runs its work-groups one at a time. */

static cl_uint device_uint(cl_device_id d, cl_device_info param) {
    cl_uint v = 0;
    OK(clGetDeviceInfo(d, param, sizeof v, &v, NULL));
    return v;
}

/* The device's CL_DEVICE_PARTITION_TYPE equals `want` (n entries). */
static void check_partition_type(cl_device_id d, const cl_device_partition_property *want, size_t n) {
    cl_device_partition_property got[8] = {0};
    size_t size = 0;
    OK(clGetDeviceInfo(d, CL_DEVICE_PARTITION_TYPE, sizeof got, got, &size));
    CHECK(size == n * sizeof *want, "CL_DEVICE_PARTITION_TYPE size %zu, expected %zu", size,
          n * sizeof *want);
    for (size_t i = 0; i < n && i < 8; i++)
        CHECK(got[i] == want[i], "CL_DEVICE_PARTITION_TYPE[%zu] = %ld, expected %ld", i,
              (long)got[i], (long)want[i]);
}

/* One work-item per group counts the groups running at once, the most
 * seen in counters[1]. The barrier keeps each group's work-items in gangs
 * of their own (lane refill, which may give one gang work-items of
 * several groups, runs no kernel with a barrier), so a single thread runs
 * the groups one after another. */
static const char *concurrency_src =
    "kernel void groups(global int *counters, global long *out, global int *data) {\n"
    "    size_t i = get_global_id(0);\n"
    "    data[i] = data[i] * 2 + 1;\n"
    "    if (get_local_id(0) == 0) {\n"
    "        int now = atomic_inc(&counters[0]) + 1;\n"
    "        atomic_max(&counters[1], now);\n"
    "        for (int k = 0; k < 20000; k++) atomic_add(&counters[2], 1);\n"
    "        atomic_dec(&counters[0]);\n"
    "    }\n"
    "    barrier(CLK_GLOBAL_MEM_FENCE);\n"
    "}\n";

/* Runs `groups` on `q` over n work-items in groups of 16: checks the data
 * and returns how many work-groups ran at once at most. */
static int run_groups(cl_context c, cl_command_queue q, cl_device_id *build_for, cl_uint n_build) {
    cl_int err;
    cl_program p = clCreateProgramWithSource(c, 1, &concurrency_src, NULL, &err);
    OK(err);
    OK(clBuildProgram(p, n_build, build_for, NULL, NULL, NULL));
    cl_kernel k = clCreateKernel(p, "groups", &err);
    OK(err);
    enum { N = 1024 };
    cl_int counters[3] = {0, 0, 0}, data[N];
    for (int i = 0; i < N; i++) data[i] = i;
    cl_mem cbuf = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof counters, counters, &err);
    OK(err);
    cl_mem obuf = clCreateBuffer(c, CL_MEM_READ_WRITE, 2 * sizeof(cl_long), NULL, &err);
    OK(err);
    cl_mem dbuf = clCreateBuffer(c, CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    OK(err);
    OK(clSetKernelArg(k, 0, sizeof cbuf, &cbuf));
    OK(clSetKernelArg(k, 1, sizeof obuf, &obuf));
    OK(clSetKernelArg(k, 2, sizeof dbuf, &dbuf));
    size_t global = N, local = 16;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, cbuf, CL_TRUE, 0, sizeof counters, counters, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, dbuf, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += data[i] != 2 * i + 1;
    CHECK(bad == 0, "%d wrong results", bad);
    CHECK(counters[0] == 0 && counters[2] == 20000 * (N / 16), "counters %d %d", counters[0],
          counters[2]);
    clReleaseMemObject(cbuf);
    clReleaseMemObject(obuf);
    clReleaseMemObject(dbuf);
    clReleaseKernel(k);
    clReleaseProgram(p);
    return counters[1];
}

static void sub_devices(void) {
    cl_int err;
    cl_uint units = device_uint(dev, CL_DEVICE_MAX_COMPUTE_UNITS);
    cl_device_partition_property props[8] = {0};
    size_t props_size = 0, size = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_PARTITION_PROPERTIES, sizeof props, props, &props_size));
    cl_device_affinity_domain domains = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_PARTITION_AFFINITY_DOMAIN, sizeof domains, &domains, NULL));
    cl_device_id parent = (cl_device_id)1;
    OK(clGetDeviceInfo(dev, CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
    CHECK(parent == NULL, "the root device has a parent");
    OK(clGetDeviceInfo(dev, CL_DEVICE_PARTITION_TYPE, 0, NULL, &size));
    CHECK(size == 0, "root CL_DEVICE_PARTITION_TYPE size %zu", size);
    /* Invalid devices, whatever the device. */
    cl_device_partition_property equally1[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_uint n = 0;
    EXPECT_ERR(clCreateSubDevices(NULL, equally1, 0, NULL, &n), CL_INVALID_DEVICE);
    EXPECT_ERR(clCreateSubDevices((cl_device_id)platform, equally1, 0, NULL, &n), CL_INVALID_DEVICE);
    if (units < 2) {
        /* One compute unit: no scheme makes two sub-devices. */
        CHECK(props_size == sizeof props[0] && props[0] == 0, "one unit: partition properties");
        EXPECT_ERR(clCreateSubDevices(dev, equally1, 0, NULL, &n), CL_DEVICE_PARTITION_FAILED);
        printf("one compute unit: partitioning not tested\n");
        return;
    }
    CHECK(props_size == 3 * sizeof props[0] && props[0] == CL_DEVICE_PARTITION_EQUALLY &&
              props[1] == CL_DEVICE_PARTITION_BY_COUNTS &&
              props[2] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
          "CL_DEVICE_PARTITION_PROPERTIES (%zu bytes)", props_size);
    CHECK(domains == (CL_DEVICE_AFFINITY_DOMAIN_NUMA | CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE),
          "CL_DEVICE_PARTITION_AFFINITY_DOMAIN %llx", (unsigned long long)domains);
    CHECK(device_uint(dev, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == units, "max sub-devices");
    CHECK(device_uint(dev, CL_DEVICE_REFERENCE_COUNT) == 1, "root reference count");

    /* Equally by one: a sub-device per unit. */
    OK(clCreateSubDevices(dev, equally1, 0, NULL, &n));
    CHECK(n == units, "EQUALLY 1 makes %u sub-devices on %u units", n, units);
    cl_device_id *ones = calloc(units, sizeof *ones);
    EXPECT_ERR(clCreateSubDevices(dev, equally1, units - 1, ones, &n), CL_INVALID_VALUE);
    EXPECT_ERR(clCreateSubDevices(dev, equally1, 0, ones, NULL), CL_INVALID_VALUE);
    OK(clCreateSubDevices(dev, equally1, units, ones, &n));
    for (cl_uint i = 0; i < units; i++) {
        CHECK(device_uint(ones[i], CL_DEVICE_MAX_COMPUTE_UNITS) == 1, "sub-device units");
        CHECK(device_uint(ones[i], CL_DEVICE_REFERENCE_COUNT) == 1, "sub-device reference count");
        CHECK(device_uint(ones[i], CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 0, "one unit: max");
        cl_device_type type = 0;
        OK(clGetDeviceInfo(ones[i], CL_DEVICE_TYPE, sizeof type, &type, NULL));
        CHECK(type == CL_DEVICE_TYPE_CPU, "sub-device type");
        OK(clGetDeviceInfo(ones[i], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
        CHECK(parent == dev, "sub-device parent");
        check_partition_type(ones[i], equally1, 3);
        OK(clGetDeviceInfo(ones[i], CL_DEVICE_PARTITION_PROPERTIES, sizeof props, props, &size));
        CHECK(size == sizeof props[0] && props[0] == 0, "one unit: partition properties");
        for (cl_uint j = 0; j < i; j++) CHECK(ones[i] != ones[j], "two sub-devices alike");
    }
    /* A device of one unit cannot be partitioned. */
    EXPECT_ERR(clCreateSubDevices(ones[0], equally1, 1, &parent, &n), CL_DEVICE_PARTITION_FAILED);

    /* Retain and release count for sub-devices and not for the root. */
    OK(clRetainDevice(ones[0]));
    CHECK(device_uint(ones[0], CL_DEVICE_REFERENCE_COUNT) == 2, "retained sub-device");
    OK(clReleaseDevice(ones[0]));
    CHECK(device_uint(ones[0], CL_DEVICE_REFERENCE_COUNT) == 1, "released sub-device");
    OK(clRetainDevice(dev));
    OK(clReleaseDevice(dev));
    OK(clReleaseDevice(dev));
    CHECK(device_uint(dev, CL_DEVICE_REFERENCE_COUNT) == 1, "root reference count");

    /* By counts {1, units - 1}, then the second partitioned further. */
    cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, units - 1,
                                             CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_device_id two[2];
    OK(clCreateSubDevices(dev, counts, 2, two, &n));
    CHECK(n == 2, "BY_COUNTS made %u", n);
    CHECK(device_uint(two[0], CL_DEVICE_MAX_COMPUTE_UNITS) == 1 &&
              device_uint(two[1], CL_DEVICE_MAX_COMPUTE_UNITS) == units - 1,
          "BY_COUNTS units");
    check_partition_type(two[1], counts, 5);
    cl_device_partition_property all[] = {CL_DEVICE_PARTITION_BY_COUNTS, units,
                                          CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    cl_device_id whole, nested[2];
    OK(clCreateSubDevices(dev, all, 1, &whole, &n));
    CHECK(device_uint(whole, CL_DEVICE_MAX_COMPUTE_UNITS) == units, "BY_COUNTS all units");
    cl_device_partition_property one_and_one[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
                                                  CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    OK(clCreateSubDevices(whole, one_and_one, 2, nested, &n));
    CHECK(n == 2, "nested partition made %u", n);
    OK(clGetDeviceInfo(nested[1], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
    CHECK(parent == whole, "nested parent");
    CHECK(device_uint(whole, CL_DEVICE_REFERENCE_COUNT) == 3, "sub-devices retain their parent");
    OK(clReleaseDevice(whole));
    OK(clGetDeviceInfo(nested[0], CL_DEVICE_PARENT_DEVICE, sizeof parent, &parent, NULL));
    CHECK(parent == whole, "a released parent stays while its sub-devices do");
    CHECK(device_uint(whole, CL_DEVICE_MAX_COMPUTE_UNITS) == units, "released parent");
    OK(clReleaseDevice(nested[0]));
    OK(clReleaseDevice(nested[1]));
    EXPECT_ERR(clRetainDevice(nested[1]), CL_INVALID_DEVICE);
    EXPECT_ERR(clGetDeviceInfo(whole, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof n, &n, NULL),
               CL_INVALID_DEVICE);

    /* The spec's errors. */
    EXPECT_ERR(clCreateSubDevices(dev, NULL, 0, NULL, &n), CL_INVALID_VALUE);
    cl_device_partition_property bad[] = {-1, 1, 0};
    EXPECT_ERR(clCreateSubDevices(dev, bad, 0, NULL, &n), CL_INVALID_VALUE);
    cl_device_partition_property two_schemes[] = {CL_DEVICE_PARTITION_EQUALLY, 1,
                                                  CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    EXPECT_ERR(clCreateSubDevices(dev, two_schemes, 0, NULL, &n), CL_INVALID_VALUE);
    cl_device_partition_property equally_n[] = {CL_DEVICE_PARTITION_EQUALLY, units, 0};
    EXPECT_ERR(clCreateSubDevices(dev, equally_n, 0, NULL, &n), CL_DEVICE_PARTITION_FAILED);
    equally_n[1] = units + 1;
    EXPECT_ERR(clCreateSubDevices(dev, equally_n, 0, NULL, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
    equally_n[1] = 0;
    EXPECT_ERR(clCreateSubDevices(dev, equally_n, 0, NULL, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
    cl_device_partition_property too_many_units[] = {CL_DEVICE_PARTITION_BY_COUNTS, units, 1,
                                                     CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    EXPECT_ERR(clCreateSubDevices(dev, too_many_units, 0, NULL, &n),
               CL_INVALID_DEVICE_PARTITION_COUNT);
    cl_device_partition_property negative[] = {CL_DEVICE_PARTITION_BY_COUNTS, -1,
                                               CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    EXPECT_ERR(clCreateSubDevices(dev, negative, 0, NULL, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
    cl_device_partition_property none[] = {CL_DEVICE_PARTITION_BY_COUNTS,
                                           CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    EXPECT_ERR(clCreateSubDevices(dev, none, 0, NULL, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
    cl_device_partition_property *ones_list = calloc(units + 3, sizeof *ones_list);
    ones_list[0] = CL_DEVICE_PARTITION_BY_COUNTS;
    for (cl_uint i = 1; i <= units + 1; i++) ones_list[i] = 1;
    EXPECT_ERR(clCreateSubDevices(dev, ones_list, 0, NULL, &n), CL_INVALID_DEVICE_PARTITION_COUNT);
    free(ones_list);
    cl_device_partition_property l2[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                         CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE, 0};
    EXPECT_ERR(clCreateSubDevices(dev, l2, 0, NULL, &n), CL_INVALID_VALUE);

    /* NUMA and the next partitionable domain: one sub-device per NUMA node
     * (reported as NUMA), or CL_DEVICE_PARTITION_FAILED with one node. */
    cl_device_affinity_domain by[] = {CL_DEVICE_AFFINITY_DOMAIN_NUMA,
                                      CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE};
    for (int i = 0; i < 2; i++) {
        cl_device_partition_property affinity[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                   (cl_device_partition_property)by[i], 0};
        err = clCreateSubDevices(dev, affinity, 0, NULL, &n);
        if (err == CL_DEVICE_PARTITION_FAILED) {
            printf("affinity domain %llx: one NUMA node, no partition\n", (unsigned long long)by[i]);
            continue;
        }
        OK(err);
        CHECK(n >= 2, "NUMA partition into %u", n);
        cl_device_id *nodes = calloc(n, sizeof *nodes);
        OK(clCreateSubDevices(dev, affinity, n, nodes, NULL));
        cl_device_partition_property numa[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                               CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0};
        cl_uint total = 0;
        for (cl_uint j = 0; j < n; j++) {
            check_partition_type(nodes[j], numa, 3);
            total += device_uint(nodes[j], CL_DEVICE_MAX_COMPUTE_UNITS);
            OK(clReleaseDevice(nodes[j]));
        }
        CHECK(total == units, "NUMA nodes hold %u of %u units", total, units);
        free(nodes);
    }

    /* A context of sub-devices and the root device; duplicates count once. */
    cl_device_id set[4] = {two[0], two[1], dev, two[0]};
    cl_context multi = clCreateContext(NULL, 4, set, NULL, NULL, &err);
    OK(err);
    cl_uint num = 0;
    OK(clGetContextInfo(multi, CL_CONTEXT_NUM_DEVICES, sizeof num, &num, NULL));
    CHECK(num == 3, "CL_CONTEXT_NUM_DEVICES %u", num);
    cl_device_id got[4] = {0};
    OK(clGetContextInfo(multi, CL_CONTEXT_DEVICES, sizeof got, got, &size));
    CHECK(size == 3 * sizeof got[0] && got[0] == two[0] && got[1] == two[1] && got[2] == dev,
          "CL_CONTEXT_DEVICES");
    /* The context holds its devices: releasing one keeps it usable. */
    OK(clRetainDevice(two[1]));
    OK(clReleaseDevice(two[1]));
    /* Queues only on the context's devices. */
    cl_command_queue q = clCreateCommandQueueWithProperties(multi, ones[0], NULL, &err);
    CHECK(q == NULL && err == CL_INVALID_DEVICE, "queue on a device not in the context: %d", err);
    q = clCreateCommandQueueWithProperties(ctx, two[0], NULL, &err);
    CHECK(q == NULL && err == CL_INVALID_DEVICE, "queue on a device not in the context: %d", err);
    cl_command_queue on_one = clCreateCommandQueueWithProperties(multi, two[0], NULL, &err);
    OK(err);
    cl_device_id qdev = NULL;
    OK(clGetCommandQueueInfo(on_one, CL_QUEUE_DEVICE, sizeof qdev, &qdev, NULL));
    CHECK(qdev == two[0], "CL_QUEUE_DEVICE");
    cl_command_queue on_root = clCreateCommandQueueWithProperties(multi, dev, NULL, &err);
    OK(err);

    /* Programs are for the context's devices; built for the root device,
     * they run on the sub-devices too (one CPU). */
    cl_program p = clCreateProgramWithSource(multi, 1, &concurrency_src, NULL, &err);
    OK(err);
    EXPECT_ERR(clBuildProgram(p, 1, &ones[0], NULL, NULL, NULL), CL_INVALID_DEVICE);
    OK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
    OK(clGetProgramInfo(p, CL_PROGRAM_NUM_DEVICES, sizeof num, &num, NULL));
    CHECK(num == 3, "CL_PROGRAM_NUM_DEVICES %u", num);
    OK(clGetProgramInfo(p, CL_PROGRAM_DEVICES, sizeof got, got, &size));
    CHECK(size == 3 * sizeof got[0] && got[1] == two[1], "CL_PROGRAM_DEVICES");
    cl_build_status status = CL_BUILD_NONE;
    OK(clGetProgramBuildInfo(p, two[1], CL_PROGRAM_BUILD_STATUS, sizeof status, &status, NULL));
    CHECK(status == CL_BUILD_SUCCESS, "build status on a sub-device %d", status);
    EXPECT_ERR(clGetProgramBuildInfo(p, ones[0], CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                     NULL),
               CL_INVALID_DEVICE);
    size_t sizes[3] = {0};
    OK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof sizes, sizes, &size));
    CHECK(size == sizeof sizes && sizes[0] > 0 && sizes[0] == sizes[2], "one binary per device");
    cl_kernel k = clCreateKernel(p, "groups", &err);
    OK(err);
    size_t wg = 0;
    EXPECT_ERR(clGetKernelWorkGroupInfo(k, NULL, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
               CL_INVALID_DEVICE);
    OK(clGetKernelWorkGroupInfo(k, two[0], CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
    EXPECT_ERR(clGetKernelWorkGroupInfo(k, ones[0], CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL),
               CL_INVALID_DEVICE);
    clReleaseKernel(k);
    /* A binary for one device is for that device only. */
    unsigned char *bin = malloc(sizes[0]);
    unsigned char *bins[3] = {bin, NULL, NULL};
    OK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL));
    cl_int bin_status = 1;
    const unsigned char *cbin = bin;
    cl_program from_bin =
        clCreateProgramWithBinary(multi, 1, &dev, &sizes[0], &cbin, &bin_status, &err);
    OK(err);
    OK(clBuildProgram(from_bin, 0, NULL, NULL, NULL, NULL));
    cl_kernel kb = clCreateKernel(from_bin, "groups", &err);
    OK(err);
    cl_mem scratch = clCreateBuffer(multi, CL_MEM_READ_WRITE, 4096, NULL, &err);
    OK(err);
    for (int a = 0; a < 3; a++) OK(clSetKernelArg(kb, a, sizeof scratch, &scratch));
    size_t one = 1;
    EXPECT_ERR(clEnqueueNDRangeKernel(on_one, kb, 1, NULL, &one, &one, 0, NULL, NULL),
               CL_INVALID_PROGRAM_EXECUTABLE);
    OK(clEnqueueNDRangeKernel(on_root, kb, 1, NULL, &one, &one, 0, NULL, NULL));
    OK(clFinish(on_root));
    clReleaseMemObject(scratch);
    clReleaseKernel(kb);
    clReleaseProgram(from_bin);
    free(bin);
    clReleaseProgram(p);

    /* A kernel on the sub-device of one compute unit computes right and
     * runs its work-groups one after another; on the root device they may
     * overlap. */
    int most = run_groups(multi, on_one, &dev, 1);
    CHECK(most == 1, "%d work-groups at once on one compute unit", most);
    int most_root = run_groups(multi, on_root, NULL, 0);
    CHECK(most_root >= 1, "%d work-groups at once on the root device", most_root);
    printf("work-groups at once: %d on the 1-unit sub-device, %d on the root device (%u units)\n",
           most, most_root, units);

    clReleaseCommandQueue(on_one);
    clReleaseCommandQueue(on_root);
    clReleaseContext(multi);
    OK(clReleaseDevice(two[0]));
    OK(clReleaseDevice(two[1]));
    EXPECT_ERR(clReleaseDevice(two[1]), CL_INVALID_DEVICE);
    for (cl_uint i = 0; i < units; i++) OK(clReleaseDevice(ones[i]));
    free(ones);
}

/* --- cl_khr_create_command_queue (api/queue_properties,
 * api/negative_create_command_queue_with_properties_khr): the extension
 * is reported and its entry point is clCreateCommandQueueWithProperties. */
static void create_command_queue_khr(void) {
    char ext[4096] = "";
    OK(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, "cl_khr_create_command_queue") != NULL, "platform extensions: %s", ext);
    OK(clGetDeviceInfo(dev, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
    CHECK(strstr(ext, "cl_khr_create_command_queue") != NULL, "device extensions: %s", ext);
    clCreateCommandQueueWithPropertiesKHR_fn create =
        (clCreateCommandQueueWithPropertiesKHR_fn)clGetExtensionFunctionAddressForPlatform(
            platform, "clCreateCommandQueueWithPropertiesKHR");
    if (create == NULL) {
        CHECK(create != NULL, "no clCreateCommandQueueWithPropertiesKHR");
        return;
    }
    cl_int err;
    cl_queue_properties_khr props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue q = create(ctx, dev, props, &err);
    OK(err);
    cl_command_queue_properties got = 0;
    OK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof got, &got, NULL));
    CHECK(got == CL_QUEUE_PROFILING_ENABLE, "CL_QUEUE_PROPERTIES %llx", (unsigned long long)got);
    cl_program p = build("kernel void inc(global int *p) { p[get_global_id(0)] += 1; }", NULL);
    cl_kernel k = kernel(p, "inc");
    cl_int data[64] = {0};
    cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof data, data, &err);
    OK(err);
    OK(clSetKernelArg(k, 0, sizeof m, &m));
    size_t n = 64;
    OK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof data, data, 0, NULL, NULL));
    CHECK(data[0] == 1 && data[63] == 1, "kernel on the KHR queue");
    clReleaseCommandQueue(q);
    /* Errors as clCreateCommandQueueWithProperties gives them. */
    cl_queue_properties_khr bad[] = {(cl_queue_properties_khr)-1, 0, 0};
    q = create(ctx, dev, bad, &err);
    CHECK(q == NULL && err == CL_INVALID_VALUE, "bad property: %d", err);
    q = create(NULL, dev, NULL, &err);
    CHECK(q == NULL && err == CL_INVALID_CONTEXT, "no context: %d", err);
    q = create(ctx, NULL, NULL, &err);
    CHECK(q == NULL && err == CL_INVALID_DEVICE, "no device: %d", err);
    clReleaseMemObject(m);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* --- Shared virtual memory (api/clone_kernel_with_exec_info,
 * api/clone_kernel_with_svm_ptrs, api/consistency_svm, the SVM binary):
 * allocation, the SVM commands and their error codes, kernels following
 * pointers stored in SVM and in system memory, clones keeping SVM
 * arguments, buffers over SVM memory. */

static const char *SVM_SOURCE =
    "kernel void follow(global int *global *ptrs, global int *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = ptrs[i][0] * 2;\n"
    "    ptrs[i][1] = (int)i + 100;\n"
    "}\n"
    "kernel void add_at(global int *p, int k, int back) {\n"
    "    size_t i = get_global_id(0);\n"
    "    p[i] += k;\n"
    "    if (i == 0 && back) p[-1] = 7;\n"
    "}\n"
    "kernel void count(global atomic_int *c) {\n"
    "    atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_all_svm_devices);\n"
    "}\n";

static int svm_freed;
static void *svm_freed_ptrs[2];
static void CL_CALLBACK on_svm_free(cl_command_queue q, cl_uint n, void *ptrs[], void *user) {
    CHECK(q == queue && n == 2 && user == &svm_freed, "free callback arguments");
    for (cl_uint i = 0; i < n && i < 2; i++) svm_freed_ptrs[i] = ptrs[i];
    svm_freed++;
}

/* Direct SVM pointer arguments only (also run on the interpreter). */
static void svm_args(void) {
    cl_program p = build(SVM_SOURCE, "-cl-std=CL2.0");
    cl_kernel add = kernel(p, "add_at");
    enum { N = 64 };
    cl_int *a = clSVMAlloc(ctx, CL_MEM_READ_WRITE, (N + 8) * sizeof(cl_int), 0);
    CHECK(a != NULL, "clSVMAlloc");
    OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, a, (N + 8) * sizeof(cl_int), 0, NULL, NULL));
    for (int i = 0; i < N + 8; i++) a[i] = i;
    OK(clEnqueueSVMUnmap(queue, a, 0, NULL, NULL));
    /* A pointer into the middle of the allocation; the kernel also writes
     * the element before it, except in checked mode and on the interpreter,
     * where an SVM pointer argument is the memory from it to its
     * allocation's end (they would report or refuse the access). */
    OK(clSetKernelArgSVMPointer(add, 0, a + 4));
    cl_int k = 1000, back = getenv("LOCKSTEP_CHECK") == NULL;
    OK(clSetKernelArg(add, 1, sizeof k, &k));
    OK(clSetKernelArg(add, 2, sizeof back, &back));
    run(add, N);
    OK(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, a, (N + 8) * sizeof(cl_int), 0, NULL, NULL));
    for (int i = 0; i < N + 8; i++) {
        int want = i == 3 && back ? 7 : (i >= 4 && i < N + 4) ? i + 1000 : i;
        CHECK(a[i] == want, "a[%d] = %d, want %d", i, a[i], want);
    }
    OK(clEnqueueSVMUnmap(queue, a, 0, NULL, NULL));
    OK(clFinish(queue));
    clSVMFree(ctx, a);
    clReleaseKernel(add);
    clReleaseProgram(p);
}

static void svm(void) {
    cl_device_svm_capabilities caps = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL));
    CHECK(caps == (CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
                   CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS),
          "SVM capabilities %#llx", (unsigned long long)caps);

    /* clSVMAlloc refuses bad flags, sizes and alignments with NULL. */
    CHECK(clSVMAlloc(ctx, CL_MEM_SVM_ATOMICS, 64, 0) == NULL, "atomics without fine grain");
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, 0) == NULL, "two access flags");
    CHECK(clSVMAlloc(ctx, CL_MEM_USE_HOST_PTR, 64, 0) == NULL, "a buffer-only flag");
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 0, 0) == NULL, "size 0");
    CHECK(clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 3) == NULL, "alignment 3");
    CHECK(clSVMAlloc(NULL, CL_MEM_READ_WRITE, 64, 0) == NULL, "no context");
    void *aligned = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64, 128);
    CHECK(aligned != NULL && (uintptr_t)aligned % 128 == 0, "128-byte alignment");
    clSVMFree(ctx, aligned);
    clSVMFree(ctx, NULL);

    svm_args();

    cl_program p = build(SVM_SOURCE, "-cl-std=CL2.0");
    cl_kernel follow = kernel(p, "follow");
    enum { N = 8 };
    /* Pointers stored in fine-grained SVM: half into another allocation,
     * half into system memory (malloc). */
    cl_int **ptrs = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(cl_int *), 0);
    cl_int *targets = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N * 2 * sizeof(cl_int), 0);
    cl_int *system = malloc(N * 2 * sizeof(cl_int));
    cl_int *out = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(cl_int), 0);
    CHECK(ptrs && targets && out, "fine-grained allocations");
    for (int i = 0; i < N; i++) {
        cl_int *t = i % 2 ? &system[2 * i] : &targets[2 * i];
        t[0] = i * 10;
        t[1] = -1;
        ptrs[i] = t;
    }
    OK(clSetKernelArgSVMPointer(follow, 0, ptrs));
    OK(clSetKernelArgSVMPointer(follow, 1, out));
    OK(clSetKernelExecInfo(follow, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof targets, &targets));
    cl_bool on = CL_TRUE;
    OK(clSetKernelExecInfo(follow, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof on, &on));
    run(follow, N);
    for (int i = 0; i < N; i++) {
        cl_int *t = i % 2 ? &system[2 * i] : &targets[2 * i];
        CHECK(out[i] == i * 20 && t[1] == i + 100, "follow %d: out %d, t[1] %d", i, out[i], t[1]);
    }

    /* A clone keeps the SVM arguments; setting the source's later leaves
     * the clone's alone. */
    cl_int err;
    cl_kernel clone = clCloneKernel(follow, &err);
    OK(err);
    cl_int *out2 = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, N * sizeof(cl_int), 0);
    OK(clSetKernelArgSVMPointer(follow, 1, out2));
    memset(out, 0, N * sizeof(cl_int));
    run(clone, N);
    CHECK(out[3] == 60, "the clone wrote out: %d", out[3]);

    /* Error codes of the kernel entry points. */
    EXPECT_ERR(clSetKernelArgSVMPointer(follow, 2, out), CL_INVALID_ARG_INDEX);
    cl_kernel add = kernel(p, "add_at");
    EXPECT_ERR(clSetKernelArgSVMPointer(add, 1, out), CL_INVALID_ARG_VALUE);
    EXPECT_ERR(clSetKernelArgSVMPointer(NULL, 0, out), CL_INVALID_KERNEL);
    EXPECT_ERR(clSetKernelExecInfo(follow, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof out, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clSetKernelExecInfo(follow, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, &out), CL_INVALID_VALUE);
    EXPECT_ERR(clSetKernelExecInfo(follow, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &on), CL_INVALID_VALUE);
    EXPECT_ERR(clSetKernelExecInfo(follow, 0x1234, sizeof on, &on), CL_INVALID_VALUE);
    /* No list unsets the previous one. */
    OK(clSetKernelExecInfo(follow, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, NULL));

    /* Memcpy and fill, and their error codes. */
    cl_int *c = clSVMAlloc(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), 0);
    cl_int pattern = 0x01020304;
    OK(clEnqueueSVMMemFill(queue, c, &pattern, sizeof pattern, 64 * sizeof(cl_int), 0, NULL, NULL));
    cl_int host[64];
    OK(clEnqueueSVMMemcpy(queue, CL_TRUE, host, c, sizeof host, 0, NULL, NULL));
    CHECK(host[0] == pattern && host[63] == pattern, "fill then copy: %#x %#x", host[0], host[63]);
    EXPECT_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, c + 1, c, 8 * sizeof(cl_int), 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
    EXPECT_ERR(clEnqueueSVMMemcpy(queue, CL_TRUE, NULL, c, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMemFill(queue, c, &pattern, 3, 12, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMemFill(queue, c, &pattern, 4, 6, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMemFill(queue, (char *)c + 2, &pattern, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMemFill(queue, c, NULL, 4, 8, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMemFill(queue, c, &pattern, 4, 65 * sizeof(cl_int), 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, NULL, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, c, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, c, 4, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, c, 65 * sizeof(cl_int), 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMUnmap(queue, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    const void *migrate[1] = {c};
    size_t too_big = 65 * sizeof(cl_int);
    EXPECT_ERR(clEnqueueSVMMigrateMem(queue, 1, migrate, &too_big, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMMigrateMem(queue, 0, migrate, NULL, 0, 0, NULL, NULL), CL_INVALID_VALUE);
    OK(clEnqueueSVMMigrateMem(queue, 1, migrate, NULL, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
    cl_event e;
    OK(clEnqueueSVMMemcpy(queue, CL_FALSE, host, c, 4, 0, NULL, &e));
    cl_command_type type;
    OK(clGetEventInfo(e, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_COMMAND_SVM_MEMCPY, "event command type %#x", type);
    OK(clWaitForEvents(1, &e));
    clReleaseEvent(e);

    /* Buffers over SVM memory say so. */
    cl_mem over = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64 * sizeof(cl_int), c, &err);
    OK(err);
    cl_buffer_region region = {128, 64};
    cl_mem sub = clCreateSubBuffer(over, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    OK(err);
    cl_mem plain = new_buffer(64);
    /* Larger than the SVM allocation it is made over. */
    cl_mem too_large = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64 * sizeof(cl_int) + 4, c, &err);
    CHECK(too_large == NULL && err == CL_INVALID_BUFFER_SIZE, "a buffer past its SVM allocation: %d", err);
    too_large = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64 * sizeof(cl_int) - 4, c + 1, &err);
    CHECK(err == CL_SUCCESS, "a buffer ending with its SVM allocation: %d", err);
    clReleaseMemObject(too_large);
    cl_bool uses;
    OK(clGetMemObjectInfo(over, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    CHECK(uses == CL_TRUE, "a buffer over SVM memory");
    OK(clGetMemObjectInfo(sub, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    CHECK(uses == CL_TRUE, "its sub-buffer");
    OK(clGetMemObjectInfo(plain, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, NULL));
    CHECK(uses == CL_FALSE, "a plain buffer");
    clReleaseMemObject(sub);
    clReleaseMemObject(over);
    clReleaseMemObject(plain);

    /* Atomics on fine-grained SVM with SVM atomics. */
    cl_int *counter = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS, sizeof(cl_int), 0);
    CHECK(counter != NULL, "an SVM atomics allocation");
    *counter = 5;
    cl_kernel count = kernel(p, "count");
    OK(clSetKernelArgSVMPointer(count, 0, counter));
    run(count, 1000);
    CHECK(*counter == 1005, "atomic count %d", *counter);

    /* clEnqueueSVMFree: the callback gets the pointers (and frees them);
     * without one, the allocations are freed. */
    void *to_free[2] = {out2, counter};
    OK(clEnqueueSVMFree(queue, 2, to_free, on_svm_free, &svm_freed, 0, NULL, NULL));
    to_free[0] = to_free[1] = NULL; /* the array may be reused at once */
    OK(clFinish(queue));
    CHECK(svm_freed == 1 && svm_freed_ptrs[0] == out2 && svm_freed_ptrs[1] == counter, "free callback");
    clSVMFree(ctx, out2);
    clSVMFree(ctx, counter);
    void *rest[4] = {ptrs, targets, out, c};
    OK(clEnqueueSVMFree(queue, 4, rest, NULL, NULL, 0, NULL, NULL));
    EXPECT_ERR(clEnqueueSVMFree(queue, 0, rest, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueSVMFree(queue, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    OK(clFinish(queue));
    free(system);
    clReleaseKernel(count);
    clReleaseKernel(add);
    clReleaseKernel(clone);
    clReleaseKernel(follow);
    clReleaseProgram(p);
}

/* --- cl_khr_integer_dot_product: the capabilities and acceleration queries,
 * and dot products in a kernel (test_integer_ops integer_dot_product). */
static void integer_dot_product(void) {
    cl_device_integer_dot_product_capabilities_khr caps = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, sizeof caps, &caps, NULL));
    CHECK(caps == (CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR | CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_KHR),
          "capabilities 0x%llx", (unsigned long long)caps);
    cl_device_integer_dot_product_acceleration_properties_khr props;
    size_t size = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_8BIT_KHR, sizeof props, &props, &size));
    CHECK(size == sizeof props, "acceleration properties of %zu bytes", size);
    OK(clGetDeviceInfo(dev, CL_DEVICE_INTEGER_DOT_PRODUCT_ACCELERATION_PROPERTIES_4x8BIT_PACKED_KHR, sizeof props, &props, &size));
    CHECK(size == sizeof props, "packed acceleration properties of %zu bytes", size);
    const char *src =
        "kernel void k(global int *out) {\n"
        "  out[0] = dot((char4)(-128, 127, 3, -4), (char4)(-128, 127, 5, 6));\n"
        "  out[1] = dot_acc_sat((char4)(-128, -128, -128, -128), (char4)(-128, -128, -128, -128), 2147483000);\n"
        "  out[2] = (int)dot_4x8packed_uu_uint(0xFFFFFFFFu, 0x01010101u);\n"
        "}\n";
    cl_program p = build(src, "-cl-std=CL3.0");
    cl_kernel k = kernel(p, "k");
    cl_mem out = new_buffer(3 * sizeof(cl_int));
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    run(k, 1);
    cl_int got[3];
    read_buffer(out, sizeof got, got);
    CHECK(got[0] == 16384 + 16129 + 15 - 24, "dot: %d", got[0]);
    CHECK(got[1] == 2147483647, "dot_acc_sat: %d", got[1]);
    CHECK(got[2] == 4 * 255, "dot_4x8packed_uu_uint: %d", got[2]);
    clReleaseMemObject(out);
    clReleaseKernel(k);
    clReleaseProgram(p);
}

/* --- Pipe objects (api/consistency_pipes, api/pipe_properties_queries,
 * api/kernel_arg_info, pipes/pipe_info, pipes/pipe_max_*): the device's
 * pipe limits, clCreatePipe's checks, clGetPipeInfo, a pipe as a memory
 * object that host commands refuse, and pipe kernel arguments. */

static cl_mem new_pipe(cl_mem_flags flags, cl_uint packet_size, cl_uint max_packets) {
    cl_int err;
    cl_mem p = clCreatePipe(ctx, flags, packet_size, max_packets, NULL, &err);
    OK(err);
    return p;
}

static int pipe_destroyed = 0;
static void CL_CALLBACK on_pipe_destroyed(cl_mem m, void *user) {
    (void)m;
    (void)user;
    pipe_destroyed++;
}

static void pipe_objects(void) {
    cl_int err;
    cl_uint u = 0;
    /* The spec's minimums, and generic address space with them. */
    cl_bool b = CL_FALSE;
    OK(clGetDeviceInfo(dev, CL_DEVICE_PIPE_SUPPORT, sizeof b, &b, NULL));
    CHECK(b == CL_TRUE, "CL_DEVICE_PIPE_SUPPORT %u", b);
    OK(clGetDeviceInfo(dev, CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, sizeof b, &b, NULL));
    CHECK(b == CL_TRUE, "generic address space %u", b);
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_PIPE_ARGS, sizeof u, &u, NULL));
    CHECK(u >= 16, "CL_DEVICE_MAX_PIPE_ARGS %u", u);
    OK(clGetDeviceInfo(dev, CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, sizeof u, &u, NULL));
    CHECK(u >= 1, "CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS %u", u);
    cl_uint max_packet = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_PIPE_MAX_PACKET_SIZE, sizeof max_packet, &max_packet, NULL));
    CHECK(max_packet >= 1024, "CL_DEVICE_PIPE_MAX_PACKET_SIZE %u", max_packet);

    /* Flags 0 are READ_WRITE | HOST_NO_ACCESS; the pipe is a memory object
     * of type CL_MEM_OBJECT_PIPE with no host pointer. */
    cl_mem pipe = new_pipe(0, 4, 16);
    cl_mem_flags flags = 0;
    OK(clGetMemObjectInfo(pipe, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == (CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS), "flags %llx",
          (unsigned long long)flags);
    cl_mem_object_type type = 0;
    OK(clGetMemObjectInfo(pipe, CL_MEM_TYPE, sizeof type, &type, NULL));
    CHECK(type == CL_MEM_OBJECT_PIPE, "CL_MEM_TYPE %x", type);
    size_t size = 0;
    OK(clGetMemObjectInfo(pipe, CL_MEM_SIZE, sizeof size, &size, NULL));
    CHECK(size >= 16 * 4, "CL_MEM_SIZE %zu", size);
    void *host = (void *)1;
    OK(clGetMemObjectInfo(pipe, CL_MEM_HOST_PTR, sizeof host, &host, NULL));
    CHECK(host == NULL, "CL_MEM_HOST_PTR %p", host);
    cl_context c = NULL;
    OK(clGetMemObjectInfo(pipe, CL_MEM_CONTEXT, sizeof c, &c, NULL));
    CHECK(c == ctx, "CL_MEM_CONTEXT");

    /* clGetPipeInfo: the values given; NULL properties have size 0. */
    OK(clGetPipeInfo(pipe, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL));
    CHECK(u == 4, "CL_PIPE_PACKET_SIZE %u", u);
    OK(clGetPipeInfo(pipe, CL_PIPE_MAX_PACKETS, sizeof u, &u, NULL));
    CHECK(u == 16, "CL_PIPE_MAX_PACKETS %u", u);
    size = 1;
    OK(clGetPipeInfo(pipe, CL_PIPE_PROPERTIES, 0, NULL, &size));
    CHECK(size == 0, "CL_PIPE_PROPERTIES size %zu", size);
    EXPECT_ERR(clGetPipeInfo(pipe, CL_PIPE_PACKET_SIZE, 2, &u, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clGetPipeInfo(pipe, CL_MEM_SIZE, sizeof size, &size, NULL), CL_INVALID_VALUE);
    /* ... an empty list comes back as given. */
    cl_pipe_properties empty[] = {0}, got[2] = {7, 7};
    cl_mem listed = clCreatePipe(ctx, CL_MEM_READ_WRITE, 8, 1, empty, &err);
    OK(err);
    OK(clGetPipeInfo(listed, CL_PIPE_PROPERTIES, sizeof got, got, &size));
    CHECK(size == sizeof(cl_pipe_properties) && got[0] == 0, "empty properties: size %zu, %ld",
          size, (long)got[0]);
    OK(clGetMemObjectInfo(listed, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
    CHECK(flags == CL_MEM_READ_WRITE, "flags given %llx", (unsigned long long)flags);
    clReleaseMemObject(listed);

    /* clCreatePipe's errors. */
    cl_mem none;
    none = clCreatePipe(NULL, 0, 4, 4, NULL, &err);
    CHECK(none == NULL && err == CL_INVALID_CONTEXT, "NULL context: %d", err);
    cl_mem_flags bad_flags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                CL_MEM_HOST_WRITE_ONLY, CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR,
                                CL_MEM_COPY_HOST_PTR, CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE,
                                (cl_mem_flags)1 << 40};
    for (size_t i = 0; i < sizeof bad_flags / sizeof *bad_flags; i++) {
        none = clCreatePipe(ctx, bad_flags[i], 4, 4, NULL, &err);
        CHECK(none == NULL && err == CL_INVALID_VALUE, "flags %llx: %d",
              (unsigned long long)bad_flags[i], err);
    }
    cl_uint bad_sizes[][2] = {{0, 4}, {4, 0}, {0, 0}, {max_packet + 1, 4}, {0xffffffffu, 1}};
    for (size_t i = 0; i < sizeof bad_sizes / sizeof *bad_sizes; i++) {
        none = clCreatePipe(ctx, 0, bad_sizes[i][0], bad_sizes[i][1], NULL, &err);
        CHECK(none == NULL && err == CL_INVALID_PIPE_SIZE, "packet %u x %u: %d", bad_sizes[i][0],
              bad_sizes[i][1], err);
    }
    cl_pipe_properties bogus[] = {0x1234, 1, 0};
    none = clCreatePipe(ctx, 0, 4, 4, bogus, &err);
    CHECK(none == NULL && err == CL_INVALID_VALUE, "a property: %d", err);
    cl_mem largest = new_pipe(CL_MEM_HOST_NO_ACCESS, max_packet, 2);
    clReleaseMemObject(largest);

    /* Not a pipe: CL_INVALID_MEM_OBJECT. */
    cl_mem buf = new_buffer(64);
    EXPECT_ERR(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clGetPipeInfo(NULL, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clGetPipeInfo((cl_mem)ctx, CL_PIPE_PACKET_SIZE, sizeof u, &u, NULL),
               CL_INVALID_MEM_OBJECT);

    /* The host never touches a pipe's contents: buffer and image commands
     * on it are CL_INVALID_MEM_OBJECT, and it has no sub-buffers. */
    char bytes[64] = {0};
    EXPECT_ERR(clEnqueueReadBuffer(queue, pipe, CL_TRUE, 0, 4, bytes, 0, NULL, NULL),
               CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clEnqueueWriteBuffer(queue, pipe, CL_TRUE, 0, 4, bytes, 0, NULL, NULL),
               CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clEnqueueCopyBuffer(queue, pipe, buf, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clEnqueueCopyBuffer(queue, buf, pipe, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
    int zero = 0;
    EXPECT_ERR(clEnqueueFillBuffer(queue, pipe, &zero, sizeof zero, 0, 4, 0, NULL, NULL),
               CL_INVALID_MEM_OBJECT);
    none = clEnqueueMapBuffer(queue, pipe, CL_TRUE, CL_MAP_READ, 0, 4, 0, NULL, NULL, &err);
    CHECK(none == NULL && err == CL_INVALID_MEM_OBJECT, "map: %d", err);
    cl_buffer_region region = {0, 4};
    none = clCreateSubBuffer(pipe, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    CHECK(none == NULL && err == CL_INVALID_MEM_OBJECT, "sub-buffer: %d", err);
    size_t width = 0;
    EXPECT_ERR(clGetImageInfo(pipe, CL_IMAGE_WIDTH, sizeof width, &width, NULL),
               CL_INVALID_MEM_OBJECT);
    cl_image_format format = {CL_R, CL_UNSIGNED_INT8};
    cl_image_desc desc = {CL_MEM_OBJECT_IMAGE1D_BUFFER, 4, 1, 1, 1, 0, 0, 0, 0, {pipe}};
    none = clCreateImage(ctx, 0, &format, &desc, NULL, &err);
    CHECK(none == NULL && err == CL_INVALID_IMAGE_DESCRIPTOR, "image from a pipe: %d", err);

    /* Kernel arguments: a pipe takes a pipe (a buffer, NULL or a wrong size
     * are refused); a buffer argument takes no pipe. Argument info: a
     * pipe is global, its access qualifier, type qualifier PIPE alone. */
    cl_program p = build("kernel void k(read_only pipe int in, const write_only pipe float4 out,\n"
                         "              global int *b) {\n"
                         "  int v;\n"
                         "  if (read_pipe(in, &v) == 0) b[0] = v;\n"
                         "}\n",
                         "-cl-std=CL2.0 -cl-kernel-arg-info");
    cl_kernel k = kernel(p, "k");
    cl_mem nothing = NULL;
    EXPECT_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clSetKernelArg(k, 0, sizeof(cl_mem), NULL), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clSetKernelArg(k, 0, sizeof nothing, &nothing), CL_INVALID_MEM_OBJECT);
    EXPECT_ERR(clSetKernelArg(k, 0, sizeof(cl_int), &pipe), CL_INVALID_ARG_SIZE);
    EXPECT_ERR(clSetKernelArg(k, 2, sizeof pipe, &pipe), CL_INVALID_MEM_OBJECT);
    OK(clSetKernelArg(k, 0, sizeof pipe, &pipe));
    OK(clSetKernelArg(k, 1, sizeof pipe, &pipe));
    OK(clSetKernelArg(k, 2, sizeof buf, &buf));
    run(k, 1); /* an empty pipe: nothing read */
    cl_kernel_arg_address_qualifier aq = 0;
    cl_kernel_arg_access_qualifier acc = 0;
    cl_kernel_arg_type_qualifier tq = 0;
    char tname[64] = "";
    OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
    CHECK(aq == CL_KERNEL_ARG_ADDRESS_GLOBAL, "address qualifier %x", aq);
    OK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
    CHECK(acc == CL_KERNEL_ARG_ACCESS_READ_ONLY, "access qualifier %x", acc);
    OK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
    CHECK(acc == CL_KERNEL_ARG_ACCESS_WRITE_ONLY, "access qualifier %x", acc);
    OK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
    CHECK(tq == CL_KERNEL_ARG_TYPE_PIPE, "type qualifier %llx", (unsigned long long)tq);
    OK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_TYPE_NAME, sizeof tname, tname, NULL));
    CHECK(!strcmp(tname, "float4"), "type name %s", tname);

    /* A pipe outlives its kernel's use of it; release calls back. */
    OK(clSetMemObjectDestructorCallback(pipe, on_pipe_destroyed, NULL));
    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(pipe);
    CHECK(pipe_destroyed == 1, "destructor called %d times", pipe_destroyed);
    clReleaseMemObject(buf);
}

/* --- Pipes in kernels (pipes/pipe_readwrite_*, pipe_workgroup_readwrite_*,
 * pipe_subgroup_readwrite_*, pipe_convenience_readwrite_*,
 * pipe_readwrite_errors, pipe_query_functions,
 * pipe_max_active_reservations): producers then consumers through a pipe,
 * every packet arriving exactly once, with each way to reserve. */

static const char *PIPE_KERNELS =
    "typedef struct { char tag; int value; short extra; } Packet;\n"
    "kernel void produce(global const int *src, write_only pipe int p, global int *status) {\n"
    "  if (write_pipe(p, &src[get_global_id(0)]) != 0) atomic_inc(status);\n"
    "}\n"
    "kernel void consume(read_only pipe int p, global int *dst, global int *status) {\n"
    "  size_t i = get_global_id(0);\n"
    "  if (read_pipe(p, &dst[i]) != 0) { dst[i] = -1; atomic_inc(status); }\n"
    "}\n"
    "kernel void count(write_only pipe int w, read_only pipe int r, global int *out) {\n"
    "  out[0] = get_pipe_num_packets(w); out[1] = get_pipe_max_packets(w);\n"
    "  out[2] = get_pipe_num_packets(r); out[3] = get_pipe_max_packets(r);\n"
    "}\n"
    /* n packets per work-item, and an index past the reservation */
    "kernel void produce_n(global const int *src, write_only pipe int p, uint n,\n"
    "                      global int *status) {\n"
    "  size_t g = get_global_id(0);\n"
    "  reserve_id_t r = reserve_write_pipe(p, n);\n"
    "  if (!is_valid_reserve_id(r)) { atomic_inc(status); return; }\n"
    "  for (uint i = 0; i < n; i++)\n"
    "    if (write_pipe(p, r, i, &src[g * n + i]) != 0) atomic_inc(status);\n"
    "  if (write_pipe(p, r, n, &src[0]) == 0) atomic_inc(status);\n"
    "  commit_write_pipe(p, r);\n"
    "}\n"
    "kernel void consume_n(read_only pipe int p, uint n, global int *dst, global int *status) {\n"
    "  size_t g = get_global_id(0);\n"
    "  reserve_id_t r = reserve_read_pipe(p, n);\n"
    "  if (!is_valid_reserve_id(r)) { atomic_inc(status); return; }\n"
    "  for (uint i = 0; i < n; i++)\n"
    "    if (read_pipe(p, r, i, &dst[g * n + i]) != 0) atomic_inc(status);\n"
    "  commit_read_pipe(p, r);\n"
    "}\n"
    "kernel void produce_wg(global const int *src, write_only pipe int p, global int *status) {\n"
    "  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    if (write_pipe(p, r, get_local_id(0), &src[get_global_id(0)]) != 0) atomic_inc(status);\n"
    "    work_group_commit_write_pipe(p, r);\n"
    "  } else if (get_local_id(0) == 0) atomic_inc(status);\n"
    "}\n"
    /* a reservation id kept in __local memory, as the CTS's kernels do */
    "kernel void produce_wg_local(global const int *src, write_only pipe int p,\n"
    "                             global int *status) {\n"
    "  local reserve_id_t shared;\n"
    "  reserve_id_t r = work_group_reserve_write_pipe(p, get_local_size(0));\n"
    "  if (get_local_id(0) == 0) shared = r;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (is_valid_reserve_id(shared)) {\n"
    "    write_pipe(p, shared, get_local_id(0), &src[get_global_id(0)]);\n"
    "    work_group_commit_write_pipe(p, shared);\n"
    "  } else if (get_local_id(0) == 0) atomic_inc(status);\n"
    "}\n"
    "kernel void consume_wg(read_only pipe int p, global int *dst, global int *status) {\n"
    "  reserve_id_t r = work_group_reserve_read_pipe(p, get_local_size(0));\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    if (read_pipe(p, r, get_local_id(0), &dst[get_global_id(0)]) != 0) atomic_inc(status);\n"
    "    work_group_commit_read_pipe(p, r);\n"
    "  } else if (get_local_id(0) == 0) atomic_inc(status);\n"
    "}\n"
    /* OpenCL C 2.0 has subgroups only with cl_khr_subgroups */
    "#if __OPENCL_C_VERSION__ >= 300\n"
    "kernel void produce_sg(global const int *src, write_only pipe int p, global int *status) {\n"
    "  reserve_id_t r = sub_group_reserve_write_pipe(p, get_sub_group_size());\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    if (write_pipe(p, r, get_sub_group_local_id(), &src[get_global_id(0)]) != 0)\n"
    "      atomic_inc(status);\n"
    "    sub_group_commit_write_pipe(p, r);\n"
    "  } else if (get_sub_group_local_id() == 0) atomic_inc(status);\n"
    "}\n"
    "kernel void consume_sg(read_only pipe int p, global int *dst, global int *status) {\n"
    "  reserve_id_t r = sub_group_reserve_read_pipe(p, get_sub_group_size());\n"
    "  if (is_valid_reserve_id(r)) {\n"
    "    if (read_pipe(p, r, get_sub_group_local_id(), &dst[get_global_id(0)]) != 0)\n"
    "      atomic_inc(status);\n"
    "    sub_group_commit_read_pipe(p, r);\n"
    "  } else if (get_sub_group_local_id() == 0) atomic_inc(status);\n"
    "}\n"
    "#endif\n"
    "kernel void produce_struct(global const int *src, write_only pipe Packet p) {\n"
    "  int v = src[get_global_id(0)];\n"
    "  Packet k = { (char)(v & 127), v, (short)(-v) };\n"
    "  write_pipe(p, &k);\n"
    "}\n"
    "kernel void consume_struct(read_only pipe Packet p, global int *dst, global int *status) {\n"
    "  Packet k;\n"
    "  if (read_pipe(p, &k) != 0) { atomic_inc(status); return; }\n"
    "  if (k.tag != (char)(k.value & 127) || k.extra != (short)(-k.value)) atomic_inc(status);\n"
    "  dst[get_global_id(0)] = k.value;\n"
    "}\n"
    /* One work-item holds n reservations at once and commits them in
     * reverse order: readers still get the packets in reservation order. */
    "kernel void reverse_commits(global const int *src, write_only pipe int p, uint n,\n"
    "                            global reserve_id_t *ids, global int *status) {\n"
    "  for (uint i = 0; i < n; i++) {\n"
    "    ids[i] = reserve_write_pipe(p, 1);\n"
    "    if (!is_valid_reserve_id(ids[i])) { atomic_inc(status); return; }\n"
    "    write_pipe(p, ids[i], 0, &src[i]);\n"
    "  }\n"
    "  reserve_id_t more = reserve_write_pipe(p, 1);\n"
    "  if (is_valid_reserve_id(more)) atomic_inc(status); /* the pipe is full */\n"
    "  for (uint i = n; i-- > 0;) commit_write_pipe(p, ids[i]);\n"
    "}\n"
    "kernel void drain(read_only pipe int p, uint n, global int *dst, global int *status) {\n"
    "  for (uint i = 0; i < n; i++)\n"
    "    if (read_pipe(p, &dst[i]) != 0) atomic_inc(status);\n"
    "}\n"
    "kernel void invalid_ids(write_only pipe int p, global int *out) {\n"
    "  reserve_id_t r = CLK_NULL_RESERVE_ID;\n"
    "  out[0] = is_valid_reserve_id(r);\n"
    "  out[1] = is_valid_reserve_id(reserve_write_pipe(p, 0));\n"
    "  out[2] = is_valid_reserve_id(reserve_write_pipe(p, get_pipe_max_packets(p) + 1));\n"
    "  int v = 5;\n"
    "  out[3] = write_pipe(p, r, 0, &v);\n"
    "  commit_write_pipe(p, r);\n"
    "}\n";

static void set_args(cl_kernel k, int n, cl_mem *args) {
    for (int i = 0; i < n; i++)
        OK(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]));
}

static void zero(cl_mem m, size_t size) {
    int z = 0;
    OK(clEnqueueFillBuffer(queue, m, &z, sizeof z, 0, size, 0, NULL, NULL));
    OK(clFinish(queue));
}

static int read_status(cl_mem status) {
    int s = -1;
    read_buffer(status, sizeof s, &s);
    return s;
}

/* Runs `k` over `n` work-items in groups of `local` (0: the runtime's choice). */
static void run_local(cl_kernel k, size_t n, size_t local) {
    OK(clEnqueueNDRangeKernel(queue, k, 1, NULL, &n, local ? &local : NULL, 0, NULL, NULL));
    OK(clFinish(queue));
}

/* `dst` (n values) holds each of 0 .. n-1 exactly once. */
static void check_permutation(const char *what, cl_mem dst, int n) {
    int *got = malloc(n * sizeof *got), *seen = calloc(n, sizeof *seen);
    read_buffer(dst, n * sizeof *got, got);
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (got[i] < 0 || got[i] >= n || seen[got[i]]++)
            bad++;
    }
    CHECK(bad == 0, "%s: %d of %d packets missing or repeated", what, bad, n);
    free(got);
    free(seen);
}

static void pipe_kernels(void) {
    enum { N = 1000 };
    cl_program p = build(PIPE_KERNELS, "-cl-std=CL3.0");
    int *values = malloc(N * sizeof *values);
    for (int i = 0; i < N; i++)
        values[i] = i;
    cl_int err;
    cl_mem src = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * sizeof(int), values, &err);
    OK(err);
    cl_mem dst = new_buffer(N * sizeof(int)), status = new_buffer(sizeof(int));
    cl_mem counts = new_buffer(4 * sizeof(int));

    /* Write and read one packet each, with a packet count in between. */
    cl_mem pipe = new_pipe(0, sizeof(int), N);
    cl_kernel produce = kernel(p, "produce"), consume = kernel(p, "consume");
    cl_kernel count = kernel(p, "count");
    set_args(produce, 3, (cl_mem[]){src, pipe, status});
    set_args(consume, 3, (cl_mem[]){pipe, dst, status});
    set_args(count, 3, (cl_mem[]){pipe, pipe, counts});
    zero(status, sizeof(int));
    run(produce, N);
    CHECK(read_status(status) == 0, "write_pipe failed %d times", read_status(status));
    int c[4];
    run(count, 1);
    read_buffer(counts, sizeof c, c);
    CHECK(c[0] == N && c[1] == N && c[2] == N && c[3] == N, "counts %d %d %d %d", c[0], c[1], c[2],
          c[3]);
    run(consume, N / 2);
    run(count, 1);
    read_buffer(counts, sizeof c, c);
    CHECK(c[0] == N - N / 2, "%d packets left after reading %d", c[0], N / 2);
    OK(clEnqueueNDRangeKernel(queue, consume, 1, (size_t[]){N / 2}, (size_t[]){N - N / 2}, NULL, 0,
                              NULL, NULL));
    OK(clFinish(queue));
    CHECK(read_status(status) == 0, "read_pipe failed %d times", read_status(status));
    check_permutation("write_pipe, read_pipe", dst, N);
    /* Reading an empty pipe fails at once. */
    run(consume, 10);
    CHECK(read_status(status) == 10, "%d reads of an empty pipe failed, not 10", read_status(status));

    /* A pipe smaller than its writers (pipes/pipe_readwrite_errors): the
     * writes that find it full fail, the rest arrive. */
    cl_mem small = new_pipe(0, sizeof(int), 100);
    set_args(produce, 3, (cl_mem[]){src, small, status});
    set_args(consume, 3, (cl_mem[]){small, dst, status});
    zero(status, sizeof(int));
    run(produce, N);
    CHECK(read_status(status) == N - 100, "%d writes to a full pipe failed, not %d",
          read_status(status), N - 100);
    zero(status, sizeof(int));
    run(consume, 100);
    CHECK(read_status(status) == 0, "read from the full pipe failed %d times", read_status(status));
    clReleaseMemObject(small);

    /* Reservations of 4 packets per work-item (and an index past one). */
    cl_uint four = 4;
    cl_kernel produce_n = kernel(p, "produce_n"), consume_n = kernel(p, "consume_n");
    set_args(produce_n, 2, (cl_mem[]){src, pipe});
    OK(clSetKernelArg(produce_n, 2, sizeof four, &four));
    OK(clSetKernelArg(produce_n, 3, sizeof status, &status));
    OK(clSetKernelArg(consume_n, 0, sizeof pipe, &pipe));
    OK(clSetKernelArg(consume_n, 1, sizeof four, &four));
    OK(clSetKernelArg(consume_n, 2, sizeof dst, &dst));
    OK(clSetKernelArg(consume_n, 3, sizeof status, &status));
    zero(status, sizeof(int));
    zero(dst, N * sizeof(int));
    run(produce_n, N / 4);
    CHECK(read_status(status) == 0, "reserved writes: %d failures", read_status(status));
    run(consume_n, N / 4);
    CHECK(read_status(status) == 0, "reserved reads: %d failures", read_status(status));
    check_permutation("reservations of 4", dst, N);

    /* Work-group reservations, groups of 8 and of 200. */
    size_t locals[] = {8, 200};
    cl_kernel produce_wg = kernel(p, "produce_wg"), consume_wg = kernel(p, "consume_wg");
    set_args(produce_wg, 3, (cl_mem[]){src, pipe, status});
    set_args(consume_wg, 3, (cl_mem[]){pipe, dst, status});
    for (int i = 0; i < 2; i++) {
        zero(status, sizeof(int));
        zero(dst, N * sizeof(int));
        run_local(produce_wg, N, locals[i]);
        run_local(consume_wg, N, locals[i]);
        CHECK(read_status(status) == 0, "work-group reservations of %zu: %d failures", locals[i],
              read_status(status));
        check_permutation("work-group reservations", dst, N);
    }
    /* ... with the id in __local memory. */
    cl_kernel produce_wg_local = kernel(p, "produce_wg_local");
    set_args(produce_wg_local, 3, (cl_mem[]){src, pipe, status});
    zero(status, sizeof(int));
    zero(dst, N * sizeof(int));
    run_local(produce_wg_local, N, 40);
    run_local(consume_wg, N, 40);
    CHECK(read_status(status) == 0, "__local reservation ids: %d failures", read_status(status));
    check_permutation("__local reservation ids", dst, N);
    /* ... a work-group reservation larger than the pipe fails for the
     * whole group. */
    cl_mem tiny = new_pipe(0, sizeof(int), 4);
    set_args(produce_wg, 3, (cl_mem[]){src, tiny, status});
    zero(status, sizeof(int));
    run_local(produce_wg, 16, 8);
    CHECK(read_status(status) == 2, "%d groups failed to reserve 8 of 4, not 2", read_status(status));
    clReleaseMemObject(tiny);

    /* Subgroup reservations (a subgroup is a gang; a partial last one in
     * groups of 100). */
    cl_kernel produce_sg = kernel(p, "produce_sg"), consume_sg = kernel(p, "consume_sg");
    set_args(produce_sg, 3, (cl_mem[]){src, pipe, status});
    set_args(consume_sg, 3, (cl_mem[]){pipe, dst, status});
    zero(status, sizeof(int));
    zero(dst, N * sizeof(int));
    run_local(produce_sg, N, 100);
    run_local(consume_sg, N, 100);
    CHECK(read_status(status) == 0, "subgroup reservations: %d failures", read_status(status));
    check_permutation("subgroup reservations", dst, N);

    /* Struct packets (12 bytes, with padding). */
    cl_mem structs = new_pipe(0, 12, N);
    cl_kernel produce_struct = kernel(p, "produce_struct");
    cl_kernel consume_struct = kernel(p, "consume_struct");
    set_args(produce_struct, 2, (cl_mem[]){src, structs});
    set_args(consume_struct, 3, (cl_mem[]){structs, dst, status});
    zero(status, sizeof(int));
    run(produce_struct, N);
    run(consume_struct, N);
    CHECK(read_status(status) == 0, "struct packets: %d failures", read_status(status));
    check_permutation("struct packets", dst, N);
    clReleaseMemObject(structs);

    /* Many reservations held by one work-item, committed in reverse
     * order: the packets come out in reservation order. */
    enum { HELD = 64 };
    cl_mem held = new_pipe(0, sizeof(int), HELD), ids = new_buffer(HELD * 8);
    cl_uint n_held = HELD;
    cl_kernel reverse = kernel(p, "reverse_commits");
    set_args(reverse, 2, (cl_mem[]){src, held});
    OK(clSetKernelArg(reverse, 2, sizeof n_held, &n_held));
    OK(clSetKernelArg(reverse, 3, sizeof ids, &ids));
    OK(clSetKernelArg(reverse, 4, sizeof status, &status));
    cl_kernel drain = kernel(p, "drain");
    OK(clSetKernelArg(drain, 0, sizeof held, &held));
    OK(clSetKernelArg(drain, 1, sizeof n_held, &n_held));
    OK(clSetKernelArg(drain, 2, sizeof dst, &dst));
    OK(clSetKernelArg(drain, 3, sizeof status, &status));
    zero(status, sizeof(int));
    run(reverse, 1);
    run(drain, 1);
    CHECK(read_status(status) == 0, "held reservations: %d failures", read_status(status));
    int got[HELD];
    read_buffer(dst, sizeof got, got);
    for (int i = 0; i < HELD; i++)
        CHECK(got[i] == i, "packet %d is %d", i, got[i]);
    clReleaseMemObject(held);
    clReleaseMemObject(ids);

    /* CLK_NULL_RESERVE_ID and failed reservations are invalid, and
     * writing through one fails. */
    cl_kernel invalid = kernel(p, "invalid_ids");
    set_args(invalid, 2, (cl_mem[]){pipe, counts});
    run(invalid, 1);
    read_buffer(counts, sizeof c, c);
    CHECK(!c[0] && !c[1] && !c[2] && c[3] < 0, "invalid ids: %d %d %d, write %d", c[0], c[1],
          c[2], c[3]);

    /* OpenCL C 2.0 kernels use pipes too. */
    cl_program p20 = build(PIPE_KERNELS, "-cl-std=CL2.0");
    cl_kernel produce20 = kernel(p20, "produce"), consume20 = kernel(p20, "consume");
    set_args(produce20, 3, (cl_mem[]){src, pipe, status});
    set_args(consume20, 3, (cl_mem[]){pipe, dst, status});
    zero(status, sizeof(int));
    run(produce20, N);
    run(consume20, N);
    CHECK(read_status(status) == 0, "OpenCL C 2.0: %d failures", read_status(status));
    check_permutation("OpenCL C 2.0", dst, N);

    cl_kernel all[] = {produce,    consume,        count,          produce_n, consume_n,
                       produce_wg, produce_wg_local, consume_wg,   produce_sg, consume_sg,
                       produce_struct,
                       consume_struct, reverse,    drain,          invalid,   produce20, consume20};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        clReleaseKernel(all[i]);
    clReleaseProgram(p);
    clReleaseProgram(p20);
    clReleaseMemObject(pipe);
    clReleaseMemObject(src);
    clReleaseMemObject(dst);
    clReleaseMemObject(status);
    clReleaseMemObject(counts);
    free(values);
}

/* --- Device queues (device_execution/device_info, device_queue,
 * api/set_default_device_command_queue,
 * api/negative_set_default_device_command_queue,
 * api/negative_create_command_queue_with_properties,
 * api/negative_get_command_queue_info, api/negative_invalid_arg_queue):
 * the device's limits, on-device queues and their errors, the default
 * device queue and its replacement, queue_t kernel arguments. */

static const char *QUEUE_ARG_SRC =
    "kernel void queue_arg(global int *out, queue_t q) {\n"
    "  out[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), ^{ out[1] = 7; });\n"
    "  out[2] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),\n"
    "                          ^{ out[3] = 8; });\n"
    "}\n";

static cl_command_queue device_queue(cl_command_queue_properties flags, cl_uint size, cl_int *err) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, flags, size ? CL_QUEUE_SIZE : 0, size, 0};
    return clCreateCommandQueueWithProperties(ctx, dev, props, err);
}

static cl_command_queue queue_info_queue(cl_command_queue q, cl_command_queue_info what) {
    cl_command_queue out = (cl_command_queue)1;
    OK(clGetCommandQueueInfo(q, what, sizeof out, &out, NULL));
    return out;
}

static void device_queues(void) {
    const cl_command_queue_properties OOO = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
    cl_command_queue_properties props = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, sizeof props, &props, NULL));
    CHECK(props == (OOO | CL_QUEUE_PROFILING_ENABLE), "on-device properties %llx",
          (unsigned long long)props);
    cl_uint preferred = 0, max_size = 0, max_queues = 0, max_events = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, sizeof preferred, &preferred,
                       NULL));
    OK(clGetDeviceInfo(dev, CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, sizeof max_size, &max_size, NULL));
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_ON_DEVICE_QUEUES, sizeof max_queues, &max_queues, NULL));
    OK(clGetDeviceInfo(dev, CL_DEVICE_MAX_ON_DEVICE_EVENTS, sizeof max_events, &max_events, NULL));
    CHECK(preferred >= 16 * 1024 && max_size >= 256 * 1024 && preferred <= max_size,
          "queue sizes %u %u", preferred, max_size);
    CHECK(max_queues >= 1 && max_events >= 1024, "max queues %u, events %u", max_queues,
          max_events);
    cl_device_device_enqueue_capabilities caps = 0;
    OK(clGetDeviceInfo(dev, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES, sizeof caps, &caps, NULL));
    CHECK(caps == (CL_DEVICE_QUEUE_SUPPORTED | CL_DEVICE_QUEUE_REPLACEABLE_DEFAULT),
          "capabilities %llx", (unsigned long long)caps);

    /* Invalid properties: on the device but in order, default but not on
     * the device, a size for a host queue or beyond the maximum. */
    cl_int err;
    cl_command_queue q = device_queue(CL_QUEUE_ON_DEVICE, 0, &err);
    CHECK(q == NULL && err == CL_INVALID_VALUE, "in-order device queue: %d", err);
    q = device_queue(CL_QUEUE_ON_DEVICE_DEFAULT | OOO, 0, &err);
    CHECK(q == NULL && err == CL_INVALID_VALUE, "default without on-device: %d", err);
    q = device_queue(OOO, 1024, &err);
    CHECK(q == NULL && err == CL_INVALID_VALUE, "host queue with a size: %d", err);
    q = device_queue(CL_QUEUE_ON_DEVICE | OOO, max_size + 1, &err);
    CHECK(q == NULL && (err == CL_INVALID_VALUE || err == CL_INVALID_QUEUE_PROPERTIES),
          "queue larger than the maximum: %d", err);

    /* No default device queue yet. */
    CHECK(queue_info_queue(queue, CL_QUEUE_DEVICE_DEFAULT) == NULL, "a default before any");
    cl_command_queue def = device_queue(CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | OOO, 0, &err);
    OK(err);
    cl_uint size = 0;
    OK(clGetCommandQueueInfo(def, CL_QUEUE_SIZE, sizeof size, &size, NULL));
    CHECK(size == preferred, "default size %u, preferred %u", size, preferred);
    EXPECT_ERR(clGetCommandQueueInfo(queue, CL_QUEUE_SIZE, sizeof size, &size, NULL),
               CL_INVALID_COMMAND_QUEUE);
    CHECK(queue_info_queue(queue, CL_QUEUE_DEVICE_DEFAULT) == def, "default from a host queue");
    CHECK(queue_info_queue(def, CL_QUEUE_DEVICE_DEFAULT) == def, "default from itself");
    /* One default per device of a context: asking again gives it, retained. */
    cl_command_queue again = device_queue(CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | OOO,
                                          0, &err);
    OK(err);
    cl_uint refs = 0;
    OK(clGetCommandQueueInfo(def, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, NULL));
    CHECK(again == def && refs == 2, "second default %p (first %p), %u references",
          (void *)again, (void *)def, refs);
    OK(clReleaseCommandQueue(again));

    /* A device queue takes no command from the host. */
    cl_command_queue other = device_queue(CL_QUEUE_ON_DEVICE | OOO | CL_QUEUE_PROFILING_ENABLE,
                                          64 * 1024, &err);
    OK(err);
    OK(clGetCommandQueueInfo(other, CL_QUEUE_SIZE, sizeof size, &size, NULL));
    CHECK(size == 64 * 1024, "size %u", size);
    EXPECT_ERR(clFinish(other), CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clFlush(other), CL_INVALID_COMMAND_QUEUE);
    cl_mem out = new_buffer(4 * sizeof(cl_int));
    cl_int zero[4] = {0, 0, 0, 0};
    EXPECT_ERR(clEnqueueWriteBuffer(other, out, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL),
               CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clEnqueueMarkerWithWaitList(other, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);

    /* Replacing the default. */
    EXPECT_ERR(clSetDefaultDeviceCommandQueue(ctx, dev, queue), CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clSetDefaultDeviceCommandQueue(ctx, dev, NULL), CL_INVALID_COMMAND_QUEUE);
    EXPECT_ERR(clSetDefaultDeviceCommandQueue(NULL, dev, other), CL_INVALID_CONTEXT);
    EXPECT_ERR(clSetDefaultDeviceCommandQueue(ctx, NULL, other), CL_INVALID_DEVICE);
    OK(clSetDefaultDeviceCommandQueue(ctx, dev, other));
    CHECK(queue_info_queue(queue, CL_QUEUE_DEVICE_DEFAULT) == other, "replaced default");
    OK(clSetDefaultDeviceCommandQueue(ctx, dev, def));
    CHECK(queue_info_queue(other, CL_QUEUE_DEVICE_DEFAULT) == def, "default back");

    /* At most CL_DEVICE_MAX_ON_DEVICE_QUEUES besides the default. */
    cl_command_queue extra[64];
    cl_uint made = 1; /* `other` */
    for (; made < max_queues && made < 64; made++) {
        extra[made] = device_queue(CL_QUEUE_ON_DEVICE | OOO, 0, &err);
        OK(err);
    }
    q = device_queue(CL_QUEUE_ON_DEVICE | OOO, 0, &err);
    CHECK(q == NULL && err == CL_OUT_OF_RESOURCES, "queue %u of %u: %d", made + 1, max_queues, err);
    for (cl_uint i = 1; i < made; i++)
        OK(clReleaseCommandQueue(extra[i]));

    /* queue_t arguments: a device queue of the context, nothing else. */
    cl_program p = build(QUEUE_ARG_SRC, "-cl-std=CL2.0");
    cl_kernel k = kernel(p, "queue_arg");
    cl_command_queue null_queue = NULL;
    EXPECT_ERR(clSetKernelArg(k, 1, sizeof null_queue, &null_queue), CL_INVALID_DEVICE_QUEUE);
    EXPECT_ERR(clSetKernelArg(k, 1, sizeof queue, &queue), CL_INVALID_DEVICE_QUEUE);
    EXPECT_ERR(clSetKernelArg(k, 1, sizeof queue, queue), CL_INVALID_DEVICE_QUEUE);
    EXPECT_ERR(clSetKernelArg(k, 1, sizeof out, &out), CL_INVALID_DEVICE_QUEUE);
    EXPECT_ERR(clSetKernelArg(k, 1, 4, &other), CL_INVALID_ARG_SIZE);
    EXPECT_ERR(clSetKernelArg(k, 1, sizeof other, NULL), CL_INVALID_DEVICE_QUEUE);
    OK(clSetKernelArg(k, 0, sizeof out, &out));
    OK(clSetKernelArg(k, 1, sizeof other, &other));
    OK(clEnqueueWriteBuffer(queue, out, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
    run(k, 1);
    cl_int got[4];
    read_buffer(out, sizeof got, got);
    CHECK(got[0] == 0 && got[1] == 7 && got[2] == 0 && got[3] == 8,
          "enqueues to the argument and the default: %d %d %d %d", got[0], got[1], got[2], got[3]);

    /* Without a default device queue, get_default_queue gives
     * CLK_NULL_QUEUE, which takes no enqueue (CLK_INVALID_QUEUE). */
    OK(clReleaseCommandQueue(def));
    CHECK(queue_info_queue(queue, CL_QUEUE_DEVICE_DEFAULT) == NULL, "default after its release");
    OK(clEnqueueWriteBuffer(queue, out, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
    run(k, 1);
    read_buffer(out, sizeof got, got);
    CHECK(got[0] == 0 && got[1] == 7 && got[2] == -102 && got[3] == 0,
          "without a default: %d %d %d %d", got[0], got[1], got[2], got[3]);

    /* A block's invoke kernel is not one of the program's kernels. */
    size_t names_size = 0;
    char names[256] = "";
    OK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, &names_size));
    CHECK(!strcmp(names, "queue_arg"), "kernel names \"%s\"", names);
    size_t count = 0;
    OK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, NULL));
    cl_uint in_program = 0;
    OK(clCreateKernelsInProgram(p, 0, NULL, &in_program));
    CHECK(count == 1 && in_program == 1, "%zu kernels, %u created", count, in_program);
    cl_kernel block_kernel = clCreateKernel(p, "__queue_arg_block_invoke_kernel", &err);
    CHECK(block_kernel == NULL && err == CL_INVALID_KERNEL_NAME, "block kernel created: %d", err);

    clReleaseKernel(k);
    clReleaseProgram(p);
    clReleaseMemObject(out);
    OK(clReleaseCommandQueue(other));
}

/* --- Device-side enqueue (device_execution/enqueue_block, enqueue_flags,
 * enqueue_ndrange, enqueue_nested_blocks, enqueue_profiling,
 * host_queue_order, execute_block): kernels enqueue blocks with captured
 * values over 1-D and 2-D ranges, with __local arguments, ordered by
 * device events, user events and markers, nested; the host sees the
 * launch complete only with its children, whose profiling COMPLETE comes
 * at or after END. Also run in checked mode on both engines. */

static const char *ENQUEUE_SRC =
    "void nest(global int *count, int level) {\n"
    "  atomic_inc(&count[level]);\n"
    "  if (level > 0 && get_global_id(0) == 0)\n"
    "    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(4),\n"
    "                   ^{ nest(count, level - 1); });\n"
    "}\n"
    "int (^square)(int) = ^(int x) { return x * x; };\n"
    "kernel void parent(global int *out, global int *count, int v) {\n"
    "  int g = get_global_id(0);\n"
    "  global int *o = out + g * 16;\n"
    "  queue_t q = get_default_queue();\n"
    "  clk_event_t user = create_user_event(), first, second, marker;\n"
    "  o[0] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(3), 1, &user, &first,\n"
    "                        ^{ o[1 + get_global_id(0)] = v + g + square(3); });\n"
    "  size_t gs[2] = {4, 2}, ls[2] = {2, 2};\n"
    "  o[4] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_2D(gs, ls), 1, &first,\n"
    "                        &second, ^(local void *scratch) {\n"
    "    local int *t = (local int *)scratch;\n"
    "    t[get_local_linear_id()] = o[1] + (int)get_global_linear_id();\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    o[5 + get_global_linear_id()] = t[3 - get_local_linear_id()];\n"
    "  }, 4 * sizeof(int));\n"
    "  o[13] = enqueue_marker(q, 1, &second, &marker);\n"
    "  o[14] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &marker, NULL,\n"
    "                         ^{ o[15] = o[5] + o[12]; });\n"
    "  set_user_event_status(user, CL_COMPLETE);\n"
    "  release_event(user); release_event(first); release_event(second); release_event(marker);\n"
    "  if (g == 0) nest(count, 3);\n"
    "}\n"
    "kernel void after(global int *out, global int *count) {\n"
    "  out[get_global_id(0) * 16 + 13] = count[0];\n"
    "}\n";

static void device_enqueue(void) {
    cl_int err;
    cl_queue_properties props[] = {
        CL_QUEUE_PROPERTIES,
        CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
    cl_command_queue def = clCreateCommandQueueWithProperties(ctx, dev, props, &err);
    OK(err);
    cl_queue_properties profiled[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_command_queue host = clCreateCommandQueueWithProperties(ctx, dev, profiled, &err);
    OK(err);
    enum { N = 8 };
    cl_program p = build(ENQUEUE_SRC, "-cl-std=CL2.0");
    cl_kernel parent = kernel(p, "parent"), after = kernel(p, "after");
    cl_mem out = new_buffer(N * 16 * sizeof(cl_int)), count = new_buffer(4 * sizeof(cl_int));
    cl_int zero[N * 16];
    memset(zero, 0, sizeof zero);
    OK(clEnqueueWriteBuffer(host, out, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL));
    OK(clEnqueueWriteBuffer(host, count, CL_TRUE, 0, 4 * sizeof(cl_int), zero, 0, NULL, NULL));
    cl_int v = 100;
    OK(clSetKernelArg(parent, 0, sizeof out, &out));
    OK(clSetKernelArg(parent, 1, sizeof count, &count));
    OK(clSetKernelArg(parent, 2, sizeof v, &v));
    size_t n = N, local = 4;
    cl_event done;
    OK(clEnqueueNDRangeKernel(host, parent, 1, NULL, &n, &local, 0, NULL, &done));
    /* The event completes with the children: waiting for it is enough. */
    OK(clWaitForEvents(1, &done));
    cl_int got[N * 16];
    OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int g = 0; g < N; g++) {
        const cl_int *o = got + g * 16;
        int first = v + g + 9;
        CHECK(o[0] == 0 && o[4] == 0 && o[13] == 0 && o[14] == 0, "work-item %d: status %d %d %d %d",
              g, o[0], o[4], o[13], o[14]);
        for (int i = 0; i < 3; i++)
            CHECK(o[1 + i] == first, "work-item %d: first[%d] = %d, expected %d", g, i, o[1 + i],
                  first);
        /* t[l] = first + linear id; each work-item took its group's
         * mirror image (groups of 2x2 over a 4x2 range). */
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 4; x++) {
                int lin = y * 4 + x, group_x = x / 2, lx = x % 2, mirror = 3 - (y * 2 + lx);
                int want = first + (mirror / 2) * 4 + group_x * 2 + mirror % 2;
                CHECK(o[5 + lin] == want, "work-item %d: second[%d] = %d, expected %d", g, lin,
                      o[5 + lin], want);
            }
        CHECK(o[15] == o[5] + o[12], "work-item %d: after the marker %d", g, o[15]);
    }
    cl_int counts[4];
    OK(clEnqueueReadBuffer(queue, count, CL_TRUE, 0, sizeof counts, counts, 0, NULL, NULL));
    CHECK(counts[3] == 1 && counts[2] == 4 && counts[1] == 4 && counts[0] == 4,
          "nested counts %d %d %d %d", counts[3], counts[2], counts[1], counts[0]);
    cl_ulong end = 0, complete = 0;
    OK(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    OK(clGetEventProfilingInfo(done, CL_PROFILING_COMMAND_COMPLETE, sizeof complete, &complete,
                               NULL));
    CHECK(end > 0 && end <= complete, "END %llu, COMPLETE %llu", (unsigned long long)end,
          (unsigned long long)complete);
    clReleaseEvent(done);

    /* host_queue_order: in an in-order host queue the next kernel sees
     * what the previous one's children wrote. */
    OK(clEnqueueWriteBuffer(host, count, CL_TRUE, 0, 4 * sizeof(cl_int), zero, 0, NULL, NULL));
    OK(clSetKernelArg(after, 0, sizeof out, &out));
    OK(clSetKernelArg(after, 1, sizeof count, &count));
    OK(clEnqueueNDRangeKernel(host, parent, 1, NULL, &n, &local, 0, NULL, NULL));
    OK(clEnqueueNDRangeKernel(host, after, 1, NULL, &n, &local, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(host, out, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    for (int g = 0; g < N; g++)
        CHECK(got[g * 16 + 13] == 4, "after the parent: count %d", got[g * 16 + 13]);

    clReleaseMemObject(out);
    clReleaseMemObject(count);
    clReleaseKernel(parent);
    clReleaseKernel(after);
    clReleaseProgram(p);
    OK(clReleaseCommandQueue(host));
    OK(clReleaseCommandQueue(def));
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: conformance CASE\n");
        return 2;
    }
    alarm(120);
    setup();
    const char *c = argv[1];
    if (!strcmp(c, "host_timer"))
        host_timer();
    else if (!strcmp(c, "integer_dot_product"))
        integer_dot_product();
    else if (!strcmp(c, "feature_macros"))
        feature_macros();
    else if (!strcmp(c, "version_macros"))
        version_macros();
    else if (!strcmp(c, "opencl_3_1"))
        opencl_3_1();
    else if (!strcmp(c, "build_options"))
        build_options();
    else if (!strcmp(c, "kernel_attributes"))
        kernel_attributes();
    else if (!strcmp(c, "zero_sized_enqueue"))
        zero_sized_enqueue();
    else if (!strcmp(c, "error_codes"))
        error_codes();
    else if (!strcmp(c, "alignment"))
        alignment();
    else if (!strcmp(c, "separate_compilation"))
        separate_compilation();
    else if (!strcmp(c, "suggested_local_size"))
        suggested_local_size();
    else if (!strcmp(c, "il_programs"))
        il_programs();
    else if (!strcmp(c, "spirv_queries"))
        spirv_queries();
    else if (!strcmp(c, "images_from_buffers"))
        images_from_buffers();
    else if (!strcmp(c, "image_kernel_args"))
        image_kernel_args();
    else if (!strcmp(c, "async_in_order"))
        async_in_order();
    else if (!strcmp(c, "async_out_of_order"))
        async_out_of_order();
    else if (!strcmp(c, "async_user_events"))
        async_user_events();
    else if (!strcmp(c, "async_callbacks"))
        async_callbacks();
    else if (!strcmp(c, "async_profiling"))
        async_profiling();
    else if (!strcmp(c, "async_threads"))
        async_threads();
    else if (!strcmp(c, "async_failure"))
        async_failure();
    else if (!strcmp(c, "async_release"))
        async_release();
    else if (!strcmp(c, "sub_devices"))
        sub_devices();
    else if (!strcmp(c, "create_command_queue_khr"))
        create_command_queue_khr();
    else if (!strcmp(c, "svm"))
        svm();
    else if (!strcmp(c, "svm_args"))
        svm_args();
    else if (!strcmp(c, "pipe_objects"))
        pipe_objects();
    else if (!strcmp(c, "pipe_kernels"))
        pipe_kernels();
    else if (!strcmp(c, "device_queues"))
        device_queues();
    else if (!strcmp(c, "device_enqueue"))
        device_enqueue();
    else {
        fprintf(stderr, "unknown case %s\n", c);
        return 2;
    }
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("OK\n");
    return 0;
}
