#!/usr/bin/env python3
"""How often a search avoids the losing moves of data/strength/defence-*.txt (docs/strength.md).

  defence.py FILE [--rule R] [--nodes N] [--jobs J] [--tengen BIN] [--rapfi BIN] [--check N]
             [--verbose]

Each line of FILE is "LOST HELD | MOVES": a position (moves from the empty board, h8 notation)
where tengen once played LOST and the opponent then proved a win, while HELD (the stronger
engine's choice) holds. tengen (`tengen analyze --nodes N --json`) chooses a move in each:
LOST counts as lost and HELD as held. Any other move is judged by --rapfi: the Rapfi build
searches the position after it for the attacker (--check nodes, default 1,000,000), and the move
holds when no forced win is found. Without --rapfi such moves are counted apart, unjudged.

Prints one line a position with --verbose, then "held K/N". The other half of the wins suite
(scripts/wins.py): that one asks how soon the attacker's win is found, this one whether the
defender steps aside in time. A few minutes at a million nodes on two cores.
"""
import argparse
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from suite import add_arguments, check_executable, rapfi_output, read_rows, rule_of


def read_positions(path):
    rows = []
    for head, moves in read_rows(path, "defence.py", "LOST HELD | MOVES"):
        pair = head.split()
        if len(pair) != 2:
            sys.exit(f"defence.py: {path}: expected 'LOST HELD | MOVES', not '{head} | ...'")
        rows.append((pair[0], pair[1], moves))
    return rows


def tengen_move(binary, rule, moves, nodes):
    out = subprocess.run(
        [binary, "analyze", "--rule", rule, "--moves", " ".join(moves), "--nodes", str(nodes),
         "--hash", "128", "--json"], capture_output=True, text=True, check=False).stdout
    try:
        return json.loads(out)["best"]
    except (ValueError, KeyError):
        return None


def rapfi_finds_win(binary, rule, moves, nodes):
    mate = False
    for line in rapfi_output(binary, rule, moves, nodes).splitlines():
        words = line.split()
        if len(words) >= 3 and words[:2] == ["INFO", "EVAL"]:
            mate = words[2].startswith("+M")
    return mate


def judge(args, rule, row):
    lost, held, moves = row
    move = tengen_move(args.tengen, rule, moves, args.nodes)
    if move is None:
        return None, "no move"
    if move == lost:
        return move, "lost"
    if move == held:
        return move, "held"
    if not args.rapfi:
        return move, "unjudged"
    return move, "lost" if rapfi_finds_win(args.rapfi, rule, moves + [move], args.check) else "held"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(ap)
    ap.add_argument("--rapfi", help="a Rapfi build that judges the moves other than the two named")
    ap.add_argument("--check", type=int, default=1000000, help="Rapfi's nodes for a judgement")
    args = ap.parse_args()
    rule = rule_of(args.file, args.rule, "defence.py")
    for binary in filter(None, (args.tengen, args.rapfi)):
        check_executable(binary, "defence.py")
    rows = read_positions(args.file)
    with ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda row: judge(args, rule, row), rows))
    if args.verbose:
        for (lost, held, _), (move, verdict) in zip(rows, results):
            print(f"lost {lost:4} held {held:4} played {move or '-':4} {verdict}")
    count = {v: sum(r[1] == v for r in results) for v in ("held", "lost", "unjudged", "no move")}
    repeated = sum(move == row[0] for row, (move, _) in zip(rows, results))
    line = f"held {count['held']}/{len(rows)} (the losing move again: {repeated}"
    if count["unjudged"]:
        line += f", other moves not judged without --rapfi: {count['unjudged']}"
    if count["no move"]:
        line += f", no answer: {count['no move']}"
    print(line + ")")


if __name__ == "__main__":
    main()
