# checks.sh — the helpers of the command-line tests, sourced by each: a temporary folder
# ($tmp, removed at exit), the pass/fail counts and `check NAME COMMAND...`.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1" >&2; [ -f "$tmp/out" ] && sed 's/^/    /' "$tmp/out" >&2; }
# check NAME COMMAND...: passes when the command succeeds.
check() { name=$1; shift; if "$@"; then ok; else bad "$name"; fi; }
