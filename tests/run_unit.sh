#!/bin/sh
# run_unit.sh BUILD BIN... — runs each cmocka test binary from the repository root and prints
# one closing line "unit: N passed, N failed" counting the binaries.
build=$1; shift
: "${TG_DATA:=data}"
export TG_DATA TG_BUILD="$build"
passed=0; failed=0; failures=""
for bin in "$@"; do
    if "$bin"; then passed=$((passed + 1)); else failed=$((failed + 1)); failures="$failures $bin"; fi
done
echo "unit: $passed passed, $failed failed"
[ "$failed" = 0 ] || { echo "failed:$failures" >&2; exit 1; }
