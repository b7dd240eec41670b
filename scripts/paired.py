#!/usr/bin/env python3
"""Two matches against the same opponent, compared game by game (docs/strength.md).

  paired.py BASE NEW [--engine PREFIX]

Each of BASE and NEW is one match: a folder written by scripts/match.sh (its games.sgf and
openings.txt) or an SGF file of c-gomoku-cli's, or several of either joined by commas, read as
one match in that order. The games of each part are numbered after those of the parts before
it: two games an opening of a folder's openings.txt (so a match stopped early keeps its
numbers), the highest game number of a bare SGF file.

Game k of one match and game k of the other start from the same opening with the same colours,
so where the opponent is deterministic (fixed nodes a move, one thread) a game's result changes
only where the tested engine's play does. The difference of the two scores, game by game, has
far less noise than the two scores apart: two 60-game matches that share 50 results differ by
a few points where their scores are each uncertain by twelve. When both matches are folders,
their openings must agree.

The tested engine is the player whose name starts with PREFIX (default "tengen"). Prints both
scores on the common games, the paired difference in points a game with its 95% interval,
and how many games kept their result.
"""
import argparse
import math
import os
import re
import sys


def fail(message):
    """Stops with the message, named after the script that runs (judgment.py reads games here too)."""
    sys.exit(f"{os.path.basename(sys.argv[0])}: {message}")


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")


def game_points(game, prefix, where):
    """The tested engine's points in one SGF game, with its game number."""
    number = re.search(r"GN\[(\d+)\]", game)
    black = re.search(r"PB\[([^\]]*)\]", game)
    white = re.search(r"PW\[([^\]]*)\]", game)
    result = re.search(r"RE\[([^\]]*)\]", game)
    if not (number and black and white and result):
        fail(f"{where}: a game without GN, PB, PW or RE")
    is_black = black.group(1).startswith(prefix)
    if is_black == white.group(1).startswith(prefix):
        fail(f"{where}: game {number.group(1)}: '{prefix}' names "
             f"{'both players' if is_black else 'neither player'}")
    won = result.group(1)[:2]
    points = 0.5 if won not in ("B+", "W+") else float((won == "B+") == is_black)
    return int(number.group(1)), points, is_black


def read_part(path, prefix):
    """One part: its games {number: (points, tested engine is Black)}, its number of game
    slots, and its openings (None for a bare SGF file)."""
    openings = None
    sgf = path
    if os.path.isdir(path):
        sgf = os.path.join(path, "games.sgf")
        openings = [line.strip() for line in read_text(os.path.join(path, "openings.txt"))
                    .splitlines() if line.strip()]
    games = {}
    for game in read_text(sgf).split("(;")[1:]:
        number, points, is_black = game_points(game, prefix, sgf)
        games[number] = (points, is_black)
    slots = 2 * len(openings) if openings is not None else max(games, default=0)
    return games, slots, openings


def read_match(spec, prefix):
    games, offset, openings = {}, 0, []
    for path in spec.split(","):
        part, slots, part_openings = read_part(path, prefix)
        for number, value in part.items():
            games[number + offset] = value
        offset += slots
        openings = None if part_openings is None or openings is None else openings + part_openings
    return games, openings


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base", help="the match compared against (folders or SGF files, comma-joined)")
    parser.add_argument("new", help="the match of the change")
    parser.add_argument("--engine", default="tengen", help="the tested engine's name prefix")
    args = parser.parse_args()

    base, base_openings = read_match(args.base, args.engine)
    new, new_openings = read_match(args.new, args.engine)
    if base_openings is not None and new_openings is not None:
        for i, (a, b) in enumerate(zip(base_openings, new_openings), 1):
            if a != b:
                fail(f"the matches' openings differ at opening {i}: {a} and {b}")
    common = sorted(set(base) & set(new))
    for k in common:
        if base[k][1] != new[k][1]:
            fail(f"game {k}: the tested engine is Black in one match and White in the other "
                 "(are the parts in the same order?)")
    if len(common) < 2:
        fail("fewer than two game numbers in common")

    n = len(common)
    diffs = [new[k][0] - base[k][0] for k in common]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    same = sum(1 for d in diffs if d == 0)

    def score(games):
        total = sum(games[k][0] for k in common)
        as_black = sum(games[k][0] for k in common if games[k][1])
        blacks = sum(1 for k in common if games[k][1])
        return (f"{total:g} of {n} ({100 * total / n:.1f}%; as Black {as_black:g} of {blacks}, "
                f"as White {total - as_black:g} of {n - blacks})")

    print(f"base: {score(base)}")
    print(f"new:  {score(new)}")
    print(f"new - base: {100 * mean:+.1f} points a game (95%: {100 * (mean - half):+.1f} .. "
          f"{100 * (mean + half):+.1f}); the same result in {same} of {n} games")


if __name__ == "__main__":
    main()
