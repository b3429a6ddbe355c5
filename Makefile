# Lockstep: the two commands are `make demo` and `make test`. Both install
# what is missing (LLVM 19, clang 19 and the SPIR-V translator from the
# distribution's packages, only when absent), then build with cargo.

SHELL := /bin/bash
CARGO ?= cargo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# What LLVM-linked crates need to build and link, clang for the front end,
# and the Khronos SPIR-V translator for programs given as SPIR-V
# (clCreateProgramWithIL, `lockstep compile FILE.spv`): llvm-spirv-15 writes
# LLVM 15 bitcode, which LLVM 19 reads.
DEB_PACKAGES := llvm-19-dev clang-19 libclang-common-19-dev libpolly-19-dev \
                libzstd-dev zlib1g-dev libxml2-dev libffi-dev libsleef-dev \
                ocl-icd-opencl-dev opencl-c-headers clinfo llvm-spirv-15
# What only the tests use: spirv-tools (spirv-as assembles the SPIR-V test
# modules, tests/spirv/*.spvasm).
TEST_DEB_PACKAGES := spirv-tools
# Python packages the tests use (the OpenCL platform's PyOpenCL test).
PY_PACKAGES := pyopencl numpy mako

.PHONY: all deps testdeps pydeps build release demo test fuzz fuzz-targets fmt clean

all: build

# $(call install-debs,PACKAGES): apt-get installs those PACKAGES that are
# missing, and nothing else.
define install-debs
	@missing=""; \
	for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing$$missing"; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi
endef

# $(call install-pips,PACKAGES): pip installs those Python PACKAGES (import
# names) that are missing; on a distribution whose Python is externally
# managed, into the user's site.
define install-pips
	@missing=""; \
	for p in $(1); do \
	  python3 -c "import $$p" 2>/dev/null || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: pip installing$$missing"; \
	  python3 -m pip install --quiet $$missing || \
	  python3 -m pip install --quiet --user --break-system-packages $$missing; \
	fi
endef

deps:
	$(call install-debs,$(DEB_PACKAGES))
	@command -v $(CARGO) >/dev/null || { echo "make: cargo is missing; install Rust from https://rustup.rs"; exit 1; }

testdeps:
	$(call install-debs,$(TEST_DEB_PACKAGES))

pydeps:
	$(call install-pips,$(PY_PACKAGES))

build: deps
	$(CARGO) build

release: deps
	$(CARGO) build --release

demo: release
	./target/release/lockstep demo

test: deps testdeps pydeps
	$(CARGO) test --workspace

# A long run of the random-kernel fuzzer (make test runs 300 kernels):
# FUZZ_COUNT kernels from FUZZ_SEED, each on the interpreter and on the SIMD
# engine at widths 4, 8 and 16; mismatches are saved in tests/kernels/fuzz/.
FUZZ_COUNT ?= 3000
FUZZ_SEED ?= 1000
fuzz: deps fuzz-targets
	LOCKSTEP_FUZZ_COUNT=$(FUZZ_COUNT) LOCKSTEP_FUZZ_SEED=$(FUZZ_SEED) $(CARGO) test --release -p lockstep-llvm --test fuzz -- --nocapture

# libFuzzer (cargo fuzz) runs of the parsers of untrusted input: .sim files,
# Lockstep IR text, OpenCL program binaries, SPIR-V modules; FUZZ_SECONDS per
# target, seeded from tests/. Needs the nightly toolchain and cargo-fuzz
# (installed when missing). The fuzz/ crate is its own workspace: cargo test
# does not build it.
FUZZ_SECONDS ?= 60
fuzz-targets: deps
	@rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
	@command -v cargo-fuzz >/dev/null || $(CARGO) install cargo-fuzz
	./fuzz/run.sh $(FUZZ_SECONDS)

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean

# Fragments: the OpenCL platform (install-icd), the benchmarks (bench) and
# the Khronos conformance tests (cts).
include mk/icd.mk mk/bench.mk mk/cts.mk
