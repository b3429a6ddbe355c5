/* What the C host tests (host.c, hostile.c, stress.c) share: assertion
 * macros and finding the platform. Assertions:
 * CHECK counts a failure and goes on (thread-safe), OK stops the program
 * when an OpenCL call fails, EXPECT_ERR checks a call's error code. Each
 * program returns nonzero when `failures` is. Include after <CL/cl.h>. */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
static pthread_mutex_t failures_lock = PTHREAD_MUTEX_INITIALIZER;

#define CHECK(cond, ...)                                                      \
    do {                                                                      \
        if (!(cond)) {                                                        \
            pthread_mutex_lock(&failures_lock);                               \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
            fprintf(stderr, __VA_ARGS__);                                     \
            fprintf(stderr, "\n");                                            \
            failures++;                                                       \
            pthread_mutex_unlock(&failures_lock);                             \
        }                                                                     \
    } while (0)

#define OK(call)                                                              \
    do {                                                                      \
        cl_int err_ = (call);                                                 \
        if (err_ != CL_SUCCESS) {                                             \
            fprintf(stderr, "FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, err_); \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

#define EXPECT_ERR(call, code)                                                \
    do {                                                                      \
        cl_int err_ = (call);                                                 \
        CHECK(err_ == (code), "%s returned %d, expected %s (%d)", #call, err_, #code, code); \
    } while (0)

/* The platform named Lockstep; exits when the loader offers none. */
static cl_platform_id find_lockstep(void) {
    cl_uint n = 0;
    OK(clGetPlatformIDs(0, NULL, &n));
    cl_platform_id *ps = calloc(n, sizeof *ps);
    OK(clGetPlatformIDs(n, ps, NULL));
    cl_platform_id found = NULL;
    for (cl_uint i = 0; i < n; i++) {
        char name[256];
        OK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
        if (strcmp(name, "Lockstep") == 0) found = ps[i];
    }
    free(ps);
    if (!found) {
        fprintf(stderr, "FAIL: no platform named Lockstep\n");
        exit(1);
    }
    return found;
}
