#!/bin/sh
# Compile every .cl under the given directories with clang 19 (SPIR target)
# using each kernel's NAME.options if present.
CLANG=${CLANG:-clang-19}
status=0
for d in "$@"; do
  for f in $(find "$d" -name '*.cl' | sort); do
    opts="-cl-std=CL3.0"
    o="${f%.cl}.options"
    [ -f "$o" ] && opts="$(cat "$o")" && case "$opts" in *-cl-std=*) ;; *) opts="-cl-std=CL3.0 $opts";; esac
    if ! $CLANG -x cl $opts -Xclang -finclude-default-header -target spir64 \
         -emit-llvm -c -o /dev/null "$f" 2>/tmp/check_clang.err; then
      echo "FAIL $f"; cat /tmp/check_clang.err; status=1
    fi
  done
done
[ $status = 0 ] && echo "all compiled"
exit $status
