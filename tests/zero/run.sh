#!/bin/sh
# run.sh — the zero level's learning loop end to end, tiny: on a 6x6 board, two iterations of
# self-play (tengen zero selfplay), training (tools/zero/zero.py with PyTorch), export and an
# evaluation against pure MCTS; then a third iteration resumed from the checkpoint (moves drawn
# by visit counts for the whole game, a lower learning rate) and a fourth on a rate schedule; then the trained model used by
# `tengen zero info`, `tengen selfplay --model` and refused when corrupt.
# usage: sh tests/zero/run.sh path/to/tengen
bin=${1:?usage: $0 path/to/tengen}
py=/usr/bin/python3
# shellcheck source=../cli/checks.sh
. "$(dirname "$0")/../cli/checks.sh"

loop() {
    nice "$py" tools/zero/zero.py loop --dir "$tmp/run" --tengen "$bin" --size 6 --channels 8 \
        --blocks 1 --games 4 --workers 2 --playouts 24 --eval-every 1 --eval-games 2 \
        --eval-playouts 50 --torch-threads 1 "$@" >"$tmp/out" 2>&1
}

loop --iterations 2
check "the loop runs two iterations" test $? = 0
check "progress lines name games, loss, entropy and the score" \
    grep -Eq '^iter 2 +games 8 .*loss .*entropy .*games/h .*vs mcts:[0-9]+ [0-9]+-[0-9]+-[0-9]+ = ' "$tmp/out"
check "records, checkpoint, state, models and curve exist" test -s "$tmp/run/checkpoint.pt" -a \
    -s "$tmp/run/state.json" -a -s "$tmp/run/latest.tgnn" -a -s "$tmp/run/best.tgnn" -a \
    -s "$tmp/run/curve.svg" -a -s "$tmp/run/log.csv"
check "self-play wrote one record file per process" test "$(ls "$tmp/run/records" | wc -l)" -eq 4

loop --iterations 3 --temperature-moves 36 --lr 0.0005
check "the loop resumes where it stopped" grep -Eq '^iter 3 +games 12 ' "$tmp/out"
check "a resumed run takes a new --lr" "$py" -c "import sys, torch
lr = torch.load(sys.argv[1], map_location='cpu')['opt']['param_groups'][0]['lr']
sys.exit(0 if abs(lr - 5e-4) < 1e-9 else 1)" "$tmp/run/checkpoint.pt"
check "--temperature-moves reaches self-play: later moves are not all the most visited" \
    "$py" -c "import glob, sys
sys.path.insert(0, 'tools/zero')
import zero
late = 0
for f in glob.glob(sys.argv[1] + '/*.tgsp'):
    for moves, visits, _ in zero.parse_records(open(f, 'rb').read(), 6):
        for i, (m, (pts, cnt)) in enumerate(zip(moves, visits)):
            late += i >= 36 // 8 and cnt and m != pts[cnt.index(max(cnt))]
sys.exit(0 if late > 0 else 1)" "$tmp/run/records"

loop --iterations 4 --lr-drop 0:0.0003 --lr-drop 100000:1
check "--lr-drop sets the rate once the run has had its minutes" "$py" -c "import sys, torch
lr = torch.load(sys.argv[1], map_location='cpu')['opt']['param_groups'][0]['lr']
sys.exit(0 if abs(lr - 3e-4) < 1e-9 else 1)" "$tmp/run/checkpoint.pt"
loop --iterations 5 --lr-drop 75
check "a malformed --lr-drop is refused" grep -q 'expected MINUTES:RATE' "$tmp/out"
check "the log has four rows" test "$(wc -l <"$tmp/run/log.csv")" -eq 5
check "the curve is SVG with the loss line" grep -q '<polyline' "$tmp/run/curve.svg"

"$bin" zero info "$tmp/run/latest.tgnn" >"$tmp/out" 2>&1
check "zero info reads the exported model" grep -q 'freestyle 6x6, 8 channels, 1 residual blocks' "$tmp/out"

