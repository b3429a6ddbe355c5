#!/bin/sh
# Regenerates NAME.spvasm from each NAME.cl here: clang 15 (LLVM 15 bitcode,
# which the translator reads), llvm-spirv-15 (the argument type names kept as
# OpStrings), spirv-dis. The OpenCL C version is the -cl-std= on the file's
# first line (`// build: -cl-std=CL1.2`); the translator's options are on the
# second line when it starts `// spirv: ` (SPIR-V 1.2 at most otherwise). crates/llvm/tests/spirv.rs
# assembles the .spvasm files (spirv-as) and, where clang 15 is installed,
# also translates the sources afresh the same way.
set -eu
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cl in kernels.cl kernels20.cl kernels13.cl images.cl; do
  name=${cl%.cl}
  std=$(sed -n '1s/^\/\/ build: //p' "$cl")
  spirv=$(sed -n '2s/^\/\/ spirv: //p' "$cl")
  clang-15 -x cl -target spir64 -emit-llvm -c -O0 $std -Xclang -finclude-default-header \
    -o "$tmp/$name.bc" "$cl"
  llvm-spirv-15 ${spirv:---spirv-max-version=1.2} --preserve-ocl-kernel-arg-type-metadata-through-string \
    -o "$tmp/$name.spv" "$tmp/$name.bc"
  spirv-val "$tmp/$name.spv"
  spirv-dis --raw-id -o "$name.spvasm" "$tmp/$name.spv"
done
