#!/bin/sh
# run.sh — `tengen play` driven as a player would: scripted --plain games (a game to its end
# against every level, undo and redo, save and load, renju refusals, bad input, draw offers,
# clocks, hints, replay) and the ncurses screen in a detached tmux (keys, typed points, mouse,
# undo, a finished game, the help screen, resizing, Chinese).
# usage: sh tests/play/run.sh path/to/tengen
bin=${1:?usage: $0 path/to/tengen}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
tmp=$(mktemp -d) || exit 1
sock=tmux-0  # the tmux server's socket, under $tmp so that nothing is left behind
trap 'tmux -S "$tmp/$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0 fail=0
start=$(date +%s)

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $1" >&2; [ -f "$tmp/out" ] && sed 's/^/    /' "$tmp/out" | tail -40 >&2; }
# check NAME COMMAND...: passes when the command succeeds.
check() { name=$1; shift; if "$@"; then ok; else bad "$name"; fi; }
has() { grep -Eq -- "$1" "$tmp/out"; }
lacks() { ! grep -Eq -- "$1" "$tmp/out"; }

# plain ARGS...: a --plain game in English, stdin from the caller, output in $tmp/out. A
# sanitizer's report (SAN=1, SAN=thread builds) fails the run wherever it appears.
# plain often runs at the end of a pipeline, in a subshell, so reports are kept in a file.
plain() {
    "$bin" play --plain --lang en "$@" >"$tmp/out" 2>&1
    st=$?
    if grep -Eq 'Sanitizer|runtime error' "$tmp/out"; then
        echo "play --plain $*:" >>"$tmp/sanitizer"
        cat "$tmp/out" >>"$tmp/sanitizer"
    fi
    return $st
}
lines() { printf '%s\n' "$@"; }

# Points with both coordinates even (1-based) never touch each other: a side playing only
# these never makes two in a row, so the computer must win. Ordered from the centre out.
lattice=""
for r in 8 6 10 4 12 2 14; do for c in h f j d l b n; do lattice="$lattice $c$r"; done; done

# ---- Plain: a game to its end against each level ----------------------------------------

for level in beginner easy medium "hard --time 100" "max --time 100"; do
    # shellcheck disable=SC2086 # $level holds the level and its options
    lines $lattice | plain --black human --white $level
    check "plain: white $level exits 0" test $? = 0
    check "plain: white $level wins with five" has '^game over: White wins with five in a row \([a-o][0-9]+-[a-o][0-9]+\)$'
    check "plain: white $level moves are numbered" has '^move 2: white [a-o][0-9]+'
done

lines $lattice | plain --black medium --white human
check "plain: the computer as Black wins" has '^game over: Black wins with five'
check "plain: the computer opens" has '^move 1: black [a-o][0-9]+'

plain --black easy --white medium </dev/null
check "plain: computer against computer plays to a result" has '^game over: '

lines pause moves step moves | plain --black easy --white easy
check "plain: pause holds the computers" has '^paused$'
check "plain: step makes one move" awk '/^([a-o][0-9]+ ?)+$|^no moves$/ { n[++k] = ($0 == "no moves") ? 0 : NF }
    END { exit !(k == 2 && n[2] == n[1] + 1) }' "$tmp/out"

# ---- Plain: undo and redo ----------------------------------------------------------------

lines h8 i9 j10 undo moves redo moves | plain --black human --white human
check "plain: undo takes back one move between humans" has '^took back 1 move\(s\)$'
check "plain: the moves after undo" has '^h8 i9$'
check "plain: redo plays it again" has '^replayed 1 move\(s\)$'
check "plain: the moves after redo" has '^h8 i9 j10$'

lines h8 undo moves redo moves undo undo | plain --black human --white easy
check "plain: undo against the computer takes back the pair" has '^took back 2 move\(s\)$'
check "plain: nothing left after the pair" has '^no moves$'
check "plain: redo brings back the pair" has '^replayed 2 move\(s\)$'
check "plain: nothing to undo at the start" has '^error: nothing to undo$'

# ---- Plain: save, load, compare ----------------------------------------------------------

