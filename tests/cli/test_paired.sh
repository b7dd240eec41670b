#!/bin/sh
# test_paired.sh — scripts/paired.py on small made-up matches: the scores, the paired
# difference and the kept results; parts joined by commas numbered after each other (two games
# an opening of a folder); mismatched openings, colours or names refused with a clear message.
# usage: sh tests/cli/test_paired.sh
here=$(dirname "$0")
. "$here/checks.sh"
paired="$here/../../scripts/paired.py"

# game NUMBER BLACK WHITE RESULT: one game as c-gomoku-cli writes it.
game() { printf '(;FF[4]GM[4]GN[%s]PB[%s]PW[%s]RE[%s]\n;B[hh];W[ii])\n\n' "$1" "$2" "$3" "$4"; }
# match FOLDER OPENINGS RESULTS...: a match.sh folder; the results of games 1, 2, ... (the
# tested engine is Black in the odd games), each B+1, W+1 or 0 (a draw).
match() {
    dir=$1 openings=$2; shift 2
    mkdir -p "$dir"; printf '%s\n' $openings >"$dir/openings.txt"; : >"$dir/games.sgf"
    n=1
    for r in "$@"; do
        if [ $((n % 2)) = 1 ]; then game $n tengen-x rapfi "$r"; else game $n rapfi tengen-x "$r"; fi >>"$dir/games.sgf"
        n=$((n + 1))
    done
}

# Base: wins game 1 (Black), loses 2, 3, draws 4. New: wins 1, wins 2 (White), loses 3, 4.
match "$tmp/base" "h8i9 h8h9" B+1 B+1 W+1 0
match "$tmp/new" "h8i9 h8h9" B+1 W+1 W+1 B+1
python3 "$paired" "$tmp/base" "$tmp/new" >"$tmp/out" 2>&1
check "paired.py exits 0" test $? = 0
check "the base score, by colour" grep -q '^base: 1.5 of 4 (37.5%; as Black 1 of 2, as White 0.5 of 2)$' "$tmp/out"
check "the new score, by colour" grep -q '^new:  2 of 4 (50.0%; as Black 1 of 2, as White 1 of 2)$' "$tmp/out"
# differences 0, +1, 0, -0.5: mean +0.125, sd 0.6292, 95% half-width 1.96 * 0.6292 / 2
check "the paired difference and the kept results" grep -q '^new - base: +12.5 points a game (95%: -49.2 .. +74.2); the same result in 2 of 4 games$' "$tmp/out"

# Two halves joined: the second half's games follow the first half's two openings, even
# though the first half stopped after one game.
match "$tmp/half1" "h8i9 h8h9" B+1
match "$tmp/half2" "h8j10" W+1 W+1
match "$tmp/whole" "h8i9 h8h9 h8j10" W+1 B+1 B+1 B+1 B+1 B+1
python3 "$paired" "$tmp/whole" "$tmp/half1,$tmp/half2" >"$tmp/out" 2>&1
check "halves joined by commas read as one match" grep -q '^new:  2 of 3 (66.7%; as Black 1 of 2, as White 1 of 1)$' "$tmp/out"
check "only the games both played count" grep -q 'the same result in 0 of 3 games$' "$tmp/out"
# Bare SGF files: a part ends at its last game, so whole halves join as folders do ...
match "$tmp/first" "h8i9" B+1 W+1
match "$tmp/second" "h8h9" W+1 B+1
python3 "$paired" "$tmp/base/games.sgf" "$tmp/first/games.sgf,$tmp/second/games.sgf" >"$tmp/out" 2>&1
check "bare SGF parts joined by commas" grep -q '^new - base: +12.5 points a game' "$tmp/out"
# ... and a stopped one shifts the next part's numbers, which the colours give away.
python3 "$paired" "$tmp/whole/games.sgf" "$tmp/half1/games.sgf,$tmp/half2/games.sgf" >"$tmp/out" 2>&1
check "a misnumbered part is refused" grep -q 'game 2: the tested engine is Black in one match and White in the other' "$tmp/out"

match "$tmp/other" "h8i9 h8j8" B+1 B+1 W+1 0
python3 "$paired" "$tmp/base" "$tmp/other" >"$tmp/out" 2>&1
check "other openings are refused" test $? != 0
check "... saying where they differ" grep -q 'openings differ at opening 2: h8h9 and h8j8' "$tmp/out"
python3 "$paired" --engine pela "$tmp/base" "$tmp/new" >"$tmp/out" 2>&1
check "a name prefix that matches no player is refused" grep -q "'pela' names neither player" "$tmp/out"
python3 "$paired" "$tmp/base" "$tmp/missing" >"$tmp/out" 2>&1
check "a missing match is refused" grep -q 'cannot read .*/missing: No such file' "$tmp/out"
printf '(;FF[4]GN[1]PB[tengen]\n;B[hh])\n' >"$tmp/cut.sgf"
python3 "$paired" "$tmp/cut.sgf" "$tmp/cut.sgf" >"$tmp/out" 2>&1
check "a game without its result is refused" grep -q 'a game without GN, PB, PW or RE' "$tmp/out"

echo "paired.py: $pass passed, $fail failed"
[ "$fail" = 0 ]
