//! What the Khronos OpenCL CTS checks and Lockstep once got wrong
//! (`conformance.c`, one process per case, through the ICD loader), so
//! that `make test` keeps it fixed without the CTS.

mod common;

use std::path::PathBuf;
use std::sync::OnceLock;

/// The compiled `conformance` program (compiled once per test process).
fn conformance() -> &'static PathBuf {
    static EXE: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &EXE.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temporary directory");
        let exe = common::compile_c("conformance", dir.path());
        (dir, exe)
    })
    .1
}

/// Runs one case of `conformance.c`; its stdout.
fn run_case(case: &str) -> String {
    run_case_with(case, &[])
}

/// Runs one case of `conformance.c` with more environment variables.
fn run_case_with(case: &str, env: &[(&str, &std::ffi::OsStr)]) -> String {
    let vendors = common::vendors_dir();
    let out = common::command(conformance(), vendors.path())
        .envs(env.iter().copied())
        .arg(case)
        .output()
        .expect("running conformance");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stdout.lines().any(|l| l == "OK"),
        "case {case} failed ({}):\n{stdout}\n{stderr}",
        out.status
    );
    stdout
}

/// Runs one case as it is, then in checked mode on the SIMD engine and on
/// the interpreter (`LOCKSTEP_CHECK=1`, `full`), where any report aborts.
fn run_case_checked_too(case: &str) {
    run_case(case);
    for check in ["1", "full"] {
        run_case_with(
            case,
            &[
                ("LOCKSTEP_CHECK", check.as_ref()),
                ("LOCKSTEP_CHECK_ABORT", "1".as_ref()),
            ],
        );
    }
}

#[test]
fn host_timer_has_a_resolution_and_checks_its_arguments() {
    run_case("host_timer");
}

#[test]
fn integer_dot_products_are_reported_and_computed() {
    run_case("integer_dot_product");
}

#[test]
fn kernels_see_exactly_the_features_the_device_reports() {
    run_case("feature_macros");
}

#[test]
fn spirv_queries_list_what_the_device_features_require() {
    run_case("spirv_queries");
}

#[test]
fn opencl_version_macros_name_the_device_and_the_language() {
    run_case("version_macros");
}

#[test]
fn the_device_is_an_opencl_3_1_device() {
    run_case("opencl_3_1");
}

#[test]
fn every_optimization_option_builds() {
    run_case("build_options");
}

#[test]
fn kernel_attributes_list_vec_type_hint_and_work_group_sizes() {
    run_case("kernel_attributes");
}

#[test]
fn a_zero_sized_ndrange_is_a_command_that_does_nothing() {
    run_case("zero_sized_enqueue");
}

#[test]
fn il_queue_and_context_properties_give_the_spec_error_codes() {
    run_case("error_codes");
}

#[test]
fn pipes_are_memory_objects_with_the_spec_limits_and_error_codes() {
    run_case("pipe_objects");
}

#[test]
fn packets_go_through_pipes_exactly_once_with_every_kind_of_reservation() {
    run_case_checked_too("pipe_kernels");
}

#[test]
fn wide_vectors_by_value_and_every_kind_of_memory_are_aligned_for_long16() {
    run_case("alignment");
}

#[test]
fn separately_compiled_objects_link_as_modules() {
    run_case("separate_compilation");
}

#[test]
fn the_suggested_local_size_is_what_an_enqueue_without_one_uses() {
    run_case("suggested_local_size");
}

#[test]
fn images_from_buffers_share_the_buffers_memory() {
    // The interpreter and checked code run such images on a copy of their
    // texels, copied back after the launch.
    run_case_checked_too("images_from_buffers");
}

#[test]
fn image_and_sampler_arguments_give_the_spec_error_codes() {
    run_case("image_kernel_args");
}

#[test]
fn enqueues_return_at_once_and_an_in_order_chain_runs_in_order() {
    run_case("async_in_order");
}

#[test]
fn out_of_order_queues_honour_wait_lists_markers_and_barriers() {
    run_case("async_out_of_order");
}

#[test]
fn user_events_gate_commands_of_several_queues() {
    run_case("async_user_events");
}

#[test]
fn event_callbacks_are_called_once_per_status_reached() {
    run_case("async_callbacks");
}

#[test]
fn profiling_timestamps_are_monotone_and_follow_the_queue_order() {
    run_case("async_profiling");
}

#[test]
fn clfinish_from_several_threads_waits_for_what_each_enqueued() {
    run_case("async_threads");
}

#[test]
fn a_failed_event_fails_what_waits_for_it() {
    run_case("async_failure");
}

#[test]
fn commands_keep_released_buffers_queues_and_contexts_alive() {
    run_case("async_release");
}

#[test]
fn sub_devices_partition_count_references_and_run_kernels_on_their_share() {
    let out = run_case("sub_devices");
    print!("{out}");
}

#[test]
fn clcreatecommandqueuewithpropertieskhr_is_clcreatecommandqueuewithproperties() {
    run_case("create_command_queue_khr");
}

/// `tests/spirv/NAME.spvasm` assembled (spirv-as) into `dir/NAME.spv`.
fn assemble(name: &str, dir: &std::path::Path) {
    common::require("spirv-as", &["--version"], "the spirv-tools package");
    let src = common::test_dir().join(format!("../../../tests/spirv/{name}.spvasm"));
    let out = std::process::Command::new("spirv-as")
        .args(["--target-env", "spv1.2", "-o"])
        .arg(dir.join(format!("{name}.spv")))
        .arg(&src)
        .output()
        .expect("running spirv-as");
    assert!(
        out.status.success(),
        "spirv-as failed on {}: {}",
        src.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn spirv_programs_build_run_specialize_and_reject_malformed_modules() {
    let dir = tempfile::tempdir().unwrap();
    assemble("kernels", dir.path());
    assemble("specialized", dir.path());
    std::fs::copy(
        common::test_dir().join("../../../tests/spirv/kernels.cl"),
        dir.path().join("kernels.cl"),
    )
    .unwrap();
    run_case_with(
        "il_programs",
        &[("LOCKSTEP_TEST_SPIRV_DIR", dir.path().as_os_str())],
    );
}

#[test]
fn svm_allocations_commands_and_pointers_kernels_follow() {
    run_case("svm");
}

#[test]
fn svm_pointer_arguments_run_on_every_engine_and_in_checked_mode() {
    run_case_checked_too("svm_args");
}

#[test]
fn device_queues_their_limits_default_and_errors_and_queue_arguments() {
    run_case("device_queues");
}

#[test]
fn kernels_enqueue_blocks_ordered_by_device_events_and_complete_with_them() {
    run_case_checked_too("device_enqueue");
}