game="h8 i9 h9 h10 g8 i8 i10 f7"
for ext in psq sgf txt; do
    # shellcheck disable=SC2086
    lines $game "save $tmp/game.$ext" board | plain --black human --white human
    check "plain: save .$ext" has "^saved $tmp/game.$ext\$"
    tail -16 "$tmp/out" >"$tmp/before"
    lines board "new" "load $tmp/game.$ext" moves board | plain --black human --white human
    check "plain: load .$ext" has "^loaded $tmp/game.$ext: 8 moves"
    check "plain: load .$ext gives the moves back" has "^$game\$"
    tail -16 "$tmp/out" >"$tmp/after"
    check "plain: load .$ext gives the same board" cmp -s "$tmp/before" "$tmp/after"
done
check "plain: the PSQ file is a Piskvork record" grep -q '^Piskvorky 15x15' "$tmp/game.psq"

lines "load $tmp/game.psq" first next next moves play j10 moves | plain --black human --white human
check "plain: replay steps through the record" has '^replay: move 2 of 8$'
check "plain: replay shows the position at that move" has '^h8 i9$'
check "plain: play continues from the replayed move" has '^move 3: black j10$'

printf 'Piskvorky 15x15\nthis is not a record\n' >"$tmp/bad.psq"
lines h8 "load $tmp/bad.psq" "load $tmp/missing.sgf" "save $tmp/x.doc" moves | plain --black human --white human
check "plain: a corrupt record is refused" has "^error: cannot load $tmp/bad.psq: "
check "plain: a missing file is refused" has "^error: cannot load $tmp/missing.sgf: "
check "plain: an unknown format is refused" has "^error: unknown record format '$tmp/x.doc'"
check "plain: a refused load changes nothing" has '^h8$'

# ---- Plain: rules and bad input ------------------------------------------------------------

lines h8 a1 i8 a3 j9 a5 j10 a7 j8 moves board | plain --rule renju --black human --white human
check "plain: renju refuses Black's double-three" has '^error: j8 is forbidden for Black \(double-three\)$'
check "plain: the refused move changes nothing" has '^h8 a1 i8 a3 j9 a5 j10 a7$'
check "plain: the board marks the forbidden point" has '^ 8 .* X X ! \. '

lines h8 h8 z99 a0 foo h8x "" i9 moves | plain --black human --white human
check "plain: an occupied point is refused" has '^error: h8 is occupied$'
check "plain: a point off the board is refused" has '^error: z99 is not on the 15x15 board$'
check "plain: row 0 is off the board" has '^error: a0 is not on the 15x15 board$'
check "plain: an unknown command is refused" has "^error: unknown command 'foo'"
check "plain: garbage is refused" has "^error: 'h8x' is neither a point nor a command"
check "plain: bad input changes nothing" has '^h8 i9$'

lines "new --rule gomoku" "new --size 99" "new --rule renju --size 13 --white human" h8 \
    | plain --black human --white human
check "plain: new refuses a bad rule" has "^error: bad value 'gomoku' for --rule$"
check "plain: new refuses a bad size" has "^error: bad value '99' for --size$"
check "plain: new starts the game asked for" has '^new game: renju 13x13, Black human, White human$'
check "plain: the new board is 13x13" has '^13 \. '

"$bin" play --plain --rule gomoku </dev/null >"$tmp/out" 2>&1
check "plain: a bad option fails" test $? = 2
check "plain: a bad option is named" has "bad value 'gomoku' for --rule"

# ---- Plain: the zero level with a network from a file (--model) ---------------------------

"$bin" zero init --out "$tmp/m9.tgnn" --size 9 --channels 8 --blocks 1 >/dev/null 2>&1
lines e5 | plain --size 9 --black human --white zero --model "$tmp/m9.tgnn"
check "plain: --model plays the zero level on its board" has '^move 2: white [a-i][1-9]'
lines e5 | plain --size 8 --black human --white zero --model "$tmp/m9.tgnn"
check "plain: a model for another board is refused at start" test $? = 1
check "plain: ... saying which board it is for" \
    has "the zero level's network \(--model\) is for freestyle 9x9, not freestyle 8x8"
lines e5 "new --size 8" moves | plain --size 9 --black human --white zero --model "$tmp/m9.tgnn"
check "plain: new refuses a board the model is not for" has "^error: the zero level's network"
check "plain: ... and the game goes on" has '^e5 [a-i][1-9]$'
printf 'junk' >"$tmp/bad.tgnn"
plain --size 9 --white zero --model "$tmp/bad.tgnn" </dev/null
check "plain: a bad model file is refused at start" test $? = 1
check "plain: ... with the reason" has "bad.tgnn: not a tengen model file"
printf '(;FF[4]GM[4]SZ[15];B[hh];W[ii])' >"$tmp/g15.sgf"
lines moves | plain --size 9 --black human --white zero --model "$tmp/m9.tgnn" --load "$tmp/g15.sgf"
check "plain: loading a record of another board tells the model does not fit" \
    has "^error: the zero level's network \(--model\) is for freestyle 9x9, not freestyle 15x15"