"$bin" selfplay --size 6 --rule freestyle --black zero:30 --white mcts:30 --model "$tmp/run/best.tgnn" \
    --games 2 --quiet >"$tmp/out" 2>&1
check "selfplay plays the model against mcts" grep -q '^Score: ' "$tmp/out"
"$bin" selfplay --size 6 --rule freestyle --black zero:30 --white mcts:30 --model "$tmp/run/best.tgnn" \
    --games 2 --quiet --zero-rollouts 0 >"$tmp/out" 2>&1
check "selfplay --zero-rollouts 0 plays the network alone" grep -q '^Score: ' "$tmp/out"
"$bin" selfplay --size 6 --black zero --white mcts --zero-rollouts 65 --games 2 >"$tmp/out" 2>&1
st=$?
check "selfplay refuses --zero-rollouts 65" test $st = 2
check "... naming the option" grep -q -- "--zero-rollouts" "$tmp/out"

"$bin" selfplay --size 7 --rule freestyle --black zero --white mcts --model "$tmp/run/best.tgnn" \
    --games 2 --quiet >"$tmp/out" 2>&1
st=$?
check "a model of another size is refused before any game" test $st = 1
check "... saying which board it is for" grep -q "network (.*best.tgnn) is for freestyle 6x6, not freestyle 7x7" "$tmp/out"

cp "$tmp/run/best.tgnn" "$tmp/bad.tgnn"
# Flip every bit of one byte: writing a fixed byte leaves the file as it was when that byte
# already holds it (one run in 256).
"$py" -c "import sys
b = bytearray(open(sys.argv[1], 'rb').read())
b[100] ^= 0xFF
open(sys.argv[1], 'wb').write(b)" "$tmp/bad.tgnn"
"$bin" zero info "$tmp/bad.tgnn" >"$tmp/out" 2>&1
st=$?
check "a corrupt model is refused" test $st != 0
check "with a clear message" grep -q 'checksum mismatch' "$tmp/out"

"$bin" zero selfplay --model "$tmp/run/best.tgnn" --games 3 --playouts 20 --out "$tmp/more" \
    >"$tmp/out" 2>&1
check "zero selfplay reports games/hour" grep -Eq '^selfplay: 3 games, .* games/hour' "$tmp/out"
"$bin" zero selfplay --model "$tmp/run/best.tgnn" --games 1 --out "$tmp/more" --temperature-moves 0 \
    >"$tmp/out" 2>&1
st=$?
check "zero selfplay refuses --temperature-moves 0" test $st = 2
check "... naming the option" grep -q -- '--temperature-moves' "$tmp/out"

# A run of the format-1 trainer (a one-value head) is refused by name, not by a traceback.
mkdir -p "$tmp/old" && cp "$tmp/run/state.json" "$tmp/old/" && "$py" -c "import sys, torch
ck = torch.load(sys.argv[1], map_location='cpu')
ck['net']['v_fc2.weight'] = ck['net']['v_fc2.weight'][:1]
ck['net']['v_fc2.bias'] = ck['net']['v_fc2.bias'][:1]
torch.save(ck, sys.argv[2])" "$tmp/run/checkpoint.pt" "$tmp/old/checkpoint.pt"
"$py" tools/zero/zero.py export "$tmp/old" "$tmp/old/m.tgnn" >"$tmp/out" 2>&1
st=$?
check "a format-1 checkpoint is refused" test $st = 1
check "... saying to start a new run" grep -q 'one-value head (model format 1).*start a new run' "$tmp/out"

# The built-in 8x8 freestyle network: the zero level plays out of the box.
printf 'd4\n' | "$bin" play --size 8 --white zero --plain >"$tmp/out" 2>&1
check "tengen play --size 8 --white zero answers with the built-in network" grep -q '^move 2: white ' "$tmp/out"
printf 'h8\n' | "$bin" play --size 15 --white zero --plain >"$tmp/out" 2>&1
check "on 15x15 the zero level says it has no network" grep -q 'no network model' "$tmp/out"

echo "zero: $pass passed, $fail failed"
[ "$fail" = 0 ]
