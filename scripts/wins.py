#!/usr/bin/env python3
"""How soon a search finds the forced wins of data/strength/ (docs/strength.md).

  wins.py FILE [--rule R] [--nodes N] [--jobs J] [--tengen BIN] [--rapfi BIN] [--verbose]

Each line of FILE is "LABEL | MOVES": a position (moves from the empty board, h8 notation) whose
side to move has a forced win. tengen (`tengen analyze --nodes N`) searches each one; the figure
is the node count of the first completed depth that reports the win. With --rapfi the given
Rapfi build is asked instead, through the piskvork protocol with its detailed output (`INFO
show_detail 2`, `INFO max_node N`), and its first depth with a mate score counts.

Prints one line a position with --verbose, then "solved K/N" and the geometric mean of the node
counts, an unsolved position counted as twice the limit. A minute at a million nodes a position
on two cores: a quick check of a search change beside the matches that judge it.
"""
import argparse
import math
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor


def read_positions(path):
    rows = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if "|" not in line:
                sys.exit(f"wins.py: {path}:{n}: expected 'LABEL | MOVES'")
            label, moves = (part.strip() for part in line.split("|", 1))
            rows.append((label, moves))
    return rows


def tengen_nodes(binary, rule, moves, nodes):
    out = subprocess.run(
        [binary, "analyze", "--rule", rule, "--moves", moves, "--nodes", str(nodes), "--hash", "128"],
        capture_output=True, text=True, check=False).stdout
    for line in out.splitlines():
        if line.startswith("depth") and "win in" in line:
            return int(re.search(r"nodes (\d+)", line).group(1))
    return None


def rapfi_nodes(binary, rule, moves, nodes):
    stones = moves.split()
    rule_code = {"freestyle": 0, "standard": 1, "renju": 4}[rule]
    lines = ["START 15", f"INFO rule {rule_code}", "INFO timeout_turn 60000",
             "INFO timeout_match 10000000", f"INFO max_node {nodes}", "INFO show_detail 2", "BOARD"]
    for i, m in enumerate(stones):  # 1 = the side to move's stones
        lines.append(f"{ord(m[0]) - 97},{15 - int(m[1:])},{1 if (len(stones) - i) % 2 == 0 else 2}")
    lines.append("DONE")
    out = subprocess.run([binary], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         timeout=300, check=False).stdout
    total, mate = None, False
    for line in out.splitlines():
        words = line.split()
        if len(words) >= 3 and words[:2] == ["INFO", "TOTALNODES"]:
            total = int(words[2])
        if len(words) >= 3 and words[:2] == ["INFO", "EVAL"]:
            mate = words[2].startswith("+M")
        if line.startswith("INFO PV DONE") and mate:
            return total
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--rule", help="freestyle, standard or renju (default: from the file name)")
    ap.add_argument("--nodes", type=int, default=1000000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tengen", default="build/tengen")
    ap.add_argument("--rapfi")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    rule = args.rule or next((r for r in ("freestyle", "standard", "renju") if r in args.file), None)
    if rule is None:
        sys.exit("wins.py: say --rule: the file name names none")
    binary = args.rapfi or args.tengen
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        sys.exit(f"wins.py: {binary} is not an executable (for tengen, run make first)")
    rows = read_positions(args.file)
    if args.rapfi:
        search = lambda row: rapfi_nodes(args.rapfi, rule, row[1], args.nodes)
    else:
        search = lambda row: tengen_nodes(args.tengen, rule, row[1], args.nodes)
    with ThreadPoolExecutor(args.jobs) as pool:
        found = list(pool.map(search, rows))
    if args.verbose:
        for (label, _), n in zip(rows, found):
            print(f"{label:6} {n if n is not None else '-'}")
    solved = sum(n is not None for n in found)
    mean = math.exp(sum(math.log(n if n is not None else 2 * args.nodes) for n in found) / len(found))
    print(f"solved {solved}/{len(found)}, geometric mean {mean:,.0f} nodes (limit {args.nodes:,})")


if __name__ == "__main__":
    main()