check "plain: ... and the record is loaded" has '^h8 i7$'
lines h8 | plain --size 15 --black human --white zero
check "plain: no built-in network for 15x15: refused at start" \
    has 'the zero level has no network model for freestyle 15x15 \(built in: freestyle 8x8'

# ---- Plain: resign, draws, hints, clocks, language ----------------------------------------

lines h8 resign undo moves | plain --black human --white easy
check "plain: resign ends the game" has '^game over: Black resigns, White wins$'
check "plain: undo takes the resignation back" has '^the result is taken back$'

lines h8 draw moves | plain --black human --white hard
check "plain: the computer declines a draw in the opening" has '^White declines the draw$'

lines draw | plain --black human --white hard --moves "h8 a1 h9 a3 h10 a5 h11"
check "plain: the computer accepts a draw when losing" has '^game over: draw by agreement$'

lines h8 draw n draw y | plain --black human --white human
check "plain: a human declines a draw" has '^Black declines the draw$'
check "plain: a human accepts a draw" has '^game over: draw by agreement$'

t0=$(date +%s)
(echo h8; sleep 1; echo now; echo moves) | plain --black human --white max --time 30000
check "plain: now makes the computer move at once" has '^moving now$'
check "plain: ... with the move it had" has '^move 2: white [a-o][0-9]+'
check "plain: ... long before its 30 s" test $(($(date +%s) - t0)) -lt 15

lines h8 i9 hint | plain --black human --white human
check "plain: a hint gives a move, a score and a line" has '^hint: [a-o][0-9]+ \((win in [0-9]+|loss in [0-9]+|[-+][0-9]+)\), line [a-o][0-9]+'

(echo h8; sleep 2.5; echo i9) | plain --black human --white human --clock 1
check "plain: the side whose time runs out loses" has '^game over: White ran out of time, Black wins$'

plain --black hard --white medium --clock 3+0.1 </dev/null
check "plain: the computer plays on a clock" has '^game over: '
check "plain: the computer does not lose on time" lacks 'ran out of time'

lines h8 | "$bin" play --plain --lang zh --black human --white easy >"$tmp/out" 2>&1
check "plain: Chinese texts" has '^第1手：黑 h8$'
check "plain: Chinese header" has '黑方：玩家，白方：电脑（简单）'

# ---- Plain: opening rules, played through by scripted sides --------------------------------

# opening RULE LINES...: two humans play the opening phase under RULE (renju 15x15).
opening() { rule=$1; shift; lines "$@" moves | plain --rule renju --opening "$rule" --black human --white human; }

opening swap1 h8 stay
check "swap1: the header names the players and colours" has '^tengen play: renju 15x15, opening swap1, Player 1 \(human\) — Black, Player 2 \(human\) — White$'
check "swap1: the step asks player 2 to choose" has "^Player 2 \(human\), White: choose stay \(keep White\), swap \(take Black\)$"
check "swap1: stay ends the phase" has '^opening over: swap1 h8 stay; White to move$'
opening swap1 h8 swap i9 moves
check "swap1: swap trades colours" has '^now Player 1 \(human\) — White, Player 2 \(human\) — Black$'
check "swap1: play goes on after the swap" has '^move 2: white i9$'

opening swap h8 h9 j10 stay
check "swap: three stones, then stay" has '^opening over: swap h8 h9 j10 stay; White to move$'
opening swap h8 h9 j10 swap
check "swap: three stones, then swap" has '^opening over: swap h8 h9 j10 swap; White to move$'

