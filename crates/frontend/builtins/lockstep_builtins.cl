// lockstep_builtins.cl - the Lockstep OpenCL C builtin library.
//
// THE CONTRACT
//
// The front end compiles a user kernel with
//   clang-19 -x cl -target spir64 -emit-llvm -c -O0 -Xclang -disable-O0-optnone
//            -Xclang -finclude-default-header -cl-kernel-arg-info -cl-std=CL<v>
// links this library's bitcode (crates/frontend/build.rs builds it;
// lockstep_frontend::builtins::BUILTINS_BC holds it) into the module,
// internalizes it, runs LLVM's O2 pipeline and imports the result. So every
// OpenCL builtin a kernel can call is DEFINED here, under its mangled name
// (`_Z3sinf`, `_Z6vload4mPU3AS1Kf`, ...), for every scalar and vector type
// and width, for float, double and half, and for every pointer address
// space: the named ones (__global/__local/__private/__constant) that OpenCL
// 1.2 kernels call, and the generic one that 2.0/3.0 kernels call. The
// library is compiled as OpenCL C 3.0 with
// -D__opencl_c_named_address_space_builtins so that both sets are declared.
//
// Left undefined - the importer maps these to IR operations ("core"):
//   * work-item functions: get_global_id, get_local_id, get_group_id,
//     get_global_size, get_local_size, get_enqueued_local_size,
//     get_num_groups, get_global_offset, get_work_dim, get_global_linear_id,
//     get_local_linear_id
//   * the subgroup queries (get_sub_group_size, get_max_sub_group_size,
//     get_num_sub_groups, get_enqueued_num_sub_groups, get_sub_group_id,
//     get_sub_group_local_id) and the core subgroup functions:
//     sub_group_barrier, sub_group_[non_uniform_]all/any,
//     sub_group_ballot, sub_group_[non_uniform_]broadcast,
//     sub_group_shuffle, and every sub_group_*reduce_* and *scan_*
//     (import/collectives.rs); subgroups.cl writes the others with them
//   * barrier, work_group_barrier (both overloads), mem_fence,
//     read_mem_fence, write_mem_fence, atomic_work_item_fence
//   * printf
//   * device-side enqueue (import/calls.rs makes them device enqueue
//     operations): clang's __enqueue_kernel_* and __get_kernel_*_impl
//     built-ins, get_default_queue, enqueue_marker, retain_event,
//     release_event, create_user_event, is_valid_event,
//     set_user_event_status, capture_event_profiling_info (enqueue.cl
//     defines the ndrange_1D/2D/3D builders)
//   * the image and sampler views images.cl uses: `__lockstep_image(img)`
//     (an image handle is a __global pointer to its descriptor and texels)
//     and `__lockstep_sampler(s)` (a sampler is its CLK_* bits), both the
//     argument itself; and clang's `__translate_sampler_initializer(int)`
//     for sampler literals, the int itself
//   * the pipe and reservation views pipes.cl uses: `__lockstep_pipe_ro(p)`
//     and `__lockstep_pipe_wo(p)` (a pipe handle is a __global pointer to
//     its header and packets), `__lockstep_reserve_id_bits(id)` and
//     `__lockstep_reserve_id(bits)` (a reserve_id_t is 64 bits), all the
//     argument itself
//   * the conversion hooks, all overloadable, one overload per source
//     scalar type, returning the destination type:
//       <dst> __lockstep_convert_{s,u,f}_{rte,rtz,rtp,rtn}(<src>)
//       <dst> __lockstep_convert_{s,u}_{rte,rtz,rtp,rtn}_sat(<src>)
//     The letter after `convert_` is the destination kind (s = signed
//     integer, u = unsigned integer, f = half/float/double); the source
//     kind comes from the parameter type. Float -> integer _sat: NaN -> 0,
//     then clamp to the destination range. The same mangled hook is
//     declared with different return types in different units (e.g.
//     `_Z24__lockstep_convert_f_rtzd` returns float in convert_float and
//     half in convert_half / vload); the importer must take the destination
//     type from the call instruction's type, not from the declaration.
//
// Everything else is written in OpenCL C with plain arithmetic, clang
// builtins that lower to LLVM instructions or intrinsics (llvm.sqrt,
// llvm.fma, llvm.sin, llvm.exp10, llvm.fmuladd, llvm.ctlz, ...), the C libm
// functions clang calls for builtins without an intrinsic (erff, lgamma,
// hypotf, ...: see check_coverage.py --externals for the exact list), and
// clang's __opencl_atomic_* builtins (LLVM atomicrmw / cmpxchg / atomic
// load and store).
//
// Out of scope (not defined here): half and depth image functions
// (read_imageh, write_imageh, depth, mipmap and MSAA images), work_group_*
// collective functions,
// cl_khr_kernel_clock, sub_group_rotate, and vendor extensions (amd_*,
// arm_*, intel_* but cl_intel_subgroups' shuffles and block reads and
// writes of uints). check_coverage.py lists the exact exclusion patterns.
//
// TESTING
//
//   python3 check_coverage.py [--externals] [-v]
//     every builtin opencl-c.h declares (OpenCL C 1.2, 2.0, 3.0, and 3.0 with
//     named address spaces), called the way user kernels call it, resolves
//     against the library; the library leaves only core functions, hooks,
//     libm and intrinsics undefined; every scalar convert_* calls the right
//     hook with the right return type.
//   python3 tests/native_check.py
//     numerical sanity tests: test kernels linked with the library, O2,
//     retargeted to x86-64 and run natively against mpmath/numpy.
//
// UNITS
//
// Each file below is compiled as its own translation unit and the results
// are linked with llvm-link (build.rs). This file includes them all so it
// can also be compiled as one unit (the sanity tests do). convert.cl is not
// included: it is compiled once per destination type (-DLS_CONVERT_DST=<t>),
// see the comment at its top.

#include "math.cl"
#include "common.cl"
#include "integer.cl"
#include "geometric.cl"
#include "relational.cl"
#include "vload.cl"
#include "shuffle.cl"
#include "atomics.cl"
#include "async.cl"
#include "misc.cl"
#include "subgroups.cl"
#include "images.cl"
#include "pipes.cl"
#include "enqueue.cl"
