#!/bin/sh
# check_bench.sh TENGEN — the search bench must reproduce the `Bench: <nodes>` line of the last
# commit that has one (commits that change the search end with it; refactors reproduce it).
# While the search sources differ from HEAD the mismatch is only a reminder to commit with
# the new count; on a clean tree (CI) it fails.
bin=${1:-build/tengen}
actual=$("$bin" bench | sed -n 's/^Bench: \([0-9][0-9]*\) nodes.*/\1/p')
if [ -z "$actual" ]; then
    echo "bench: no 'Bench:' line from $bin bench" >&2
    exit 1
fi
if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "bench: $actual nodes (not a git checkout: nothing to compare)"
    exit 0
fi
expected=$(git log -1 --format=%B --grep='^Bench: [0-9]' | sed -n 's/^Bench: \([0-9][0-9]*\).*/\1/p' | tail -n 1)
if [ -z "$expected" ] || [ "$actual" = "$expected" ]; then
    echo "bench: $actual nodes${expected:+, as committed}"
    exit 0
fi
if git diff --quiet HEAD -- src; then
    echo "bench: $actual nodes, but the last commit says Bench: $expected" >&2
    exit 1
fi
echo "bench: $actual nodes (last commit: $expected); src/ has changes: commit with 'Bench: $actual'"
