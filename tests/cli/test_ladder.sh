#!/bin/sh
# test_ladder.sh — end-to-end checks of `tengen ladder`: a short ladder of the one-ply and
# shallow levels with its three files, the fit against known answers, and bad input.
# usage: sh tests/cli/test_ladder.sh path/to/tengen
bin=${1:?usage: $0 path/to/tengen}
here=$(dirname "$0")
. "$here/checks.sh"
openings="$here/../../data/openings/freestyle-15.txt"

"$bin" ladder --levels beginner,easy,medium --games 4 --openings "$openings" --out "$tmp/l" \
    --jobs 2 >"$tmp/out" 2>&1
check "ladder exits 0" test $? = 0
check "ladder prints a line per game" test "$(grep -c '^game [1-8]/8 ' "$tmp/out")" = 8
check "ladder writes the games" test "$(grep -vc '^#' "$tmp/l.games")" = 8
check "games are colour-swapped pairs" test "$(grep -c '^easy beginner ' "$tmp/l.games")" = 2
check "the table anchors beginner at 0" grep -Eq '^beginner +0 +- +4$' "$tmp/l.txt"
check "the table rates every level" test "$(grep -Ec '^(easy|medium) +[-0-9]+ +\+/-[0-9]+ +[0-9]+$' "$tmp/l.txt")" = 2
check "the table scores each pair" test "$(grep -Ec '^(easy - beginner|medium - easy|easy - medium|beginner - easy) ' "$tmp/l.txt")" = 2
check "stdout holds the table" grep -q '^pair (stronger first)' "$tmp/out"
check "the picture is SVG with a row per level" python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag.endswith("svg"), root.tag
texts = [t.text or "" for t in root.iter() if t.tag.endswith("text")]
for level in ("beginner", "easy", "medium"):
    assert level in texts, (level, texts)
assert len([e for e in root.iter() if e.tag.endswith("circle")]) == 3
' "$tmp/l.svg"

"$bin" ladder --fit "$tmp/l.games" --out "$tmp/again" >"$tmp/out" 2>&1
check "--fit exits 0" test $? = 0
check "--fit reproduces the table" cmp -s "$tmp/l.txt" "$tmp/again.txt"

# Known answers. Two players, 15 wins and 5 losses: with the one virtual draw the score is
# 15.5 of 21, so the rating is 400 log10(15.5 / 5.5) = 180, and 1.96 standard errors of
# 1 / sqrt(k^2 * 21 * p (1 - p)) with k = ln 10 / 400 are 169.
{
    echo "# settings: a known answer"
    i=0
    while [ $i -lt 15 ]; do echo "easy beginner 1-0 9 -"; i=$((i + 1)); done
    i=0
    while [ $i -lt 5 ]; do echo "beginner easy 1-0 9 -"; i=$((i + 1)); done
} >"$tmp/known.games"
"$bin" ladder --fit "$tmp/known.games" >"$tmp/out" 2>&1
check "known answer: 180 +/- 169" grep -Eq '^easy +180 +\+/-169 +20$' "$tmp/out"
check "known answer: the settings line is kept" grep -q '^tengen rating ladder: a known answer' "$tmp/out"
# Three players in a chain with equal results each way: the middle one sits halfway, and the
# ends' difference is twice one step although they never met.
{
    for g in 1 2 3 4 5 6 7 8; do echo "medium easy 1-0 9 -"; echo "easy beginner 1-0 9 -"; done
    for g in 1 2; do echo "easy medium 1-0 9 -"; echo "beginner easy 1-0 9 -"; done
} >"$tmp/chain.games"
"$bin" ladder --fit "$tmp/chain.games" >"$tmp/out" 2>&1
check "chain: an even step" python3 -c '
import re, sys
r = {m[0]: int(m[1]) for m in re.findall(r"^(\w+) +(-?\d+) ", open(sys.argv[1]).read(), re.M)}
assert r["beginner"] == 0 and abs(r["medium"] - 2 * r["easy"]) <= 1 and r["easy"] > 150, r
' "$tmp/out"

printf 'easy beginner 1-0 9 -\neasy beginner 2-0 9 -\n' >"$tmp/bad.games"
"$bin" ladder --fit "$tmp/bad.games" >"$tmp/out" 2>&1
st=$?
check "--fit refuses a bad result" test $st != 0
check "--fit names the bad line" grep -q 'line 2' "$tmp/out"
printf 'easy beginner 1-0 9 -\nmedium hard 1-0 9 -\n' >"$tmp/apart.games"
"$bin" ladder --fit "$tmp/apart.games" >"$tmp/out" 2>&1
check "--fit refuses levels not connected by games" test $? != 0
"$bin" ladder --levels beginner,grandmaster --games 2 >"$tmp/out" 2>&1
check "ladder refuses an unknown level" test $? != 0
"$bin" ladder --levels beginner,zero --size 7x9 --games 2 >"$tmp/out" 2>&1
check "ladder refuses a level that cannot play the board" test $? != 0
check "... and says why" grep -q 'level zero cannot play freestyle 7x9' "$tmp/out"
"$bin" ladder --levels beginner,easy --games 3 >"$tmp/out" 2>&1
check "ladder refuses an odd game count" test $? != 0

echo "ladder: $pass passed, $fail failed"
[ $fail = 0 ]
