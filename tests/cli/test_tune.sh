#!/bin/sh
# test_tune.sh — end-to-end checks of `tengen tune`: on the small fixed data file
# (tests/data/tune-small.tgd) the training loss goes down and the table it writes reads back
# as a start; malformed data and weight files and bad options are refused with a clear message.
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
