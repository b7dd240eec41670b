#!/bin/sh
# test_datagen.sh — end-to-end checks of `tengen datagen`: small runs append whole games that
# --check replays, two runs joined with cat read as one, a seed repeats its bytes, --import
# scores games from records, and bad options and malformed files are refused with a clear
# message.
# usage: sh tests/cli/test_datagen.sh path/to/tengen
bin=${1:?usage: $0 path/to/tengen}
here=$(dirname "$0")
. "$here/checks.sh"

"$bin" datagen --games 3 --nodes 300 --seed 4 --out "$tmp/a.tgd" >"$tmp/out" 2>&1
check "datagen exits 0" test $? = 0
check "datagen prints a summary" grep -Eq '^datagen: 3 games, [0-9]+ positions of freestyle 15x15 at 300 nodes a move \(seed 4\)' "$tmp/out"
check "datagen prints progress" grep -q '^datagen: 3/3 games' "$tmp/out"
"$bin" datagen --games 2 --nodes 300 --rule renju --size 13 --threads 2 --random 3-4 --quiet \
    --out "$tmp/a.tgd" >"$tmp/out" 2>&1
check "a second run appends" test $? = 0
check "--quiet prints only the summary" test "$(wc -l <"$tmp/out")" = 1
"$bin" datagen --check "$tmp/a.tgd" >"$tmp/out" 2>&1
check "--check reads both runs" grep -Eq ': 5 games, [0-9]+ positions .*; freestyle 3 renju 2$' "$tmp/out"
check "the header is written once" test "$(grep -ao TGD1 "$tmp/a.tgd" | wc -l)" = 1
cat "$tmp/a.tgd" "$tmp/a.tgd" >"$tmp/joined.tgd"
"$bin" datagen --check "$tmp/joined.tgd" >"$tmp/out" 2>&1
check "files joined with cat read as one" grep -q ': 10 games, ' "$tmp/out"
"$bin" datagen --games 3 --nodes 300 --seed 4 --out "$tmp/b.tgd" --quiet >/dev/null 2>&1
head -c "$(wc -c <"$tmp/b.tgd")" "$tmp/a.tgd" >"$tmp/a3.tgd"
check "a seed repeats its games" cmp -s "$tmp/a3.tgd" "$tmp/b.tgd"

head -c 40 "$tmp/b.tgd" >"$tmp/cut.tgd"
"$bin" datagen --check "$tmp/cut.tgd" >"$tmp/out" 2>&1
check "--check refuses a truncated file" test $? = 1
check "... naming the offset" grep -q 'offset 8: game 1: truncated record' "$tmp/out"
"$bin" datagen --games 1 --nodes 300 --out "$tmp/cut.tgd" >"$tmp/out" 2>&1
check "datagen appends nothing to a broken file" test "$(wc -c <"$tmp/cut.tgd")" = 40
check "... and says how to mend it" grep -q 'offset 8: game 1: truncated record.*truncate it to that offset' "$tmp/out"
"$bin" datagen --check "$here/checks.sh" >"$tmp/out" 2>&1
check "--check refuses another kind of file" grep -q 'not a tengen training data file' "$tmp/out"
"$bin" datagen --games 2 >"$tmp/out" 2>&1
check "datagen wants --out" test $? = 2
"$bin" datagen --games 2 --out "$tmp/c.tgd" --random 6-2 >"$tmp/out" 2>&1
check "datagen refuses a bad --random" grep -q 'random wants MIN-MAX' "$tmp/out"
"$bin" datagen --games 2 --out "$tmp/c.tgd" --rule gomoku9 >"$tmp/out" 2>&1
check "datagen refuses an unknown rule" grep -q "unknown rule 'gomoku9'" "$tmp/out"
"$bin" datagen --games 2 --out "$tmp/c.tgd" --nodes 0 >"$tmp/out" 2>&1
check "datagen refuses zero nodes" test $? = 2
"$bin" datagen --games 2 --out "$tmp/nowhere/c.tgd" >"$tmp/out" 2>&1
check "datagen names a file it cannot open" grep -q 'nowhere/c.tgd: No such file' "$tmp/out"
check "a refused run writes nothing" test ! -e "$tmp/c.tgd"

