#!/usr/bin/env python3
"""Random openings that tengen's own search judges close to even, for matches (docs/strength.md).

  balanced_openings.py --rule R --count N [--seed S] [--nodes N] [--centre C] [--margin M]
                       [--tengen BIN] > data/openings/R-balanced-N.txt

Draws random openings of 2-6 stones near the centre (import_games.py's generator: none alike
up to the board's symmetries), searches each with `tengen analyze --nodes N --json`, and keeps
those whose score from Black's view lies within C +- M (default 0 +- 40, about 0.45-0.55 on the
freestyle evaluation's scale). Prints them one a line in h8 notation, as match.sh reads them,
and a summary on stderr.

The centre is where the engine's games come out even, which need not be 0: in renju, openings
scored 0 .. +30 for Black were won by White more often than not at 100,000 nodes a move, and
those above +30 by Black (docs/strength.md). For renju use --centre 20 --margin 20.

Why: from unfiltered random openings Black wins about four games in five, so most pairs of a
colour-swapped match end one game each whatever the engines, and carry no information. Openings
near even make more pairs decisive, and a match resolves a smaller difference in as many games.
"""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from import_games import openings  # noqa: E402


def score_of(line, tengen, rule, nodes):
    """The search's score from Black's view, or None when the opening is decided or refused."""
    points = re.findall(r"[a-z]\d+", line)
    moves = " ".join(points)
    run = subprocess.run([tengen, "analyze", "--rule", rule, "--moves", moves, "--nodes",
                          str(nodes), "--json"], capture_output=True, text=True)
    if run.returncode != 0:
        return None
    result = json.loads(run.stdout)
    if "win" in result["score_text"] or "loss" in result["score_text"]:
        return None
    return result["score"] if len(points) % 2 == 0 else -result["score"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rule", default="freestyle", choices=["freestyle", "standard", "renju"])
    ap.add_argument("--count", type=int, required=True, help="openings to print")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=50000)
    ap.add_argument("--centre", type=int, default=0, help="Black's score of an even opening")
    ap.add_argument("--margin", type=int, default=40)
    ap.add_argument("--tengen", default="build/tengen")
    args = ap.parse_args()

    kept, tried = [], 0
    # One draw, larger than needed (generating is cheap; searching is not): no two alike.
    for line in openings(args.count * 20, args.seed):
        tried += 1
        score = score_of(line, args.tengen, args.rule, args.nodes)
        if score is not None and abs(score - args.centre) <= args.margin:
            kept.append(line)
            print(line, flush=True)
            if len(kept) == args.count:
                break
    print("kept %d of %d openings (Black's score %+d +- %d at %d nodes)" %
          (len(kept), tried, args.centre, args.margin, args.nodes), file=sys.stderr)
    if len(kept) < args.count:
        sys.exit("balanced_openings.py: fewer than %d in %d draws: widen --margin" %
                 (args.count, tried))


if __name__ == "__main__":
    main()
