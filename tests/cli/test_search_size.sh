#!/bin/sh
# test_search_size.sh — scripts/search_size.sh on made-up protocol messages: tengen's and Rapfi's
# report lines read, Rapfi's K and M suffixes, lines of other engines and reports without a
# node count left out, the median (the lower middle value) over the moves of MIN_MS or more,
# and bad arguments refused with a clear message.
# usage: sh tests/cli/test_search_size.sh
here=$(dirname "$0")
. "$here/checks.sh"
size="$here/../../scripts/search_size.sh"

cat >"$tmp/messages.txt" <<'MSG'
------------------------------
Game ID: 1
Engines: rapfi x tengen-x
6) tengen-x: depth 14-30 | eval +226 | speed 222 kN/s | nodes 105472 | time 473 ms | best 9,2 11,7
7) rapfi: Speed 482K | Depth 17-19 | Eval 127 | Node 209K | Time 435ms
7) rapfi: Bestline M11 M8 M13
8) tengen-x: depth 16-41 | eval +94 | speed 417 kN/s | nodes 195584 | time 469 ms | best 12,7
9) rapfi: Depth 2-3 | Eval 211 | Time 1ms | L8 L5
9) rapfi: Speed 535K | Depth 14-36 | Eval 32 | Node 1.2M | Time 470ms
10) tengen-x: depth 19-24 | eval win in 9 | speed 432 kN/s | nodes 83043 | time 192 ms | best 10,2
11) tengen-xy: depth 30-30 | eval +0 | speed 1 kN/s | nodes 999999 | time 999 ms | best 1,1
MSG
sh "$size" "$tmp/messages.txt" tengen-x 250 >"$tmp/out" 2>&1
check "tengen's lines: median of the two long moves, longest of all" grep -qx \
    'tengen-x: 2 of 3 moves took 250 ms or more: median 105472 nodes at depth 14; longest move 473 ms' "$tmp/out"
sh "$size" "$tmp/messages.txt" tengen-x >"$tmp/out" 2>&1
check "every move without MIN_MS" grep -qx \
    'tengen-x: 3 of 3 moves took 0 ms or more: median 105472 nodes at depth 16; longest move 473 ms' "$tmp/out"
sh "$size" "$tmp/messages.txt" rapfi 250 >"$tmp/out" 2>&1
check "Rapfi's lines, K and M read, depth-only lines left out" grep -qx \
    'rapfi: 2 of 2 moves took 250 ms or more: median 209000 nodes at depth 14; longest move 470 ms' "$tmp/out"
sh "$size" "$tmp/messages.txt" nobody >"$tmp/out" 2>&1
check "an engine without reports is said so" grep -q '^nobody: no search reports in ' "$tmp/out"
sh "$size" "$tmp/missing.txt" tengen-x >"$tmp/out" 2>&1
check "a missing file is refused" test $? = 2
check "... saying which" grep -q 'cannot read .*/missing.txt' "$tmp/out"
sh "$size" "$tmp/messages.txt" >"$tmp/out" 2>&1
check "a missing name is refused with the usage" grep -q '^usage: scripts/search_size.sh' "$tmp/out"

echo "search_size.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