opening swap2 h8 h9 j10 "take black"
check "swap2: take black is a swap" has '^opening over: swap2 h8 h9 j10 swap; White to move$'
opening swap2 h8 h9 j10 "take white"
check "swap2: take white is a stay" has '^opening over: swap2 h8 h9 j10 stay; White to move$'
opening swap2 h8 h9 j10 place-two g7 g9 "choose stay"
check "swap2: place-two, then player 1 stays" has '^opening over: swap2 h8 h9 j10 place-two g7 g9 stay; White to move$'
check "swap2: the place-two step" has "^Player 1 \(human\), Black: choose stay \(keep Black\), swap \(take White\)$"
opening swap2 h8 h9 j10 "choose place-two" g7 g9 "take white"
check "swap2: place-two, then player 1 takes White" has '^opening over: swap2 h8 h9 j10 place-two g7 g9 swap; White to move$'

opening rif j11 h8 h9 k12 f9 stay stay j9 "offer g11" i7 "select g9" i7
check "rif: move 1 outside the centre is refused" has '^error: move 1 goes on the centre point$'
check "rif: move 3 outside the 5x5 is refused" has '^error: k12 is outside the central 5x5 square$'
check "rif: a choice at the wrong step is refused" has '^error: the opening asks for placing a stone, not a choice$'
check "rif: the offer step" has '^Player 1 \(human\), Black: offer a 5th move \(2 more, none symmetric\)$'
check "rif: the select step" has '^Player 2 \(human\), White: select the 5th move from g11 i7$'
check "rif: a point not offered cannot be selected" has '^error: g9 is not one of the offered 5th moves$'
check "rif: the selection ends the phase" has '^opening over: rif h8 h9 f9 stay j9 g11 i7 i7; White to move$'
opening rif h8 h9 h10 swap h7 g11 g11 i11
check "rif: a symmetric offer is refused" has '^error: i11 is symmetric to the offer g11$'
check "rif: the same offer twice is refused" has '^error: g11 is already offered$'

opening yamaguchi h8 h9 h10 "declare 99" "declare 3" swap i10 g11 i7 g7 i7
check "yamaguchi: a declaration out of range is refused" has '^error: .*99'
check "yamaguchi: the declaration step" has '^Player 1 \(human\), Black: declare how many 5th moves to offer \(1-10\)$'
check "yamaguchi: three offers, then the selection" has '^opening over: yamaguchi h8 h9 h10 3 swap i10 g11 i7 g7 i7; White to move$'

opening soosorv8 h8 h9 h10 swap i10 "declare 2" stay g11 i7 i7
check "soosorv8: swap, move 4, N, swap, offers, selection" has '^opening over: soosorv8 h8 h9 h10 swap i10 2 stay g11 i7 i7; White to move$'

opening taraguchi10 h8 stay g9 swap i7 stay g8 stay c3 j10 swap
check "taraguchi10: move 5 outside the 9x9 is refused" has '^error: c3 is outside the central 9x9 square$'
check "taraguchi10: move 5 in the 9x9, then a swap" has '^opening over: taraguchi10 h8 stay g9 swap i7 stay g8 stay j10 swap; White to move$'
opening taraguchi10 h8 swap g9 stay i7 swap g8 offer g7 h7 h6 j8 i6 g10 k9 i8 i5 g5 i8
check "taraguchi10: the offer branch" has '^opening over: taraguchi10 h8 swap g9 stay i7 swap g8 offer g7 h7 h6 j8 i6 g10 k9 i8 i5 g5 i8; White to move$'

# The computer keeps moving after a swap gave it the other colour (its level belongs to its
# player, not to a colour), as player 1 and as player 2, to a result.
for rule in swap1 swap swap2 rif; do
    lines swap $lattice | plain --rule renju --opening "$rule" --black easy --white human
    check "$rule: player 2 swaps, the computer plays White" has '^now Player 1 \(computer \(easy\)\) — White, Player 2 \(you\) — Black$'
    check "$rule: the computer as player 1 plays to a result after a swap" has '^game over: '
done
lines f8 h8 j8 $lattice | plain --rule renju --opening swap --black human --white easy
check "swap: the computer as player 2 plays to a result" has '^game over: '

opening swap2 h8 h9 j10 place-two undo "take black" i10 undo undo undo g6 "take black"
check "undo takes back opening actions" has '^took back 1 opening action\(s\)$'
check "undo: the phase goes on after it" has '^opening over: swap2 h8 h9 g6 swap; White to move$'

opening swap2 "take purple" "declare" "declare x" "select" "select zz" "offer q99" pass hint resign h8 "select h8" h9 j10
check "bad opening input is named" has "^error: 'choose' needs stay\|swap\|place-two\|offer\|black\|white$"
check "bad opening input: a bad point" has '^error: q99 is not on the 15x15 board$'
check "bad opening input: no hint or resigning in the opening" has '^error: not during the opening$'
check "bad opening input changes nothing" has '^h8 h9 j10$'

