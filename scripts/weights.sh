#!/bin/sh
# weights.sh — one generation of the evaluation's weight table for one rule (docs/eval.md):
# self-play data with the tables tengen plays with now, a table tuned from it, and a match of
# the new table against the old at fixed nodes. The new table stays in weights/ only when the
# match accepts it (SPRT H1, or a score above one half when the games run out); otherwise the
# old one is put back. Needs c-gomoku-cli for the match (docs/strength.md).
set -eu

usage() {
    cat <<'EOF2'
usage: scripts/weights.sh [--rule R] [--positions N] [--nodes N] [--threads T] [--from seed]
                          [--match-nodes N] [--games N] [--sprt E0,E1] [--out DIR] [--no-match]

  --rule R          freestyle | standard | renju (default freestyle)
  --positions N     training positions to generate (default 500000; about 25 a game)
  --nodes N         datagen's nodes a move (default 3000)
  --threads T       datagen threads (default 2)
  --from seed       tune from the seed weights instead of the current table (from nothing)
  --match-nodes N   the match's nodes a move (default 10000)
  --games N         most match games (default 800), SPRT bounds --sprt (default 0,10)
  --out DIR         where data, tables and logs go (default build/weights/RULE-TIME)
  --no-match        keep the new table without a match
EOF2
}

root=$(cd "$(dirname "$0")/.." && pwd)
rule=freestyle positions=500000 nodes=3000 threads=2 from="" match_nodes=10000 games=800
sprt=0,10 out="" match=1
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
    -h | --help) usage; exit 0 ;;
    *) echo "weights.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
die() { echo "weights.sh: $*" >&2; exit 1; }
[ -n "$out" ] || out=$root/build/weights/$rule-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
table=$root/weights/$rule.txt

# 1. The current generation: its programs kept aside, its table too (none: the seed weights).
make -C "$root" -j2 build/tengen build/pbrain-tengen >"$out/build.log" 2>&1 || die "build failed: $out/build.log"
cp "$root/build/tengen" "$out/tengen-before"
cp "$root/build/pbrain-tengen" "$out/pbrain-before"
[ ! -f "$table" ] || cp "$table" "$out/$rule-before.txt"

# 2. Data: self-play of the current generation.
games_wanted=$(( (positions + 24) / 25 ))
echo "weights: $rule: $games_wanted games at $nodes nodes a move -> $out/data.tgd"
"$out/tengen-before" datagen --rule "$rule" --games "$games_wanted" --nodes "$nodes" \
    --threads "$threads" --quiet --out "$out/data.tgd"

# 3. The new table.
"$out/tengen-before" tune --data "$out/data.tgd" --rule "$rule" ${from:+--from "$from"} \
    --out "$out/$rule.txt" | tee "$out/tune.log"
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
