#!/bin/sh
# test_tune.sh — end-to-end checks of `tengen tune`: on the small fixed data file
# (tests/data/tune-small.tgd) the training loss goes down and the table it writes reads back
# as a start; tree samples from datagen --tree teach the ordering alone; malformed data, tree
# and weight files and bad options are refused with a clear message.
# usage: sh tests/cli/test_tune.sh path/to/tengen
bin=${1:?usage: $0 path/to/tengen}
here=$(dirname "$0")
data=$here/../data/tune-small.tgd
. "$here/checks.sh"

"$bin" tune --data "$data" --rule freestyle --epochs 20 --batch 128 --rate 2 --seed 1 \
    --out "$tmp/w.txt" >"$tmp/out" 2>&1
check "tune exits 0" test $? = 0
check "tune reads every game" grep -Eq '^tune: 60 games, [0-9]+ positions \([0-9]+ held out\), scale [0-9]+' "$tmp/out"
check "tune prints one line an epoch" test "$(grep -c '^tune: epoch' "$tmp/out")" = 20
start=$(sed -n 's/^tune: start  *train loss \([0-9.]*\).*/\1/p' "$tmp/out")
end=$(sed -n 's/^tune: epoch 20  train loss \([0-9.]*\).*/\1/p' "$tmp/out")
check "the training loss goes down ($start -> $end)" awk -v a="$start" -v b="$end" 'BEGIN { exit !(b < a - 0.005) }'
check "tune writes a weight table" grep -q '^tengen-weights 1$' "$tmp/w.txt"
check "... for the rule" grep -q '^rule freestyle$' "$tmp/w.txt"
check "... saying how it was made" grep -q '^# tengen tune: 60 games' "$tmp/w.txt"
"$bin" tune --from "$tmp/w.txt" --rule freestyle --epochs 0 --out "$tmp/w2.txt" >"$tmp/out" 2>&1
check "the table is a start for more tuning" test $? = 0
check "... and writes back the same values" cmp -s "$(grep -v '^#' "$tmp/w.txt" >"$tmp/a"; echo "$tmp/a")" \
    "$(grep -v '^#' "$tmp/w2.txt" >"$tmp/b"; echo "$tmp/b")"
"$bin" tune --from seed --rule renju --epochs 0 --out "$tmp/seed.txt" >"$tmp/out" 2>&1
check "--from seed writes the seed table" grep -q '^rule renju$' "$tmp/seed.txt"

# Tree samples: datagen --tree writes nodes of its searches; tune --tree learns the ordering
# (codes, near, pair and context values) from them and keeps the evaluation's values.
"$bin" datagen --games 4 --nodes 2000 --seed 5 --out "$tmp/t.tgd" --tree "$tmp/t.tree" >"$tmp/out" 2>&1
check "datagen --tree exits 0" test $? = 0
check "... writing tree samples" grep -Eq '^freestyle 15 [0-9]+ [a-o0-9]+ [a-o][0-9]+ [a-o0-9]+$' "$tmp/t.tree"
check "... every line of that form" test "$(grep -Evc '^freestyle 15 [1-9][0-9]* [a-o0-9]+ [a-o][0-9]+ [a-o0-9]+$' "$tmp/t.tree")" = 0
"$bin" tune --tree "$tmp/t.tree" --rule freestyle --epochs 6 --batch 64 --rate 2 \
    --out "$tmp/tw.txt" >"$tmp/out" 2>&1