# Against the computer: it decides its steps (swap2 as player 2, RIF as player 2).
lines h8 h9 j10 "choose stay" $lattice | plain --rule renju --opening swap2 --black human --white easy --seed 3
check "swap2 vs easy: the computer decides" has '^opening: Player 2 \(computer \(easy\)\) (chooses|places)'
check "swap2 vs easy: its reason is shown" has '^\(engine: .+\)$'
check "swap2 vs easy: the phase ends" has '^opening over: swap2 h8 h9 j10 '
check "swap2 vs easy: the game goes on to a result" has '^game over: '
# The computer may stay (and select among the human's offers) or swap (and offer its own 5th
# moves, which the human selects): the points of the centre select whichever it offers, or are
# played on as moves, so the game goes on either way.
centre=$(for c in f g h i j k; do for r in 6 7 8 9 10 11 12; do printf '%s%s ' $c $r; done; done)
lines h8 h9 j10 i10 "offer g11" "offer l12" "offer d4" "offer m3" $centre $lattice | plain --rule renju --opening rif --black human --white easy --seed 3
check "rif vs easy: the computer decides" has '^opening: Player 2 \(computer \(easy\)\) '
check "rif vs easy: the phase ends" has '^opening over: rif h8 h9 j10 '
check "rif vs easy: the game goes on" has '^move 6: '

lines h8 i10 undo undo moves | plain --rule renju --opening swap1 --black human --white easy --seed 3
check "swap1 vs easy: the computer swaps" has '^now Player 1 \(you\) — White, Player 2 \(computer \(easy\)\) — Black$'
check "swap1 vs easy: ... and plays its player's colour" has '^move 3: black [a-o][0-9]+'
check "undo vs the computer: the pair of moves" has '^took back 2 move\(s\)$'
check "undo vs the computer: back into the opening" has '^took back 2 opening action\(s\)$'
check "undo vs the computer: the board is empty again" has '^no moves$'

# Start positions.
lines moves | plain --rule renju --renju-opening 2I --black human --white human
check "--renju-opening 2I: the start is named" has '^start: 2I Kyogetsu 峡月 \(h8 i9 j9\)$'
check "--renju-opening 2I: three stones" has '^h8 i9 j9$'
lines moves | plain --rule renju --opening rif --renju-opening 花月 --black human --white human
check "--renju-opening 花月 under rif: player 2 chooses next" has "^Player 2 \(human\), White: choose stay"
lines moves | plain --rule renju --renju-opening random --seed 7 --black human --white human
check "--renju-opening random: one of the 26" has '^start: [0-9]+[DI] '
lines moves | plain --rule renju --balanced --black human --white human
check "--balanced: the start and its score" has '^balanced start: [a-o][0-9]+ [a-o][0-9]+ [a-o][0-9]+ \(score '
"$bin" play --list-openings >"$tmp/out"
check "--list-openings: the 26" test "$(wc -l <"$tmp/out")" = 26
check "--list-openings: codes and both names" has '^4D +Kagetsu +花月 h8 h9 i9'
lines | plain --opening taraguchi10 --renju-opening 2I
check "a start needs a rule that places three stones" has 'cannot start from three stones'

# Records keep the phase.
lines h8 h9 j10 "take white" i10 "save $tmp/op.sgf" | plain --rule renju --opening swap2 --black human --white human
check "save: the SGF holds the opening line" grep -q 'OPENING\[swap2 h8 h9 j10 stay\]' "$tmp/op.sgf"
lines moves | plain --load "$tmp/op.sgf"
check "load: the opening is shown" has '^opening: swap2 h8 h9 j10 stay$'

