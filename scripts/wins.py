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
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

from suite import add_arguments, check_executable, rapfi_output, read_rows, rule_of


def tengen_nodes(binary, rule, moves, nodes):
    out = subprocess.run(
        [binary, "analyze", "--rule", rule, "--moves", " ".join(moves), "--nodes", str(nodes),
         "--hash", "128"],
        capture_output=True, text=True, check=False).stdout
    for line in out.splitlines():
        if line.startswith("depth") and "win in" in line:
            return int(re.search(r"nodes (\d+)", line).group(1))
    return None


def rapfi_nodes(binary, rule, moves, nodes):
    total, mate = None, False
    for line in rapfi_output(binary, rule, moves, nodes).splitlines():
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
    add_arguments(ap)
    ap.add_argument("--rapfi")
    args = ap.parse_args()
    rule = rule_of(args.file, args.rule, "wins.py")
    check_executable(args.rapfi or args.tengen, "wins.py")
    rows = read_rows(args.file, "wins.py", "LABEL | MOVES")
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
