#!/bin/sh
# ladder.sh — measures every level on one rating scale and writes docs/ladder.txt (the table),
# docs/ladder.svg (the picture) and docs/ladder.games (every game): each level plays its
# neighbours in strength 60 games (30 openings of data/openings/freestyle-15.txt, each
# with colours swapped), max at 1 000 000 nodes a move, and one Bradley-Terry fit rates them
# all, beginner = 0. Node budgets make the result the same on any machine under any load (on
# two busy cores it took 42 minutes). The ratings are then copied into RATINGS in
# src/core/engine.c, from where every front end shows them.
#
# usage: sh scripts/ladder.sh [more tengen ladder options, e.g. --jobs 4 or --games 20]
set -e
cd "$(dirname "$0")/.."
make -s build/tengen
exec nice build/tengen ladder --games 60 --jobs 2 --max-nodes 1000000 \
    --openings data/openings/freestyle-15.txt --out docs/ladder --quiet "$@"