# --import: games played elsewhere, scored by the same search.
cat >"$tmp/games.txt" <<'EOF2'
# a book of two stones, then White's five
h8 i9 | a1 i10 a3 i11 a5 i12 a7 i13
h8 h9 i8 i9 j8 j9 k8 k9 l8
h8 i9 h9
EOF2
"$bin" datagen --import "$tmp/games.txt" --nodes 300 --out "$tmp/i.tgd" >"$tmp/out" 2>&1
check "--import exits 0" test $? = 0
check "--import says what it scored" grep -Eq '^datagen: 2 games \(1 skipped\), 17 positions scored at 300 nodes' "$tmp/out"
check "--import names the unfinished game it skips" grep -q 'games.txt:4: not ended at a five or in a draw: skipped' "$tmp/out"
"$bin" datagen --check "$tmp/i.tgd" >"$tmp/out" 2>&1
check "--check reads the imported games" grep -q ': 2 games, 17 positions (19 moves); black 1, white 1, draws 0;' "$tmp/out"
echo "h8 h9 i8 i9 j8 j9 k8 k9 l8" >"$tmp/one.txt"
"$bin" convert "$tmp/one.txt" "$tmp/one.sgf" >/dev/null 2>&1
"$bin" datagen --import "$tmp/one.sgf" --nodes 300 --out "$tmp/i.tgd" --quiet >"$tmp/out" 2>&1
check "--import reads an SGF record" grep -q '^datagen: 1 games (0 skipped), 9 positions' "$tmp/out"
printf 'h8 i9 | a1 i10\nh8 h8\n' >"$tmp/bad.txt"
"$bin" datagen --import "$tmp/bad.txt" --out "$tmp/d.tgd" >"$tmp/out" 2>&1
check "--import refuses a line that does not read" test $? = 1
check "... naming the file and line" grep -q "bad.txt:2: move 2 'h8' lands on a stone already there" "$tmp/out"
check "... and writes nothing" test ! -e "$tmp/d.tgd"
echo "h8 i9 | a1:-50 i10:120 a3:-300 i11:400 a5:-900 i12:29991 a7:-29992 i13:29999" >"$tmp/scored.txt"
"$bin" datagen --import "$tmp/scored.txt" --out "$tmp/s.tgd" --quiet >"$tmp/out" 2>&1
check "--import keeps the scores a line gives (120, the fourth move's, at byte 28)" test "$(od -An -tx1 -j 28 -N 2 "$tmp/s.tgd" | tr -d " ")" = "7800"
echo "h8 i9 | a1:-50 i10 a3:4" >"$tmp/bad.txt"
"$bin" datagen --import "$tmp/bad.txt" --out "$tmp/d.tgd" >"$tmp/out" 2>&1
check "--import wants a score on every move after the book, or none" grep -q 'a score on 2 of the 3 moves after the book: all or none' "$tmp/out"
echo "h8 i9 | a1:40000" >"$tmp/bad.txt"
"$bin" datagen --import "$tmp/bad.txt" --out "$tmp/d.tgd" >"$tmp/out" 2>&1
check "--import refuses a score beyond the scale" grep -q "a bad score in 'a1:40000'" "$tmp/out"
# scripts/import_games.py: c-gomoku-cli's records and an engine's evaluations to import lines.
mkdir "$tmp/cli"
cat >"$tmp/cli/games.sgf" <<'EOF2'
(;FF[4]GM[4]GN[1]RU[0]SZ[15]RE[W+1]TE[White win by five connection]
;B[hh]C[opening move];W[ig]C[opening move];B[ao]C[12ms];W[if]C[9ms];B[am]C[8ms];W[ie]C[8ms]
;B[ak]C[7ms];W[id]C[6ms];B[ai]C[5ms];W[ic]C[0ms])
(;FF[4]GM[4]GN[2]RU[0]SZ[15]RE[B+1]TE[Black win by time forfeit]
;B[hh]C[opening move];W[ii]C[12ms];B[hi])
EOF2
cat >"$tmp/cli/messages.txt" <<'EOF2'
Game ID: 1
3) a: Depth 2-3 | Eval 10 | Time 0ms | A1
3) a: Speed 1K | Depth 9-12 | Eval -50 | Node 10K | Time 12ms
4) b: Speed 1K | Depth 9-12 | Eval 120 | Node 10K | Time 9ms
5) a: Speed 1K | Depth 9-12 | Eval -300 | Node 10K | Time 8ms
6) b: Speed 1K | Depth 9-12 | Eval +M5 | Node 10K | Time 8ms
7) a: Speed 1K | Depth 9-12 | Eval -M4 | Node 10K | Time 7ms
8) b: Speed 1K | Depth 9-12 | Eval +M3 | Node 10K | Time 6ms
9) a: Speed 1K | Depth 9-12 | Eval -M2 | Node 10K | Time 5ms
Game ID: 2
2) b: Speed 1K | Depth 9-12 | Eval 5 | Node 10K | Time 12ms
EOF2
python3 "$here/../../scripts/import_games.py" lines "$tmp/cli" >"$tmp/lines.txt" 2>"$tmp/out"
check "import_games.py turns records and evaluations into import lines" test "$(cat "$tmp/lines.txt")" = "h8 i9 | a1:-50 i10:120 a3:-300 i11:29995 a5:-29996 i12:29997 a7:-29998 i13:29999"
check "... and leaves out a game with a move it has no evaluation for" grep -q '1 games left out' "$tmp/out"
python3 "$here/../../scripts/import_games.py" lines "$tmp/cli" --mate 3000 >"$tmp/lines.txt" 2>/dev/null
check "... a mate as a plain score with --mate" grep -q 'i11:3000 a5:-3000 i12:3000 a7:-3000 i13:29999$' "$tmp/lines.txt"
"$bin" datagen --import "$tmp/lines.txt" --out "$tmp/l.tgd" --quiet >"$tmp/out" 2>&1
check "... which datagen --import reads" grep -q '^datagen: 1 games (0 skipped), 8 positions' "$tmp/out"
# ... a match of tengen against another engine (scripts/match.sh), each engine's own scores or
# every move judged by one of them (--judge), plain scores scaled (--factor).
mkdir "$tmp/judge"
cat >"$tmp/judge/games.sgf" <<'EOF2'
(;FF[4]GM[4]GN[1]RU[0]SZ[15]PB[tengen-x]PW[rapfi]RE[W+1]TE[White win by five connection]
;B[hh]C[opening move];W[ig]C[opening move];B[ao]C[12ms];W[if]C[9ms];B[am]C[8ms];W[ie]C[8ms]
;B[ak]C[7ms];W[id]C[6ms];B[ai]C[5ms];W[ic]C[0ms])
EOF2
cat >"$tmp/judge/messages.txt" <<'EOF2'
Game ID: 1
3) tengen-x: depth 9-12 | eval +40 | speed 1 kN/s | nodes 10 | time 12 ms | best a1
4) rapfi: Speed 1K | Depth 9-12 | Eval 120 | Node 10K | Time 9ms
5) tengen-x: depth 9-12 | eval -30 | speed 1 kN/s | nodes 10 | time 8 ms | best a3
6) rapfi: Speed 1K | Depth 9-12 | Eval +M5 | Node 10K | Time 8ms
7) tengen-x: depth 9-12 | eval loss in 2 | speed 1 kN/s | nodes 10 | time 7 ms | best a5
8) rapfi: Speed 1K | Depth 9-12 | Eval +M3 | Node 10K | Time 6ms
9) tengen-x: depth 9-12 | eval loss in 1 | speed 1 kN/s | nodes 10 | time 5 ms | best a7
EOF2
python3 "$here/../../scripts/import_games.py" lines "$tmp/judge" >"$tmp/lines.txt" 2>/dev/null
check "... reads tengen's search lines beside the other engine's" test "$(cat "$tmp/lines.txt")" = "h8 i9 | a1:40 i10:120 a3:-30 i11:29995 a5:-29996 i12:29997 a7:-29998 i13:29999"
python3 "$here/../../scripts/import_games.py" lines "$tmp/judge" --judge rapfi --factor 2 >"$tmp/lines.txt" 2>/dev/null
check "... judges every move by one engine with --judge, scaled by --factor" test "$(cat "$tmp/lines.txt")" = "h8 i9 | a1:-240 i10:240 a3:-29995 i11:29995 a5:-29997 i12:29997 a7:-29998 i13:29999"
python3 "$here/../../scripts/import_games.py" lines "$tmp/judge" --judge rapif >/dev/null 2>"$tmp/out"
check "... refuses a judge the messages do not name" grep -q 'no search line of an engine named rapif\*' "$tmp/out"
python3 "$here/../../scripts/import_games.py" lines "$tmp/judge" --factor 0 >/dev/null 2>"$tmp/out"
check "... and refuses a factor of 0" grep -q -- '--factor wants a number above 0' "$tmp/out"
python3 "$here/../../scripts/import_games.py" openings 50 7 >"$tmp/openings.txt"
check "import_games.py draws openings, none alike" test "$(sort -u "$tmp/openings.txt" | grep -Ec '^([a-o][0-9]+){2,6}$')" = 50
python3 "$here/../../scripts/balanced_openings.py" --rule renju --count 3 --nodes 2000 \
    --centre 20 --margin 30 --tengen "$bin" >"$tmp/balanced.txt" 2>"$tmp/out"
