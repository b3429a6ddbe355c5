#!/usr/bin/env bash
# Makes Intel's oneAPI OpenCL CPU runtime available to lockstep-bench next
# to pocl, without touching /etc: usage  bench/intel-ocl.sh VENV ENVFILE
#
# * Installs the runtime from PyPI (intel-opencl-rt, intel-cmplr-lib-rt)
#   into the Python venv VENV when it is not there yet.
# * Finds libintelocl.so among the wheel's files (pip show -f).
# * VENV/lockstep-icd/: the system's ICD files (/etc/OpenCL/vendors/*.icd,
#   pocl's among them) plus one for libintelocl.so. The ICD loader (ocl-icd)
#   reads this directory instead of /etc/OpenCL/vendors when OCL_ICD_VENDORS
#   names it. Only libintelocl.so is registered: the wheel also ships a
#   libOpenCL.so.1 (an ICD loader of its own), which must not replace the
#   system's.
# * VENV/lockstep-lib/: links to the libraries of the wheel that
#   libintelocl.so needs (what ldd resolves inside the wheel), for
#   LD_LIBRARY_PATH. Not the wheel's library directory itself: it holds that
#   libOpenCL.so.1, which dlopen("libOpenCL.so.1") would then find before the
#   system's, and a libhwloc.so.15 that would replace pocl's.
# * Writes ENVFILE: OCL_ICD_VENDORS and LD_LIBRARY_PATH assignments, one a
#   line, for `make bench` to export for the runs only.
#
# When the runtime cannot be installed, ENVFILE is removed, a message says
# why, and the exit status is still 0: the bench then runs without the Intel
# column and says so.
set -u
venv=$1
envfile=$2
rm -f "$envfile"

fail() {
    echo "bench: Intel's OpenCL CPU runtime is not available ($*); the bench runs without it" >&2
    exit 0
}

pip=$venv/bin/pip
if ! "$pip" show intel-opencl-rt >/dev/null 2>&1; then
    echo "bench: installing Intel's OpenCL CPU runtime (pip intel-opencl-rt intel-cmplr-lib-rt) into $venv"
    python3 -m venv "$venv" || fail "python3 -m venv $venv failed"
    "$pip" install --quiet intel-opencl-rt intel-cmplr-lib-rt || fail "pip install failed"
fi

# The wheel's files are listed relative to its Location.
info=$("$pip" show -f intel-opencl-rt) || fail "pip show failed"
location=$(sed -n 's/^Location: //p' <<<"$info")
relative=$(grep -E '/libintelocl\.so$' <<<"$info" | head -1 | tr -d '[:space:]')
[ -n "$location" ] && [ -n "$relative" ] || fail "no libintelocl.so among the files of intel-opencl-rt"
lib=$(realpath "$location/$relative") || fail "$location/$relative does not exist"
libdir=$(dirname "$lib")

icd=$venv/lockstep-icd
rm -rf "$icd"
mkdir -p "$icd"
for f in /etc/OpenCL/vendors/*.icd; do
    [ -e "$f" ] && ln -s "$f" "$icd/"
done
echo "$lib" >"$icd/intel-cpu.icd"

deps=$venv/lockstep-lib
rm -rf "$deps"
mkdir -p "$deps"
missing=$(ldd "$lib" | grep 'not found')
[ -z "$missing" ] || fail "libintelocl.so's dependencies are missing: $missing"
ldd "$lib" | awk '$2 == "=>" { print $3 }' | while read -r dep; do
    case $(realpath "$dep") in
    "$libdir"/*) ln -sf "$dep" "$deps/$(basename "$dep")" ;;
    esac
done

{
    echo "OCL_ICD_VENDORS=$icd"
    echo "LD_LIBRARY_PATH=$deps${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
} >"$envfile"

# Both platforms must show through the system's loader.
if command -v clinfo >/dev/null; then
    platforms=$(env OCL_ICD_VENDORS="$icd" LD_LIBRARY_PATH="$deps" clinfo -l 2>&1)
    echo "bench: OpenCL platforms with OCL_ICD_VENDORS=$icd:"
    sed 's/^/  /' <<<"$platforms"
    grep -q 'Intel(R) OpenCL' <<<"$platforms" || fail "clinfo does not list it"
fi
