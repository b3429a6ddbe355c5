# The Khronos OpenCL conformance tests on Lockstep: make cts (not part of
# make test: it needs checkouts that CI, without network, does not have).
#
#   make cts CTS_SRC=/path/to/OpenCL-CTS
#
# CTS_SRC is a checkout of KhronosGroup/OpenCL-CTS; CTS_HEADERS one of
# KhronosGroup/OpenCL-Headers and CTS_SPIRV_HEADERS one of
# KhronosGroup/SPIRV-Headers (both default to siblings of CTS_SRC). Installs
# cmake, ninja and spirv-tools (spirv-as) when missing, builds the release
# ICD and the CTS binaries CTS_TESTS (test_basic ... in CTS_BUILD, with the
# system's ICD loader), then
# cts/run.py runs each of their subtests as its own process on the Lockstep
# platform alone (OCL_ICD_VENDORS names only liblockstep_icd.so), killed after
# CTS_TIMEOUT seconds, and writes CTS_OUT: a pass/fail/crash/timeout/skip
# table per binary and every subtest that did not pass with the end of its
# output (a .tsv of all subtests beside it; full logs in CTS_BUILD/logs).
#
# A binary's own arguments follow a colon, comma-separated:
# CTS_TESTS="bruteforce:-w conversions:-w". CTS_ONLY picks subtests by
# pattern: CTS_ONLY='basic/astype,api/*timer*'.

CTS_SRC ?=
CTS_HEADERS ?= $(CTS_SRC)/../OpenCL-Headers
CTS_SPIRV_HEADERS ?= $(CTS_SRC)/../SPIRV-Headers
CTS_BUILD ?= $(or $(CARGO_TARGET_DIR),target)/cts-build
CTS_TESTS ?= basic api compiler atomics subgroups
CTS_TIMEOUT ?= 120
CTS_ONLY ?=
CTS_OUT ?= cts/results/latest.md
CTS_DEB_PACKAGES := cmake ninja-build spirv-tools
CTS_ICD := $(or $(CARGO_TARGET_DIR),target)/release/liblockstep_icd.so
CTS_VENDORS := $(CTS_BUILD)/vendors

.PHONY: cts cts-build

cts-build: deps
	@[ -n "$(CTS_SRC)" ] && [ -f "$(CTS_SRC)/test_conformance/CMakeLists.txt" ] || \
	  { echo "make: CTS_SRC must name a checkout of KhronosGroup/OpenCL-CTS (got '$(CTS_SRC)')"; exit 1; }
	@[ -f "$(CTS_HEADERS)/CL/cl.h" ] || \
	  { echo "make: CTS_HEADERS must name a checkout of KhronosGroup/OpenCL-Headers (no CL/cl.h in '$(CTS_HEADERS)')"; exit 1; }
	@[ -d "$(CTS_SPIRV_HEADERS)/include/spirv" ] || \
	  { echo "make: CTS_SPIRV_HEADERS must name a checkout of KhronosGroup/SPIRV-Headers (no include/spirv in '$(CTS_SPIRV_HEADERS)')"; exit 1; }
	$(call install-debs,$(CTS_DEB_PACKAGES))
	@[ -f "$(CTS_BUILD)/build.ninja" ] || \
	  cmake -S "$(CTS_SRC)" -B "$(CTS_BUILD)" -G Ninja --compile-no-warning-as-error \
	    -DCMAKE_BUILD_TYPE=Release \
	    -DCL_INCLUDE_DIR="$(abspath $(CTS_HEADERS))" \
	    -DCL_LIB_DIR="$$(dirname "$$(ldconfig -p | awk '/libOpenCL\.so / {print $$NF; exit}')")" \
	    -DOPENCL_LIBRARIES=OpenCL \
	    -DSPIRV_INCLUDE_DIR="$(abspath $(CTS_SPIRV_HEADERS))"
	ninja -C "$(CTS_BUILD)" $(foreach t,$(CTS_TESTS),test_$(firstword $(subst :, ,$(t))))

cts: cts-build icd
	mkdir -p "$(CTS_VENDORS)"
	echo "$(abspath $(CTS_ICD))" > "$(CTS_VENDORS)/lockstep.icd"
	OCL_ICD_VENDORS="$(abspath $(CTS_VENDORS))" OPENCL_VENDOR_PATH= \
	  python3 cts/run.py --build "$(CTS_BUILD)" --out "$(CTS_OUT)" \
	    --timeout $(CTS_TIMEOUT) --only "$(CTS_ONLY)" $(CTS_TESTS)
