#!/bin/sh
# search_size.sh MESSAGES NAME [MIN_MS] — how large one engine's searches were in a match, from
# c-gomoku-cli's protocol messages (its -msg file): how many of its moves took MIN_MS or more
# (default 0; forced answers come back at once), their median nodes and depth, and its longest
# move. Reads tengen's MESSAGE line ("depth 14-30 | ... | nodes 105472 | time 473 ms") and
# Rapfi's ("Depth 17-19 | ... | Node 209K | Time 435ms"). tengen's score against Rapfi at a
# fixed turn time depends on the nodes the machine gives both (docs/strength.md), so a timed
# match is read with these figures.
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/search_size.sh MESSAGES NAME [MIN_MS]" >&2; exit 2; }
msgs=$1 name=$2 min_ms=${3:-0}
[ -r "$msgs" ] || { echo "search_size.sh: cannot read $msgs" >&2; exit 2; }
sizes=$(mktemp) long_moves=$(mktemp)
trap 'rm -f "$sizes" "$long_moves"' EXIT

# One line "nodes depth time" per move report of NAME (a line with all three fields).
awk -v who="$name" '
    function value(field,   v) { # "nodes 105472", "node 209k", "time 435ms" -> the number
        v = field; sub(/^[a-z]+ /, "", v); sub(/ ?ms$/, "", v)
        if (v ~ /k$/) return substr(v, 1, length(v) - 1) * 1000
        if (v ~ /m$/) return substr(v, 1, length(v) - 1) * 1000000
        return v + 0
    }
    /^[0-9]+\) / {
        at = index($0, ") " who ": ")
        if (at == 0 || substr($0, 1, at - 1) !~ /^[0-9]+$/) next
        n = split(tolower(substr($0, at + length(who) + 4)), field, / \| /)
        nodes = depth = time = ""
        for (i = 1; i <= n; i++) {
            if (field[i] ~ /^depth [0-9]+/) { depth = field[i]; sub(/^depth /, "", depth); sub(/-.*/, "", depth) }
            else if (field[i] ~ /^nodes? [0-9.]+[km]?$/) nodes = value(field[i])
            else if (field[i] ~ /^time [0-9]+ ?ms$/) time = value(field[i])
        }
        if (nodes != "" && depth != "" && time != "") printf "%d %d %d\n", nodes, depth, time
    }' "$msgs" >"$sizes"

moves=$(wc -l <"$sizes")
if [ "$moves" -eq 0 ]; then
    echo "$name: no search reports in $msgs"
    exit 0
fi
longest=$(sort -n -k3 "$sizes" | tail -n 1 | cut -d' ' -f3)
awk -v min="$min_ms" '$3 >= min' "$sizes" >"$long_moves"
# median COLUMN: the middle value (the lower one of two) of the moves of MIN_MS or more.
median() { sort -n -k"$1" "$long_moves" | awk -v c="$1" '
    { v[NR] = $c } END { if (NR) print v[int((NR + 1) / 2)]; else print "-" }'; }
echo "$name: $(wc -l <"$long_moves") of $moves moves took $min_ms ms or more: median $(median 1) nodes at depth $(median 2); longest move $longest ms"
