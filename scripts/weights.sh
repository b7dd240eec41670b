#!/bin/sh
# weights.sh — one generation of the evaluation's weight table for one rule (docs/eval.md):
# self-play data with the tables tengen plays with now, a table tuned from it, and a match of
# the new table against the old at fixed nodes. The new table stays in weights/ only when the
# match accepts it (SPRT H1, or a score above one half when the games run out); otherwise the
# old one is put back. Needs c-gomoku-cli for the match (docs/strength.md).
# With --ordering, one round of the move ordering instead: samples of the search's own tree,
# each sampled position labelled again by a fresh root search, the ordering fitted to them.
set -eu

usage() {
    cat <<'EOF2'
usage: scripts/weights.sh [--rule R] [--positions N] [--nodes N] [--threads T] [--from seed]
                          [--match-nodes N] [--games N] [--sprt E0,E1] [--out DIR] [--no-match]
       scripts/weights.sh --ordering [--rule R] [--tree-games N] [--seed S] [--positions N]
                          [--nodes N] [--label-nodes N] [--threads T] [match options]

  --rule R          freestyle | standard | renju (default freestyle)
  --positions N     training positions to generate (default 500000; about 25 a game);
                    with --ordering, distinct tree positions to label again (default 500000)
  --nodes N         datagen's nodes a move (default 3000; with --ordering 30000)
  --threads T       datagen threads (default 2)
  --from seed       tune from the seed weights instead of the current table (from nothing)
  --match-nodes N   the match's nodes a move (default 10000; with --ordering 100000)
  --games N         most match games (default 800), SPRT bounds --sprt (default 0,10;
                    with --ordering 0,15)
  --out DIR         where data, tables and logs go (default build/weights/RULE-TIME)
  --no-match        keep the new table without a match
  --ordering        a round of the move ordering (the evaluation's values stay): tree samples
                    of --tree-games self-play games (default 400, seed --seed, default 1),
                    --positions of their positions (a random choice by the seed) given the
                    best move of a --label-nodes search (default 3000), tune --tree on them
EOF2
}

root=$(cd "$(dirname "$0")/.." && pwd)
rule=freestyle positions=500000 nodes="" threads=2 from="" match_nodes="" games=800 sprt=""
out="" match=1 ordering=0 tree_games=400 seed=1 label_nodes=3000
while [ $# -gt 0 ]; do
    case $1 in
    --rule) rule=$2; shift 2 ;;
    --positions) positions=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --from) from=$2; shift 2 ;;
    --match-nodes) match_nodes=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --sprt) sprt=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --no-match) match=0; shift ;;
    --ordering) ordering=1; shift ;;
    --tree-games) tree_games=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --label-nodes) label_nodes=$2; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "weights.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
die() { echo "weights.sh: $*" >&2; exit 1; }
if [ $ordering = 1 ]; then
    : "${nodes:=30000}" "${match_nodes:=100000}" "${sprt:=0,15}"
else
    : "${nodes:=3000}" "${match_nodes:=10000}" "${sprt:=0,10}"
fi
[ -n "$out" ] || out=$root/build/weights/$rule-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
table=$root/weights/$rule.txt

# 1. The current generation: its programs kept aside, its table too (none: the seed weights).
make -C "$root" -j2 build/tengen build/pbrain-tengen >"$out/build.log" 2>&1 || die "build failed: $out/build.log"
cp "$root/build/tengen" "$out/tengen-before"
cp "$root/build/pbrain-tengen" "$out/pbrain-before"
[ ! -f "$table" ] || cp "$table" "$out/$rule-before.txt"

# 2. Data: self-play of the current generation (with --ordering, its tree samples, a random
# choice of their positions, and each of those given the best move of a fresh search: near
# the leaves the tree's own choice mostly repeats the ordering that made it).
if [ $ordering = 0 ]; then
    games_wanted=$(( (positions + 24) / 25 ))
    echo "weights: $rule: $games_wanted games at $nodes nodes a move -> $out/data.tgd"
    "$out/tengen-before" datagen --rule "$rule" --games "$games_wanted" --nodes "$nodes" \
        --threads "$threads" --quiet --out "$out/data.tgd"