check "balanced_openings.py prints the openings asked for" test "$(sort -u "$tmp/balanced.txt" | grep -Ec '^([a-o][0-9]+){2,6}$')" = 3
check "... and how many it searched" grep -Eq "^kept 3 of [0-9]+ openings \(Black's score \+20 \+- 30 at 2000 nodes\)$" "$tmp/out"
# The search is deterministic: searched again, each kept opening scores inside the window.
python3 - "$bin" "$tmp/balanced.txt" >"$tmp/scores" <<'EOF2'
import json, re, subprocess, sys
for line in open(sys.argv[2]):
    points = re.findall(r"[a-z]\d+", line)
    run = subprocess.run([sys.argv[1], "analyze", "--rule", "renju", "--moves", " ".join(points),
                          "--nodes", "2000", "--json"], capture_output=True, text=True)
    score = json.loads(run.stdout)["score"]
    print(score if len(points) % 2 == 0 else -score)
EOF2
check "... each of them scored +20 +- 30 for Black" test "$(awk '$1 >= -10 && $1 <= 50' "$tmp/scores" | wc -l)" = 3
"$bin" datagen --import --out "$tmp/d.tgd" >"$tmp/out" 2>&1
check "--import wants files" test $? = 2
"$bin" datagen --import "$tmp/games.txt" --games 2 --out "$tmp/d.tgd" >"$tmp/out" 2>&1
check "--import takes no --games" test $? = 2

echo "datagen: $pass passed, $fail failed"
[ $fail = 0 ]