# Loading gives the phase back: a record saved mid-opening resumes at its step...
lines h8 h9 f9 stay j9 "offer g11" "save $tmp/mid.sgf" | plain --rule renju --opening rif --black human --white human
lines "offer i7" "select i7" | plain --load "$tmp/mid.sgf" --black human --white human
check "load mid-opening: the header names the players" has '^tengen play: renju 15x15, opening rif, Player 1 \(human\) — Black, Player 2 \(human\) — White$'
check "load mid-opening: the phase resumes at its step" has '^Player 1 \(human\), Black: offer a 5th move \(1 more, none symmetric\)$'
check "load mid-opening: ... and goes on to its end" has '^opening over: rif h8 h9 f9 stay j9 g11 i7 i7; White to move$'
lines "load $tmp/mid.sgf" moves | plain --black human --white easy
check "load command mid-opening: says the phase goes on" has "^loaded $tmp/mid.sgf: 4 moves, saved during the opening: it goes on\$"
check "load command mid-opening: the players" has '^players: Player 1 \(you\) — Black, Player 2 \(computer \(easy\)\) — White$'
check "load command mid-opening: the step" has '^Player 1 \(you\), Black: offer a 5th move \(1 more, none symmetric\)$'

# ... and a finished one the colours its players hold: here player 2 (human) swapped to Black
# against the computer, so with --black human --white easy the computer (player 2) is Black.
lines swap "offer a1" "offer o15" "save $tmp/swap.sgf" \
    | plain --rule renju --opening rif --renju-opening 花月 --black easy --white human --seed 3
check "save: a RIF with a swap against the computer" grep -Eq 'OPENING\[rif h8 h9 i9 swap [a-o][0-9]+ a1 o15 (a1|o15)\]' "$tmp/swap.sgf"
lines play moves | plain --load "$tmp/swap.sgf" --black human --white easy --seed 3
check "load after a swap: the header" has '^tengen play: renju 15x15, opening rif, Player 1 \(you\) — White, Player 2 \(computer \(easy\)\) — Black$'
check "load after a swap: the computer plays its player's colour" has '^move 7: black [a-o][0-9]+'
check "load after a swap: ... and then it is the human's turn" has '^White to move$'
lines "goto 4" play | plain --load "$tmp/swap.sgf" --black human --white easy
check "replay: playing on inside the opening resumes the phase" has '^Player 1 \(you\), White: select the 5th move from a1 o15$'

# A line that does not fit is named, and the record loads as a plain game (colours as such).
sed 's/OPENING\[[^]]*\]/OPENING[rif h8 zz99 swap]/' "$tmp/swap.sgf" >"$tmp/bad-op.sgf"
sed 's/OPENING\[[^]]*\]/OPENING[swap2 h8 h9 j9 stay]/' "$tmp/swap.sgf" >"$tmp/odd-op.sgf"
lines play moves "load $tmp/odd-op.sgf" "save $tmp/odd-again.sgf" | plain --load "$tmp/bad-op.sgf" --black human --white easy
check "bad OPENING[]: named" has '^the record.s opening is not restored \(at "zz99": "zz99" is not a point\): loaded as a plain game$'
check "bad OPENING[]: a plain game, Black is the human" has '^tengen play: renju 15x15, Black: human, White: computer \(easy\)$'
check "bad OPENING[]: ... to move" has '^Black to move$'
check "bad OPENING[]: ... and the computer waits" lacks '^move 7'
check "OPENING[] not matching the moves: named" has '^the record.s opening is not restored \(it does not fit the record.s moves\): loaded as a plain game$'
check "OPENING[] not matching the moves: not saved again" sh -c "! grep -q OPENING '$tmp/odd-again.sgf'"

lines h8 | "$bin" play --plain --lang zh --opening swap1 --black human --white human >"$tmp/out" 2>&1
check "zh: the step in Chinese" has '^玩家2（玩家），白方：请选择'

# ---- The ncurses screen in tmux ------------------------------------------------------------

if ! command -v tmux >/dev/null 2>&1; then
    echo "play: tmux is missing, the screen tests are skipped (apt-get install tmux)" >&2
    fail=$((fail + 1))
