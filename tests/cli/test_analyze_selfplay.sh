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

echo "cli: $pass passed, $fail failed"
[ $fail = 0 ]
