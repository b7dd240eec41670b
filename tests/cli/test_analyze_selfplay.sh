#!/bin/sh
# test_analyze_selfplay.sh — end-to-end checks of `tengen analyze` and `tengen selfplay`.
# usage: sh tests/cli/test_analyze_selfplay.sh path/to/tengen
bin=${1:?usage: $0 path/to/tengen}
. "$(dirname "$0")/checks.sh"

# Black (to move) has the open three h8 i8 j8: g8 or k8 makes a straight four and wins.
three="h8 a1 i8 a2 j8 a3"
"$bin" analyze --rule freestyle --size 15 --moves "$three" --depth 4 >"$tmp/out" 2>&1
check "analyze exits 0" test $? = 0
check "analyze prints bestmove g8 or k8" grep -Eq '^bestmove (g8|k8)$' "$tmp/out"
check "analyze scores a win" grep -q 'win in' "$tmp/out"

"$bin" analyze --rule freestyle --size 15 --moves "h8 i9 h9" --depth 3 >"$tmp/out" 2>&1
check "analyze prints depth lines" grep -Eq '^depth [0-9]+ seldepth [0-9]+ score .* pv ' "$tmp/out"
check "analyze prints ranked lines" grep -Eq '^1\. [a-o][0-9]+ ' "$tmp/out"

"$bin" analyze --rule freestyle --size 15 --moves "h8 i9 h9" --depth 6 --tree >"$tmp/out" 2>&1
check "analyze --tree exits 0" test $? = 0
check "analyze --tree heads its table" grep -q '^tree: plies left' "$tmp/out"
check "analyze --tree: a row per depth left, shares and moves per node" python3 -c '
import re, sys
rows = [l.split() for l in open(sys.argv[1]) if re.match(r"^ *[0-9]+\+? +[0-9]+ ", l)]
assert rows and rows[-1][0] == "0", rows
for r in rows:
    futile, razored, looped = (float(x.rstrip("%")) for x in r[2:5])
    assert futile + razored + looped <= 100.1 and float(r[5]) <= float(r[7]), r
    assert all(0 <= float(x.rstrip("%")) <= 100 for x in r[8:11]), r
    assert float(r[11]) <= float(r[5]), r
' "$tmp/out"

"$bin" analyze --rule freestyle --size 15 --moves "$three" --depth 4 --json >"$tmp/out" 2>&1
check "analyze --json is one valid object with the keys" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("rule", "size", "best", "score", "score_text", "depth", "seldepth", "nodes",
          "time_ms", "nps", "lines"):
    assert k in d, k
assert d["rule"] == "freestyle" and d["size"] == 15 and d["best"] in ("g8", "k8")
assert "win in" in d["score_text"] and d["lines"] and d["lines"][0]["move"] == d["best"]
for l in d["lines"]:
    assert set(("move", "score", "score_text", "depth", "pv")) <= set(l) and l["pv"]
' "$tmp/out"

"$bin" analyze --rule freestyle --moves "$three k8 a4 l8" --depth 2 >"$tmp/out" 2>&1
st=$?
check "analyze of a finished game fails" test $st != 0
check "analyze of a finished game says so" grep -q 'game is over' "$tmp/out"

"$bin" analyze --depth 2 --multipv 0 >"$tmp/out" 2>&1
check "analyze rejects a bad option value" test $? != 0

"$bin" selfplay --black medium --white easy --games 2 --size 15 --rule freestyle --time 100 \
    >"$tmp/out" 2>&1
check "selfplay exits 0" test $? = 0
check "selfplay prints a line per game" test "$(grep -c '^game [12]/2 ' "$tmp/out")" = 2
check "selfplay prints the score" grep -Eq '^Score: [0-9]+-[0-9]+-[0-9]+  Elo [-+][0-9]+ \+/- [0-9]+ \(LOS [0-9.]+%\)$' "$tmp/out"

printf '# two openings, one unusable\n\nh8i9j10\nh8h8\n' >"$tmp/openings.txt"
"$bin" selfplay --black easy --white easy --games 2 --openings "$tmp/openings.txt" --time 50 \
    --quiet >"$tmp/out" 2>&1
check "selfplay with openings exits 0" test $? = 0
check "selfplay reports the bad opening" grep -q "opening 'h8h8' skipped" "$tmp/out"
check "selfplay --quiet prints no game lines" test "$(grep -c '^game ' "$tmp/out")" = 0
check "selfplay --quiet prints the score" grep -q '^Score: ' "$tmp/out"

"$bin" selfplay --black grandmaster --white easy --games 2 >"$tmp/out" 2>&1
st=$?
check "selfplay rejects a bad level" test $st != 0
check "selfplay names the bad level" grep -q "unknown level 'grandmaster'" "$tmp/out"

# --save: a game with a pass (here in the opening) goes to SGF, as PSQ cannot hold it; a game
# that cannot be written at all makes the exit status 1.
printf 'h8 -- i9\n' >"$tmp/pass.txt"
"$bin" selfplay --black easy --white easy --games 2 --openings "$tmp/pass.txt" --time 30 \
    --quiet --save "$tmp/g" >"$tmp/out" 2>&1
check "selfplay --save with a pass exits 0" test $? = 0
check "selfplay --save writes the game with a pass as SGF" grep -q ';W\[\]' "$tmp/g-001.sgf"
check "selfplay --save says why" grep -q "game 1: move 2 is a pass, which PSQ cannot record; saved as .*g-001.sgf" "$tmp/out"
"$bin" selfplay --black easy --white easy --games 2 --time 30 --quiet --save "$tmp/no/such/dir/g" \
    >"$tmp/out" 2>&1
check "selfplay --save that cannot write exits 1" test $? = 1
check "selfplay --save names the file" grep -q "cannot write .*no/such/dir/g-001.psq" "$tmp/out"

# A missing option value is named as such, not as an unknown option.
for cmd in "show --moves" "show --rule" "selfplay --games" "analyze --depth" "play --plain --black"; do
    # shellcheck disable=SC2086 # the command and its options
    "$bin" $cmd </dev/null >"$tmp/out" 2>&1
    st=$?
    opt=${cmd##* }
    check "$cmd: exit status 2" test $st = 2
    check "$cmd: '$opt' needs a value" grep -q -- "'$opt' needs a value" "$tmp/out"
done

# An unknown player names the valid ones.
"$bin" play --plain --white grandmaster </dev/null >"$tmp/out" 2>&1
check "play: unknown level exits 2" test $? = 2
check "play: unknown level names the valid ones" grep -q "unknown player 'grandmaster' for --white: one of human, computer, max, hard, medium, easy" "$tmp/out"

# show names the renju foul as the other front ends do.
"$bin" show --rule renju --moves "i8 a1 j8 a3 h9 a5 h10 a7 h8" >"$tmp/out" 2>&1
check "show refuses a foul" test $? = 1
check "show names the foul" grep -q "move 9 (h8) is forbidden for Black: double three (33)$" "$tmp/out"

"$bin" --help >"$tmp/out" 2>&1
check "--help describes bench as the search bench" grep -Eq '^  bench +benchmark the search' "$tmp/out"

echo "cli: $pass passed, $fail failed"
[ $fail = 0 ]
