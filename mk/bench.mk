# The benchmark suite: make bench (not part of make test). Installs what is
# missing: pocl (Debian's pocl-opencl-icd), clinfo, PyOpenCL and matplotlib,
# and Intel's oneAPI OpenCL CPU runtime (pip intel-opencl-rt
# intel-cmplr-lib-rt, into the venv INTEL_OCL_VENV, outside the repository).
# Builds lockstep-bench in release and runs every kernel on Lockstep, pocl,
# Intel's runtime and native C in one process, and writes
# bench/results/latest.{json,png}.
#
# Intel's runtime is registered for the runs only, not in /etc: the ICD
# loader reads INTEL_OCL_VENV/lockstep-icd (the system's .icd files plus one
# for libintelocl.so) through OCL_ICD_VENDORS, and LD_LIBRARY_PATH holds links
# to libintelocl.so's libraries, not the wheel's own libOpenCL.so.1, so the
# system loader stays the one used (bench/intel-ocl.sh; the bench prints the
# loader's path). When the runtime cannot be installed the Intel column stays
# empty and the output says why.
#
# On a host with AVX-512, a second pass compiles Lockstep's kernels for
# BENCH_AVX2_CPU (LOCKSTEP_CPU=znver3 on AMD hosts, skylake on Intel ones,
# whose CPUs lack Zen's sse4a: AVX2, width 8) and Intel's for
# BENCH_AVX2_INTEL_ARCH (CL_CONFIG_CPU_TARGET_ARCH=core-avx2), and writes
# bench/results/latest-$(BENCH_AVX2_CPU).{json,png}; pocl (which offers no
# such switch) and the native C keep the host's code. BENCH_AVX2_CPU= skips
# the pass; BENCH_AVX2_ARGS adds options to it only (default: no build-time
# probes, the first pass has them).
#
# BENCH_ARGS passes options to both passes, e.g.
# BENCH_ARGS="--repeat 20 --only saxpy,mandelbrot".

BENCH_DEB_PACKAGES := pocl-opencl-icd ocl-icd-libopencl1 clinfo
BENCH_ARGS ?=
BENCH_JSON := bench/results/latest.json
BENCH_PNG := bench/results/latest.png
BENCH_BIN = $(or $(CARGO_TARGET_DIR),target)/release/lockstep-bench
INTEL_OCL_VENV ?= $(HOME)/.cache/lockstep/intel-ocl-venv
BENCH_ENV := $(INTEL_OCL_VENV)/lockstep-bench.env
BENCH_AVX2_CPU ?= $(if $(shell grep -qm1 GenuineIntel /proc/cpuinfo && echo intel),skylake,znver3)
BENCH_AVX2_INTEL_ARCH ?= core-avx2
BENCH_AVX2_ARGS ?= --no-build-times --no-cold-start
BENCH_AVX2_JSON := bench/results/latest-$(BENCH_AVX2_CPU).json
BENCH_AVX2_PNG := bench/results/latest-$(BENCH_AVX2_CPU).png

.PHONY: bench bench-deps bench-intel

bench-deps: deps pydeps
	$(call install-debs,$(BENCH_DEB_PACKAGES))
	$(call install-pips,matplotlib)

# Installs Intel's runtime when missing and writes BENCH_ENV (OCL_ICD_VENDORS,
# LD_LIBRARY_PATH); without it, no BENCH_ENV.
bench-intel:
	@bench/intel-ocl.sh $(INTEL_OCL_VENV) $(BENCH_ENV)

bench: bench-deps bench-intel
	$(CARGO) build --release -p lockstep-bench -p lockstep-icd
	@status=0; \
	if [ -f $(BENCH_ENV) ]; then set -a; . $(BENCH_ENV); set +a; fi; \
	$(BENCH_BIN) --json $(BENCH_JSON) $(BENCH_ARGS) || status=$$?; \
	if [ -f $(BENCH_JSON) ]; then python3 bench/plot.py $(BENCH_JSON) $(BENCH_PNG) || status=1; fi; \
	if [ -n "$(BENCH_AVX2_CPU)" ] && grep -qw avx512f /proc/cpuinfo; then \
	  echo; echo "== second pass: Lockstep for LOCKSTEP_CPU=$(BENCH_AVX2_CPU)$(if $(BENCH_AVX2_INTEL_ARCH),$(comma) Intel for CL_CONFIG_CPU_TARGET_ARCH=$(BENCH_AVX2_INTEL_ARCH))"; \
	  env LOCKSTEP_CPU=$(BENCH_AVX2_CPU) $(if $(BENCH_AVX2_INTEL_ARCH),CL_CONFIG_CPU_TARGET_ARCH=$(BENCH_AVX2_INTEL_ARCH)) \
	    $(BENCH_BIN) --json $(BENCH_AVX2_JSON) $(BENCH_ARGS) $(BENCH_AVX2_ARGS) || status=$$?; \
	  if [ -f $(BENCH_AVX2_JSON) ]; then python3 bench/plot.py $(BENCH_AVX2_JSON) $(BENCH_AVX2_PNG) || status=1; fi; \
	fi; \
	exit $$status

comma := ,
