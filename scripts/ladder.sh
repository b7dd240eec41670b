#!/bin/sh
# ladder.sh — measures every level that can play freestyle 15x15 on one rating scale and writes
# docs/ladder.txt (the table), docs/ladder.svg (the picture) and docs/ladder.games (every game):
# the levels in the order of their current ratings (tg_levels_weakest_first; a level not rated
# yet comes last), each playing its neighbours 40 games (20 openings of
# data/openings/freestyle-15.txt, each with colours swapped), max at 1 000 000 nodes a move,
# and one Bradley-Terry fit rates them all, beginner = 0. A level that cannot play the board
# (zero without a network for it) is skipped. Node budgets make the result the same on any
# machine under any load (on two busy cores it took about half an hour). The ratings are then
# copied into RATINGS in src/core/engine.c, from where every front end shows them; a new level
# goes where its first rating puts it, and a second run checks its neighbours.
#
# usage: sh scripts/ladder.sh [more tengen ladder options, e.g. --jobs 4 or --games 20]
set -e
cd "$(dirname "$0")/.."
make -s build/tengen
exec nice build/tengen ladder --games 40 --jobs 2 --max-nodes 1000000 \
    --openings data/openings/freestyle-15.txt --out docs/ladder --quiet "$@"
