# Lockstep: the two commands are `make demo` and `make test`. Both install
# what is missing (LLVM 19 and clang 19 from the distribution's packages,
# only when absent), then build with cargo.

SHELL := /bin/bash
CARGO ?= cargo
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# What LLVM-linked crates need to build and link, and clang for the front end.
DEB_PACKAGES := llvm-19-dev clang-19 libclang-common-19-dev libpolly-19-dev \
                libzstd-dev zlib1g-dev libxml2-dev libffi-dev libsleef-dev

.PHONY: all deps build release demo test fmt clean

all: build

# Installs the Debian packages that are missing, and nothing else.
deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "make: installing$$missing"; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi
	@command -v $(CARGO) >/dev/null || { echo "make: cargo is missing; install Rust from https://rustup.rs"; exit 1; }

build: deps
	$(CARGO) build

release: deps
	$(CARGO) build --release

demo: release
	./target/release/lockstep demo

test: deps
	$(CARGO) test --workspace

fmt:
	$(CARGO) fmt --all

clean:
	$(CARGO) clean