check "tune --tree exits 0" test $? = 0
check "... reads the tree nodes" grep -Eq '^tune: [0-9]+ ordering choices \([0-9]+ held out\): the ordering only' "$tmp/out"
all_n=$(sed -n 's/^tune: \([0-9]*\) ordering choices.*/\1/p' "$tmp/out")
start=$(sed -n 's/^tune: start .*ordering \([0-9.]*\) .*/\1/p' "$tmp/out")
end=$(sed -n 's/^tune: epoch  6 .*ordering \([0-9.]*\) .*/\1/p' "$tmp/out")
check "... the ordering's training loss goes down ($start -> $end)" awk -v a="$start" -v b="$end" 'BEGIN { exit !(b < a - 0.005) }'
check "... writes near values" grep -Eq '^near (their|own) ([1-4],[0-4]|far) -?[0-9]+$' "$tmp/tw.txt"
check "... for the moves before the last two too" grep -Eq '^near (their|own)-before ([1-4],[0-4]|far) -?[0-9]+$' "$tmp/tw.txt"
check "... pair values" grep -Eq '^pair [a-z0-9-]+ [a-z0-9-]+ -?[0-9]+$' "$tmp/tw.txt"
check "... context values" grep -Eq '^context (attack|defend) [a-z0-9+-]+ [a-z0-9-]+ -?[0-9]+$' "$tmp/tw.txt"
"$bin" tune --rule freestyle --epochs 0 --out "$tmp/builtin.txt" >"$tmp/out" 2>&1
check "... and the evaluation's values of the start" cmp -s \
    "$(grep -E '^(code|mask|scale)' "$tmp/tw.txt" >"$tmp/a"; echo "$tmp/a")" \
    "$(grep -E '^(code|mask|scale)' "$tmp/builtin.txt" >"$tmp/b"; echo "$tmp/b")"
# --values-only: the evaluation's values learn from the games, the ordering stays the start's.
"$bin" tune --data "$data" --values-only --rule freestyle --epochs 6 --batch 128 --rate 2 \
    --seed 1 --out "$tmp/vw.txt" >"$tmp/out" 2>&1
check "tune --values-only exits 0" test $? = 0
check "... says so" grep -q "^tune: the evaluation's values only, the ordering kept" "$tmp/out"
start=$(sed -n 's/^tune: start  *train loss \([0-9.]*\).*/\1/p' "$tmp/out")
end=$(sed -n 's/^tune: epoch  6  train loss \([0-9.]*\).*/\1/p' "$tmp/out")
check "... the evaluation's training loss goes down ($start -> $end)" awk -v a="$start" -v b="$end" 'BEGIN { exit !(b < a - 0.005) }'
check "... its values change" test "$(grep -E '^code' "$tmp/vw.txt" | sort | comm -23 - "$(grep -E '^code' "$tmp/builtin.txt" | sort >"$tmp/b"; echo "$tmp/b")" | wc -l)" -gt 0
check "... and the ordering is the start's" cmp -s \
    "$(grep -E '^(order|near|pair|context)' "$tmp/vw.txt" >"$tmp/a"; echo "$tmp/a")" \
    "$(grep -E '^(order|near|pair|context)' "$tmp/builtin.txt" >"$tmp/b"; echo "$tmp/b")"
