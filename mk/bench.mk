# The benchmark suite: make bench (not part of make test). Installs pocl
# (Debian's pocl-opencl-icd), PyOpenCL and matplotlib when missing, builds
# lockstep-bench in release, runs every kernel on Lockstep, pocl and native
# C in one process, and writes bench/results/latest.{json,png}.
# BENCH_ARGS passes options, e.g. BENCH_ARGS="--repeat 20 --only saxpy,mandelbrot".

BENCH_DEB_PACKAGES := pocl-opencl-icd ocl-icd-libopencl1
BENCH_ARGS ?=
BENCH_JSON := bench/results/latest.json
BENCH_PNG := bench/results/latest.png

.PHONY: bench bench-deps

bench-deps: deps pydeps
	$(call install-debs,$(BENCH_DEB_PACKAGES))
	$(call install-pips,matplotlib)

bench: bench-deps
	$(CARGO) build --release -p lockstep-bench
	@status=0; ./target/release/lockstep-bench --json $(BENCH_JSON) $(BENCH_ARGS) || status=$$?; \
	if [ -f $(BENCH_JSON) ]; then python3 bench/plot.py $(BENCH_JSON) $(BENCH_PNG) || status=1; fi; \
	exit $$status