else
    T() { tmux -S "$tmp/$sock" -f /dev/null "$@"; }
    # screen ARGS...: starts `tengen play ARGS` in a fresh 80x24 terminal.
    # Each screen gets its own tmux server: a server still exiting cannot take the new one.
    screen() {
        T kill-server 2>/dev/null
        sock=${sock%-*}-$((${sock##*-} + 1))
        T new-session -d -x "${W:-80}" -y "${H:-24}" \
            "env LANG=C.UTF-8 TERM=tmux-256color $bin play $* 2>>$tmp/screen.err; echo \"exit=\$?\"; sleep 30"
    }
    # wait_for TEXT [SECONDS]: until the screen shows TEXT; the screen ends in $tmp/out.
    wait_for() {
        i=0
        while [ $i -lt $((${2:-5} * 10)) ]; do
            T capture-pane -p >"$tmp/out" 2>/dev/null
            grep -Fq -- "$1" "$tmp/out" && return 0
            sleep 0.1
            i=$((i + 1))
        done
        return 1
    }
    keys() { T send-keys "$@"; }
    # row N: the screen line of board row N (15x15: row 15 is line 2).
    row() { sed -n "$((17 - $1))p" "$tmp/out"; }

    screen --lang en --black human --white human
    check "screen: the board is drawn" wait_for "   a b c d e f g h i j k l m n o"
    check "screen: row labels on both sides" has '^15 · .* · 15 '
    check "screen: star points" has '^12 · · · \+ '
    check "screen: the help line" has '\?:help :type h8 Enter:place u:undo'
    check "screen: the rule is shown" has 'tengen  freestyle 15x15'
    keys Enter
    check "screen: Enter places at the centre" wait_for "move 1: black h8"
    check "screen: the stone is drawn" sh -c "sed -n 9p '$tmp/out' | grep -q '^ 8 .*●'"
    keys : i 9 Enter
    check "screen: a typed point is played" wait_for "move 2: white i9"
    check "screen: the white stone is drawn" sh -c "sed -n 8p '$tmp/out' | grep -q '^ 9 .*○'"
    keys j Enter
    check "screen: j moves the cursor down" wait_for "move 3: black h7"
    keys u
    check "screen: u undoes" wait_for "took back 1 move(s)"
    check "screen: the undone stone is gone" sh -c "sed -n 10p '$tmp/out' | grep -vq '●'"
    keys k Enter
    check "screen: an occupied point is refused" wait_for "h8 is occupied"
    keys : z 9 9 Enter
    check "screen: a point off the board is refused" wait_for "z99 is not on the 15x15 board"
    keys Z
    check "screen: an unknown key is named" wait_for "unknown key: ? lists the keys"
    keys '?'
    check "screen: ? shows the keys" wait_for "move the cursor"
    keys x
    check "screen: any key closes the help" sh -c "sleep 0.3; tmux -S '$tmp/$sock' capture-pane -p | grep -vq 'move the cursor'"
    for p in h7 a1 h6 a2 h5 a3 h4; do keys ":$p" Enter; done
    check "screen: a finished game says who won" wait_for "game over: Black wins with five in a row (h8-h4)"
    keys q
    check "screen: q quits" wait_for "exit=0"

    # s proposes a file name that typing replaces; q asks before leaving a game in progress.
    screen --lang en --black human --white human
    wait_for "a b c d e" >/dev/null
    keys Enter
    wait_for "move 1: black h8" >/dev/null
    keys s
    check "screen: s proposes a file name" wait_for "save tengen-"
    keys -l "$tmp/typed.psq"
    keys Enter
    check "screen: a typed name replaces the proposal" wait_for "saved "
    check "screen: ... and the game is saved there" test -s "$tmp/typed.psq"
    keys s BSpace
    keys -l "$tmp/again.psq"
    keys Enter
    check "screen: Backspace clears the proposal" wait_for "again.psq"
    check "screen: ... and the typed name is used" test -s "$tmp/again.psq"
    keys q
    check "screen: q asks in a game in progress" wait_for "Quit the game in progress? It is not saved"
    keys n
    check "screen: n keeps playing" sh -c "sleep 0.3; tmux -S '$tmp/$sock' capture-pane -p | grep -vq 'exit='"
    keys q y
    check "screen: y quits" wait_for "exit=0"

    screen --lang en --black human --white easy --ascii
    wait_for "a b c d e" >/dev/null
    T send-keys -H 1b 5b 4d 20 34 28  # a left click on i9 (column 19, line 7)...
    T send-keys -H 1b 5b 4d 23 34 28  # ...and its release
    check "screen: the computer answers a mouse click" wait_for "move 2: white"
    check "screen: the click played i9 (--ascii: X and O)" \
        awk 'NR == 8 { found = substr($0, 1, 2) == " 9" && substr($0, 19, 3) == "[X]" }
             END { exit !found }' "$tmp/out"
    check "screen: the click says what it played" has 'last: |move 1: black i9' 
    keys u
    check "screen: undo against the computer takes the pair" wait_for "took back 2 move(s)"
    keys q

    screen --lang en --black hard --white hard --time 300
    check "screen: computer against computer shows the search" wait_for "nodes" 5
    keys p
    check "screen: p pauses the computers" wait_for "paused, "
    keys q

    W=50 H=15 screen --lang en
    check "screen: a terminal too small says so" wait_for "The terminal is 50x15; the 15x15 board needs at"
    check "screen: ... and what it needs" has 'least 64x19\. Enlarge it, or press q to quit\.' 
    T resize-window -x 80 -y 24
    check "screen: the board appears after a resize" wait_for "   a b c d e f g h i j k l m n o"
    keys q

    screen --lang zh --rule renju --black human --white human --moves "h8a1i8a3j9a5j10a7"
    check "screen: Chinese texts" wait_for "轮到黑方"
    check "screen: forbidden points are marked" sh -c "sed -n 9p '$tmp/out' | grep -q '●\]● ×'"
    keys : j 8 Enter
    check "screen: a forbidden point is refused" wait_for "j8是黑方禁手（三三）"
    keys q

    # The opening phase: the step on the status line, the highlighted square, offers marked.
    screen --lang en --rule renju --opening rif --black human --white human
    check "screen: the title names the opening rule" wait_for "tengen  renju 15x15 rif"
    check "screen: the panel names the players" has 'Black: Player 1 \(human\)'
    keys Enter k Enter
    check "screen: the status line shows the step" wait_for "Player 1 (human), Black: place move 3 (black) in the central 5x5"
    check "screen: ... on the status line" sh -c "sed -n 23p '$tmp/out' | grep -q '^Player 1 (human), Black: place move 3'"
    T capture-pane -e -p >"$tmp/out"
    check "screen: the central 5x5 is highlighted" sh -c "sed -n 7p '$tmp/out' | grep -q '46m'"
    check "screen: ... and nothing outside it" sh -c "sed -n 6p '$tmp/out' | grep -vq '46m'"
    keys :j10 Enter c stay Enter
    check "screen: c types a choice" wait_for "opening: Player 2 (human) chooses stay (keep White)"
    keys :i10 Enter :g11 Enter
    check "screen: an offered 5th move is marked" wait_for "◇"
    keys q

    screen --lang en --rule renju --black human --white human
    wait_for "a b c d e" >/dev/null
    keys n k k k k k l l l l j l l l l  # the menu: opening rif, start from 2D
    check "screen: the menu has the opening rule and start" wait_for "Start from < 2D Keigetsu 溪月 >"
    check "screen: ... and names the players" has 'Player 1 +< human >'
    keys Enter
    check "screen: the menu starts the opening" wait_for "tengen  renju 15x15 rif"
    check "screen: ... from 2D, player 2 to choose" wait_for "Player 2 (human), White: choose stay"
    keys q

    screen --lang en --black human --white human
    wait_for "a b c d e" >/dev/null
    keys n k k l # the menu: White, one step from human: the weakest level
    check "screen: the menu offers mcts first" wait_for "computer (mcts) — about"
    check "screen: ... as points below beginner" has 'computer \(mcts\) — about [0-9]+ below beginner >'
    keys l
    check "screen: the menu offers the beginner" wait_for "< computer (beginner) >"
    keys l l
    check "screen: the menu shows a level's rating" wait_for "computer (medium) — about"
    check "screen: ... as points above beginner" has 'computer \(medium\) — about [0-9]+ above beginner >'
    keys q

    screen --lang en --load "$tmp/op.sgf"
    check "screen: a loaded record shows its opening" wait_for "tengen  renju 15x15 swap2 h8 h9 j10 stay"
    keys q

    screen --lang en --load "$tmp/swap.sgf" --black human --white easy
    check "screen: a loaded swap gives the players their colours" wait_for "Black: Player 2 (computer (easy))"
    check "screen: ... and the human White" has 'White: Player 1 \(you\)'
    keys q
    T kill-server 2>/dev/null
    check "screen: nothing on stderr" test ! -s "$tmp/screen.err"
    [ -s "$tmp/screen.err" ] && head -20 "$tmp/screen.err" >&2
fi

check "plain: no sanitizer report" test ! -s "$tmp/sanitizer"
[ -s "$tmp/sanitizer" ] && head -40 "$tmp/sanitizer" >&2

echo "play: $pass passed, $fail failed ($(($(date +%s) - start)) s)"
[ $fail = 0 ]