"$bin" tune --tree "$tmp/t.tree" --values-only --rule freestyle --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "... refused with --tree" grep -q 'values-only learns from --data' "$tmp/out"
"$bin" tune --tree "$tmp/t.tree" --tree-plies 3 --rule freestyle --epochs 1 --out "$tmp/x.txt" >"$tmp/out" 2>&1
deep_n=$(sed -n 's/^tune: \([0-9]*\) ordering choices.*/\1/p' "$tmp/out")
check "--tree-plies 3 keeps fewer positions ($deep_n of $all_n)" test "${deep_n:-0}" -gt 0 -a "${deep_n:-0}" -lt "${all_n:-0}"
"$bin" tune --tree "$tmp/t.tree" --tree-plies 1000 --rule freestyle --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "... and none at 1000 plies: refused" grep -q 'no freestyle positions' "$tmp/out"
# A node with every empty point in its list (a line of 700 characters) reads.
all=$(for c in a b c d e f g h i j k l m n o; do for r in $(seq 1 15); do [ "$c$r" = h8 ] || printf '%s%s' $c $r; done; done)
printf 'freestyle 15 3 h8 a1 %s\n' "$all" >"$tmp/long.tree"
"$bin" tune --tree "$tmp/long.tree" --rule freestyle --epochs 1 --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "a tree sample with every point in its list reads" grep -q '^tune: 1 ordering choices' "$tmp/out"
rm -f "$tmp/x.txt"
printf 'freestyle 15 2 h8i9 j10 j10\n' >"$tmp/bad.tree"
"$bin" tune --tree "$tmp/bad.tree" --rule freestyle --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "a malformed tree sample is refused, its line named" grep -q 'bad.tree line 1: not a tree sample' "$tmp/out"
"$bin" datagen --import "$tmp/bad.tree" --out "$tmp/x.tgd" --tree "$tmp/y.tree" >"$tmp/out" 2>&1
check "datagen --tree with --import is refused" grep -q 'tree goes with self-play' "$tmp/out"
# datagen --relabel: each sampled position once, its move that of a fresh search of its own.
"$bin" datagen --relabel "$tmp/t.tree" "$tmp/t.tree" --nodes 500 --out "$tmp/r.tree" >"$tmp/out" 2>&1
check "datagen --relabel exits 0" test $? = 0
positions=$(awk '{ print $4 }' "$tmp/t.tree" | sort -u | wc -l)
written=$(wc -l <"$tmp/r.tree")
check "... each position once, though given twice ($written of $positions)" test "$written" -gt 0 -a "$written" -le "$positions" -a "$(awk '{ print $4 }' "$tmp/r.tree" | sort | uniq -d | wc -l)" = 0
check "... says how many it searched and wrote" grep -q "^datagen: $positions positions searched at 500 nodes, $written written" "$tmp/out"
awk '{ $5 = ""; print }' "$tmp/t.tree" | sort >"$tmp/a"
check "... keeps each sample's rule, plies, stones and list" test "$(awk '{ $5 = ""; print }' "$tmp/r.tree" | sort | comm -23 - "$tmp/a" | wc -l)" = 0
check "... every new move on its list" test "$(awk 'index($6, $5) == 0' "$tmp/r.tree" | wc -l)" = 0
sort "$tmp/t.tree" >"$tmp/a"
check "... and some moves are not the tree's" test "$(sort "$tmp/r.tree" | comm -23 - "$tmp/a" | wc -l)" -gt 0
pos=$(awk 'NR == 1 { print $4 }' "$tmp/r.tree"); move=$(awk 'NR == 1 { print $5 }' "$tmp/r.tree")
best=$("$bin" analyze --moves "$(echo "$pos" | sed 's/\([a-o][0-9]*\)/\1 /g')" --nodes 500 --json | sed -n 's/.*"best": "\([a-o][0-9]*\)".*/\1/p')
check "... the move a 500-node search plays there ($best)" test "$best" = "$move"
"$bin" datagen --relabel "$tmp/t.tree" --nodes 500 --threads 2 --out "$tmp/r2.tree" --quiet >"$tmp/out" 2>&1
sort "$tmp/r.tree" >"$tmp/a"; sort "$tmp/r2.tree" >"$tmp/b"
check "... the same lines with two threads" cmp -s "$tmp/a" "$tmp/b"
"$bin" tune --tree "$tmp/r.tree" --rule freestyle --epochs 1 --out "$tmp/rw.txt" >"$tmp/out" 2>&1
check "... which tune --tree reads" grep -Eq "^tune: [1-9][0-9]* ordering choices" "$tmp/out"
# datagen --relabel --scores: the same positions as training data for the values, each a game
# of its stones and the best move, scored; tune learns from the scores alone with lambda 0.
"$bin" datagen --relabel "$tmp/t.tree" --scores --nodes 500 --out "$tmp/s.tgd" >"$tmp/out" 2>&1
check "datagen --relabel --scores exits 0" test $? = 0
"$bin" datagen --check "$tmp/s.tgd" >"$tmp/out" 2>&1
check "... writes a data file of one game a position ($written)" grep -q "^$tmp/s.tgd: $written games, $written positions" "$tmp/out"
"$bin" tune --data "$tmp/s.tgd" --values-only --lambda 0 --rule freestyle --epochs 3 --batch 64 \
    --rate 2 --out "$tmp/sw.txt" >"$tmp/out" 2>&1