else
    echo "weights: $rule: $tree_games games at $nodes nodes a move, tree samples -> $out/tree.txt"
    "$out/tengen-before" datagen --rule "$rule" --games "$tree_games" --nodes "$nodes" \
        --threads "$threads" --seed "$seed" --quiet --out "$out/data.tgd" --tree "$out/tree.txt"
    # Every line of a chosen position goes (relabel keeps its first); field 4 is the stones.
    awk -v seed="$seed" 'BEGIN { srand(seed) } { printf "%.9f\t%s\n", rand(), $0 }' "$out/tree.txt" |
        LC_ALL=C sort -k1,1 | cut -f2- |
        awk -v n="$positions" '!($4 in seen) { if (kept >= n) next; seen[$4] = 1; kept++ } { print }' \
            >"$out/tree-chosen.txt"
    chosen=$(cut -d' ' -f4 "$out/tree-chosen.txt" | sort -u | wc -l)
    echo "weights: $rule: $chosen positions labelled at $label_nodes nodes -> $out/labelled.txt"
    "$out/tengen-before" datagen --relabel "$out/tree-chosen.txt" --nodes "$label_nodes" \
        --threads "$threads" --quiet --out "$out/labelled.txt"
fi

# 3. The new table.
if [ $ordering = 0 ]; then
    "$out/tengen-before" tune --data "$out/data.tgd" --rule "$rule" ${from:+--from "$from"} \
        --out "$out/$rule.txt" | tee "$out/tune.log"
else
    "$out/tengen-before" tune --tree "$out/labelled.txt" --rule "$rule" ${from:+--from "$from"} \
        --epochs 3 --batch 256 --rate 2 --out "$out/$rule-tuned.txt" | tee "$out/tune.log"
    # The table says how its ordering was made, under the evaluation's line it had.
    { [ ! -f "$table" ] || grep -m 1 '^# the evaluation' "$table" || true
      echo "# the ordering: scripts/weights.sh --ordering --seed $seed: the tree samples of $tree_games games"
      echo "# at $nodes nodes a move, $chosen positions of them labelled again at $label_nodes nodes,"
      echo "# tengen tune --tree --epochs 3 --batch 256 --rate 2 (docs/eval.md)"
      grep -v '^# tengen tune' "$out/$rule-tuned.txt"; } >"$out/$rule.txt"
fi
cp "$out/$rule.txt" "$table"
make -C "$root" -j2 build/tengen build/pbrain-tengen >>"$out/build.log" 2>&1 || die "build failed: $out/build.log"
[ $match = 1 ] || { echo "weights: kept $table (no match)"; exit 0; }

# 4. The match: new table against old, at fixed nodes, from the balanced openings where the
# rule has them (about twice the decisive pairs of random ones), else from random openings.
openings=$root/data/openings/$rule-balanced-400.txt
[ -f "$openings" ] || openings=$root/data/openings/$rule-random-400.txt
[ -f "$openings" ] || openings=$root/data/openings/$rule-15.txt
sh "$root/scripts/match.sh" --no-build --tengen "$root/build/pbrain-tengen" \
    --engine "$out/pbrain-before" --name before --rule "$rule" --nodes "$match_nodes" \
    --games "$games" --sprt "$sprt" --openings "$openings" --concurrency 2 --out "$out/match" |
    tee "$out/match.log"
if grep -q 'H1 accepted' "$out/match.log" ||
    { ! grep -q 'H0 accepted' "$out/match.log" && grep -Eq 'score 0\.(5[0-9]*[1-9]|[6-9])' "$out/match.log"; }; then
    echo "weights: kept the new $table"
else
    if [ -f "$out/$rule-before.txt" ]; then cp "$out/$rule-before.txt" "$table"; else rm -f "$table"; fi
    make -C "$root" -j2 build/tengen build/pbrain-tengen >>"$out/build.log" 2>&1
    echo "weights: the new table did not gain; $table is back as it was"
fi
