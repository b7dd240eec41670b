#!/bin/sh
# test_judgment.sh — scripts/judgment.py on a small made-up match: the calibration rows of both
# engines, timed numeric reports only (forced moves and mates left out), the disagreements and
# the position file's line; a missing folder and a match without the tested engine refused.
# usage: sh tests/cli/test_judgment.sh
here=$(dirname "$0")
. "$here/checks.sh"
judgment="$here/../../scripts/judgment.py"

# Game 1: tengen-x Black loses. Its timed +120 is answered by rapfi's +80 (a disagreement at
# +50 and at +100); its forced +300 (0 ms) and rapfi's mate score do not count.
# Game 2: rapfi Black, tengen-x White wins; tengen-x reports -30, rapfi -60.
mkdir -p "$tmp/m"
cat >"$tmp/m/games.sgf" <<'SGF'
(;FF[4]GM[4]GN[1]SZ[15]PB[tengen-x]PW[rapfi]RE[W+1]
;B[hh];W[ii];B[hi];W[ij])

(;FF[4]GM[4]GN[2]SZ[15]PB[rapfi]PW[tengen-x]RE[W+1]
;B[hh];W[ii];B[hi])
SGF
cat >"$tmp/m/messages.txt" <<'MSG'
------------------------------
Game ID: 1
Engines: tengen-x x rapfi
3) tengen-x: depth 10-20 | eval +120 | speed 500 kN/s | nodes 200000 | time 450 ms | best 7,8
4) rapfi: Speed 500K | Depth 15-30 | Eval 80 | Node 200K | Time 460ms
5) tengen-x: depth 1-1 | eval +300 | speed 0 kN/s | nodes 3 | time 0 ms | best 1,1
6) rapfi: Speed 500K | Depth 15-30 | Eval M5 | Node 200K | Time 460ms
------------------------------
Game ID: 2
Engines: rapfi x tengen-x
2) tengen-x: depth 9-12 | eval -30 | speed 500 kN/s | nodes 200000 | time 400 ms | best 8,8
3) rapfi: Speed 500K | Depth 15-30 | Eval -60 | Node 200K | Time 450ms
MSG
python3 "$judgment" --positions "$tmp/pos" "$tmp/m" >"$tmp/out" 2>&1
check "judgment.py exits 0" test $? = 0
check "the tested engine's +120, a lost game" grep -Eq '^ +100 \.\. 199 \| +1 +0\.0% \| +0 +-$' "$tmp/out"
check "the tested engine's -30, a won game" grep -Eq '^ +-50 \.\. -1 \| +1 +100\.0% \| +0 +-$' "$tmp/out"
check "the opponent's 80 and -60" sh -c "grep -Eq '^ +50 \.\. 99 \| +0 +- \| +1 +100\.0%$' '$tmp/out' && grep -Eq '^ +-100 \.\. -51 \| +0 +- \| +1 +0\.0%$' '$tmp/out'"
check "forced moves and mates left out" grep -Eq '^ +200 \.\. 399 \| +0 +- \| +0 +-$' "$tmp/out"
check "a disagreement at +50" grep -q '^  tested >= +50, then opponent >= +25: 1 games, the tested engine scored 0 (0.0%)$' "$tmp/out"
check "none at +200" grep -q '^  tested >= +200, then opponent >= +100: 0 games, the tested engine scored 0 (-)$' "$tmp/out"
check "the position before the move, h8 style" grep -q "^$tmp/m 1 0 3 +120 +80 black h8 i7$" "$tmp/pos"

python3 "$judgment" "$tmp/missing" >"$tmp/out" 2>&1
check "a missing folder is refused" sh -c "test $? != 0 && grep -q 'cannot read .*/missing/games.sgf: No such file' '$tmp/out'"
python3 "$judgment" --name pela "$tmp/m" >"$tmp/out" 2>&1
check "a match without the tested engine is refused" grep -q "game 1: 'pela' names neither player" "$tmp/out"

echo "judgment.py: $pass passed, $fail failed"
[ "$fail" = 0 ]
