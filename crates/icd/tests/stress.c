/* Concurrency stress through the ICD loader: many host threads, some on one
 * shared queue and some on queues of their own, launching kernels and
 * copying between shared buffers in opposite orders, on sub-buffers of one
 * parent, with events across queues and user events. Launches hold their
 * buffers' locks, so increments of one buffer from all threads serialize
 * and the totals are exact. Prints "OK" and exits 0; an alarm turns a
 * deadlock into a failure. */

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define THREADS 8
#define ROUNDS 60
#define N 1024

#include "check.h"

static const char *SOURCE =
    "kernel void inc(global int *x) { x[get_global_id(0)] += 1; }\n"
    "kernel void add(global int *dst, global const int *src) {\n"
    "    size_t i = get_global_id(0);\n"
    "    dst[i] += src[i] - src[i];\n"
    "}\n";

static cl_device_id dev;
static cl_context ctx;
static cl_program program;
static cl_command_queue shared_queue;
static cl_mem shared_a, shared_b, parent;

static void *worker(void *arg) {
    int id = (int)(intptr_t)arg;
    cl_int err;
    cl_command_queue own = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    OK(err);
    cl_command_queue q = (id % 2 == 0) ? shared_queue : own;
    cl_kernel inc = clCreateKernel(program, "inc", &err);
    OK(err);
    cl_kernel add = clCreateKernel(program, "add", &err);
    OK(err);
    cl_buffer_region region = {(size_t)id * N * sizeof(int), N * sizeof(int)};
    cl_mem mine = clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                    &region, &err);
    OK(err);
    cl_mem scratch = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    OK(err);
    size_t global = N;
    int *host = calloc(N, sizeof(int));
    for (int r = 0; r < ROUNDS; r++) {
        /* The shared buffer: every thread's increments count. */
        OK(clSetKernelArg(inc, 0, sizeof shared_a, &shared_a));
        cl_event launched;
        OK(clEnqueueNDRangeKernel(q, inc, 1, NULL, &global, NULL, 0, NULL, &launched));
        /* Its own sub-buffer of the shared parent, waiting on the launch
         * (an event of another queue for half of the threads). */
        OK(clSetKernelArg(inc, 0, sizeof mine, &mine));
        cl_event own_done;
        OK(clEnqueueNDRangeKernel(own, inc, 1, NULL, &global, NULL, 1, &launched, &own_done));
        /* Opposite argument orders on the two shared buffers. */
        cl_mem x = (id & 1) ? shared_a : shared_b, y = (id & 1) ? shared_b : shared_a;
        OK(clSetKernelArg(add, 0, sizeof x, &x));
        OK(clSetKernelArg(add, 1, sizeof y, &y));
        OK(clEnqueueNDRangeKernel(q, add, 1, NULL, &global, NULL, 0, NULL, NULL));
        /* Copies in opposite orders, and a gated write behind a user event. */
        OK(clEnqueueCopyBuffer(own, x, scratch, 0, 0, N * sizeof(int), 0, NULL, NULL));
        OK(clEnqueueCopyBuffer(own, scratch, mine, 0, 0, sizeof(int), 0, NULL, NULL));
        cl_event gate = clCreateUserEvent(ctx, &err);
        OK(err);
        cl_event written;
        OK(clEnqueueReadBuffer(own, mine, CL_FALSE, 0, N * sizeof(int), host, 1, &gate, &written));
        OK(clSetUserEventStatus(gate, CL_COMPLETE));
        OK(clWaitForEvents(1, &written));
        cl_int status;
        OK(clGetEventInfo(own_done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                          NULL));
        CHECK(status == CL_COMPLETE, "status %d", status);
        /* The copy put scratch[0] (a shared value) into mine[0]; the rest
         * of mine counts this thread's rounds. */
        CHECK(host[N - 1] == r + 1, "thread %d round %d: %d", id, r, host[N - 1]);
        clReleaseEvent(launched);
        clReleaseEvent(own_done);
        clReleaseEvent(gate);
        clReleaseEvent(written);
        /* Map and unmap the parent's region under the others' traffic. */
        if (r % 8 == 0) {
            int *p = clEnqueueMapBuffer(own, mine, CL_TRUE, CL_MAP_READ, 0, N * sizeof(int), 0,
                                        NULL, NULL, &err);
            OK(err);
            CHECK(p[N - 1] == r + 1, "mapped %d", p[N - 1]);
            OK(clEnqueueUnmapMemObject(own, mine, p, 0, NULL, NULL));
        }
    }
    OK(clFinish(own));
    OK(clFinish(shared_queue));
    free(host);
    clReleaseMemObject(scratch);
    clReleaseMemObject(mine);
    clReleaseKernel(inc);
    clReleaseKernel(add);
    clReleaseCommandQueue(own);
    return NULL;
}

int main(void) {
    alarm(120);
    cl_platform_id platform = find_lockstep();
    OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_CPU, 1, &dev, NULL));
    cl_int err;
    ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    OK(err);
    program = clCreateProgramWithSource(ctx, 1, &SOURCE, NULL, &err);
    OK(err);
    OK(clBuildProgram(program, 1, &dev, "", NULL, NULL));
    shared_queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
    OK(err);
    shared_a = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    OK(err);
    shared_b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    OK(err);
    parent = clCreateBuffer(ctx, CL_MEM_READ_WRITE, THREADS * N * sizeof(int), NULL, &err);
    OK(err);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    int *a = calloc(N, sizeof(int)), *all = calloc((size_t)THREADS * N, sizeof(int));
    OK(clEnqueueReadBuffer(shared_queue, shared_a, CL_TRUE, 0, N * sizeof(int), a, 0, NULL, NULL));
    OK(clEnqueueReadBuffer(shared_queue, parent, CL_TRUE, 0, THREADS * N * sizeof(int), all, 0,
                           NULL, NULL));
    for (int i = 0; i < N; i++) CHECK(a[i] == THREADS * ROUNDS, "a[%d] = %d", i, a[i]);
    for (int th = 0; th < THREADS; th++)
        CHECK(all[th * N + N - 1] == ROUNDS, "parent region %d: %d", th, all[th * N + N - 1]);
    free(a);
    free(all);
    clReleaseMemObject(shared_a);
    clReleaseMemObject(shared_b);
    clReleaseMemObject(parent);
    clReleaseCommandQueue(shared_queue);
    clReleaseProgram(program);
    clReleaseContext(ctx);
    if (failures) {
        fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    printf("OK\n");
    return 0;
}