check "... which tune --values-only --lambda 0 reads" grep -Eq "^tune: $written games, [1-9][0-9]* positions" "$tmp/out"
check "... keeping the start table's scale" grep -q "^scale $(sed -n 's/^scale //p' "$tmp/builtin.txt")$" "$tmp/sw.txt"
# A weaker pull towards the start lets the values move further on the same data.
moved() { # the summed change of the code values from the built-in table
    awk 'NR == FNR { if ($1 == "code") v[$2" "$3" "$4" "$5] = $6; next }
         $1 == "code" { d = $6 - v[$2" "$3" "$4" "$5]; s += d < 0 ? -d : d } END { print s + 0 }' \
        "$tmp/builtin.txt" "$1"
}
"$bin" tune --data "$tmp/s.tgd" --values-only --lambda 0 --pull 1e-10 --rule freestyle --epochs 3 \
    --batch 64 --rate 2 --out "$tmp/sw2.txt" >"$tmp/out" 2>&1
check "--pull 1e-10 moves the values further than the default ($(moved "$tmp/sw2.txt") > $(moved "$tmp/sw.txt"))" \
    test "$(moved "$tmp/sw2.txt")" -gt "$(moved "$tmp/sw.txt")"
"$bin" tune --data "$tmp/s.tgd" --pull 2 --rule freestyle --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "tune refuses a bad --pull" grep -q 'pull wants a number from' "$tmp/out"
"$bin" datagen --games 2 --scores --out "$tmp/x.tgd" >"$tmp/out" 2>&1
check "--scores without --relabel is refused" grep -q 'scores goes with --relabel' "$tmp/out"
printf 'freestyle 15 2 h8i9 j10 j10i10\nfreestyle 15 x h8\n' >"$tmp/bad2.tree"
"$bin" datagen --relabel "$tmp/bad2.tree" --out "$tmp/x.tree" >"$tmp/out" 2>&1
check "datagen --relabel refuses a malformed sample, its line named" grep -q 'bad2.tree line 2: not a tree sample' "$tmp/out"
"$bin" datagen --relabel "$tmp/t.tree" --games 2 --out "$tmp/x.tree" >"$tmp/out" 2>&1
check "... and takes no --games" test $? = 2

"$bin" tune --data "$data" --rule renju --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "no games of the rule: refused" grep -q 'no renju positions in the data' "$tmp/out"
head -c 100 "$data" >"$tmp/cut.tgd"
"$bin" tune --data "$tmp/cut.tgd" --rule freestyle --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "a truncated data file is refused" test $? = 1
check "... naming the file and the offset" grep -q "cut.tgd.*offset [0-9]*: .*truncated" "$tmp/out"
"$bin" tune --data "$here/checks.sh" --rule freestyle --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "another kind of file is refused" grep -q 'not a tengen training data file' "$tmp/out"
"$bin" tune --data "$tmp/missing.tgd" --rule freestyle --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "a missing file is refused" grep -q 'missing.tgd' "$tmp/out"
printf 'tengen-weights 1\nrule freestyle\nscale 100\ncode five five five six 1 2 3 4\n' >"$tmp/bad.txt"
"$bin" tune --from "$tmp/bad.txt" --data "$data" --rule freestyle --out "$tmp/x.txt" >"$tmp/out" 2>&1
check "a malformed start table is refused" grep -q "weights line 4: unknown pattern 'six'" "$tmp/out"
check "... and nothing is written" test ! -e "$tmp/x.txt"
"$bin" tune --data "$data" --rule freestyle >"$tmp/out" 2>&1
check "tune wants --out" test $? = 2
"$bin" tune --data "$data" --rule freestyle --out "$tmp/x.txt" --lambda 2 >"$tmp/out" 2>&1
check "tune refuses a bad --lambda" grep -q 'lambda wants a number from 0 to 1' "$tmp/out"

echo "tune: $pass passed, $fail failed"
[ $fail = 0 ]
