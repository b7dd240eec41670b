"""What scripts/wins.py and scripts/defence.py share: reading a suite file, and asking a Rapfi
build (the piskvork protocol with its detailed output) about a position."""
import os
import subprocess
import sys

RULE_CODES = {"freestyle": 0, "standard": 1, "renju": 4}


def add_arguments(ap):
    """The options both scripts take: the file, its rule, tengen's nodes, jobs and binary."""
    ap.add_argument("file")
    ap.add_argument("--rule", help="freestyle, standard or renju (default: from the file name)")
    ap.add_argument("--nodes", type=int, default=1000000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--tengen", default="build/tengen")
    ap.add_argument("--verbose", action="store_true")


def read_rows(path, tool, form):
    """The (head, moves) of each line "HEAD | MOVES" of path; exits naming the line at fault,
    or when there is none."""
    rows = []
    try:
        f = open(path)
    except OSError as e:
        sys.exit(f"{tool}: {path}: {e.strerror}")
    with f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            head, bar, moves = line.partition("|")
            if not bar or not moves.strip():
                sys.exit(f"{tool}: {path}:{n}: expected '{form}'")
            rows.append((head.strip(), moves.split()))
    if not rows:
        sys.exit(f"{tool}: {path}: no positions")
    return rows


def rule_of(path, given, tool):
    rule = given or next((r for r in RULE_CODES if r in os.path.basename(path)), None)
    if rule is None:
        sys.exit(f"{tool}: say --rule: the file name names none")
    return rule


def check_executable(binary, tool):
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        sys.exit(f"{tool}: {binary} is not an executable (for tengen, run make first)")


def rapfi_output(binary, rule, moves, nodes):
    """Rapfi's output for the position after moves, searched to at most `nodes` nodes."""
    lines = ["START 15", f"INFO rule {RULE_CODES[rule]}", "INFO timeout_turn 60000",
             "INFO timeout_match 10000000", f"INFO max_node {nodes}", "INFO show_detail 2", "BOARD"]
    for i, m in enumerate(moves):  # 1 = the side to move's stones
        lines.append(f"{ord(m[0]) - 97},{15 - int(m[1:])},{1 if (len(moves) - i) % 2 == 0 else 2}")
    lines.append("DONE")
    return subprocess.run([binary], input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=300, check=False).stdout
