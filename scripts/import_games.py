#!/usr/bin/env python3
"""Games of another engine as training data for `tengen datagen --import` (docs/eval.md).

  import_games.py openings N SEED > openings.txt
      N random openings of 2-6 stones near the centre of 15x15, one a line in h8 notation,
      no two alike up to the board's symmetries: for c-gomoku-cli (scripts/match.sh's
      conversion) so that an engine's self-play never repeats a game.

  import_games.py lines DIR [--size N] [--mate SCORE] [--judge NAME] [--factor X] > games.txt
      DIR/games.sgf and DIR/messages.txt from c-gomoku-cli (-sgf, -msg) to import lines:
      "BOOK | MOVE:SCORE ...". The book is the moves c-gomoku-cli marks "opening move"; each
      later move carries the evaluation the engine reported for it on its last search line
      ("N) name: Speed ... | Eval E | ...", or tengen's "N) name: depth ... | eval E | ..."),
      from the side to move's view. A mate ("+M7", "-M4": plies to the five; tengen's "win in
      4", "loss in 2": moves) becomes tengen's forced score (30000 - plies), or, with --mate
      SCORE, plus or minus SCORE, which the tuner keeps as a sample rather than leaving it out
      as a forced result. Other evaluations are multiplied by --factor (default 1): an engine
      whose scale is not tengen's (a logit of about 200 units) wants its own. A game with a
      move the messages do not score is left out (counted on stderr).

      --judge NAME scores every move by one engine's judgement, for a match between two
      engines (scripts/match.sh --out DIR): NAME's own moves by its evaluation, the other
      engine's moves by minus NAME's evaluation on the next move (the position after them,
      searched by NAME); a move with no search of NAME's after it (near the end) keeps the
      score its own engine gave it. NAME is the start of the engine's name in the messages.
"""
import argparse
import random
import re
import sys

LETTERS = "abcdefghijklmnopqrstuvwxyz"
WIN = 30000  # TG_SCORE_WIN
FORCED = 29000  # TG_SCORE_WIN_MIN: scores from here on are forced results


def openings(count, seed, size=15):
    rng = random.Random(seed)
    centre = size // 2
    seen, out = set(), []

    def key(stones):
        images = []
        for k in range(8):
            image = []
            for x, y, colour in stones:
                a, b = x - centre, y - centre
                if k & 1:
                    a = -a
                if k & 2:
                    b = -b
                if k & 4:
                    a, b = b, a
                image.append((a, b, colour))
            images.append(tuple(sorted(image)))
        return min(images)

    while len(out) < count:
        points = set()
        want = rng.randint(2, 6)
        while len(points) < want:
            points.add((centre + rng.randint(-3, 3), centre + rng.randint(-3, 3)))
        points = list(points)
        rng.shuffle(points)
        stones = [(x, y, i % 2) for i, (x, y) in enumerate(points)]
        k = key(stones)
        if k in seen:
            continue
        seen.add(k)
        out.append("".join("%s%d" % (LETTERS[x], y + 1) for x, y, _ in stones))
    return out


def score_of(text, mate, factor=1.0):
    """An evaluation as tengen's score: "35", "+M7" / "-M4" (plies), "win in 4" / "loss in 2"."""
    words = re.match(r"(win|loss) in (\d+)$", text)
    if words:  # tengen's: its own moves to the five, or the opponent's
        moves = int(words.group(2))
        text = "+M%d" % (2 * moves - 1) if words.group(1) == "win" else "-M%d" % (2 * moves)
    if "M" not in text:
        return max(-(FORCED - 1), min(FORCED - 1, round(int(text) * factor)))
    plies = int(text.lstrip("+-").lstrip("M"))
    value = mate if mate else WIN - plies
    return -value if text.startswith("-") else value


SEARCH_LINES = (
    re.compile(r"(\d+)\) (\S+): Speed .*\| Eval ([-+]?M?\d+) "),
    re.compile(r"(\d+)\) (\S+): depth .*\| eval ((?:win|loss) in \d+|[-+]?\d+) "),
)


def evaluations(path, mate, factor=1.0):
    """{game id: {move number (1-based): (engine, score)}} from c-gomoku-cli's messages file."""
    found, game = {}, None
    with open(path) as f:
        for line in f:
            m = re.match(r"Game ID: (\d+)", line)
            if m:
                game = found.setdefault(int(m.group(1)), {})
                continue
            for pattern in SEARCH_LINES:
                m = pattern.match(line)
                if m and game is not None:
                    engine = m.group(2).rstrip(":")
                    game[int(m.group(1))] = (engine, score_of(m.group(3), mate, factor))
                    break
    return found


def judged(scores, judge):
    """Every move's score by the engine named `judge`: its own moves as it scored them, the
    other's by minus its score on the next move, else (the last moves) as their engine did."""
    own = {n: v for n, (engine, v) in scores.items() if engine.startswith(judge)}
    out = dict(own)
    for n, v in own.items():
        if n - 1 not in own:
            out[n - 1] = -v
    for n, (_, v) in scores.items():  # the last moves, with no search of NAME's after them
        out.setdefault(n, v)
    return out


def lines(folder, size, mate, judge=None, factor=1.0):
    evals = evaluations(folder + "/messages.txt", mate, factor)
    if judge and not any(e.startswith(judge) for game in evals.values() for e, _ in game.values()):
        sys.exit("import_games.py: no search line of an engine named %s* in %s/messages.txt" % (judge, folder))
    with open(folder + "/games.sgf") as f:
        text = f.read()
    left_out = 0
    for record in re.findall(r"\(;.*?\)", text, re.S):
        number = re.search(r"GN\[(\d+)\]", record)
        reported = evals.get(int(number.group(1)), {}) if number else {}
        scores = judged(reported, judge) if judge else {n: v for n, (_, v) in reported.items()}
        book, moves = [], []
        for point, comment in re.findall(r";[BW]\[([a-z]{2})\](?:C\[([^\]]*)\])?", record):
            x, y = ord(point[0]) - 97, ord(point[1]) - 97
            move = "%s%d" % (LETTERS[x], size - y)
            (book if comment == "opening move" and not moves else moves).append(move)
        numbers = [len(book) + i + 1 for i in range(len(moves))]
        if moves and "five connection" in record and numbers[-1] not in scores:
            scores[numbers[-1]] = WIN - 1  # the five itself, played without a search line
        if not moves or any(n not in scores for n in numbers):
            left_out += 1
            continue
        print(" ".join(book) + " | " + " ".join("%s:%d" % (m, scores[n]) for m, n in zip(moves, numbers)))
    print("import_games: %d games left out (a move without an evaluation)" % left_out, file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    o = sub.add_parser("openings")
    o.add_argument("count", type=int)
    o.add_argument("seed", type=int)
    l = sub.add_parser("lines")
    l.add_argument("folder")
    l.add_argument("--size", type=int, default=15)
    l.add_argument("--mate", type=int, default=0)
    l.add_argument("--judge", help="score every move by this engine's evaluations")
    l.add_argument("--factor", type=float, default=1.0, help="scale of plain evaluations")
    args = parser.parse_args()
    if args.command == "openings":
        print("\n".join(openings(args.count, args.seed)))
    elif not 0 <= args.mate < FORCED:
        parser.error("--mate wants a score from 0 to %d" % (FORCED - 1))
    elif not args.factor > 0:
        parser.error("--factor wants a number above 0")
    else:
        lines(args.folder, args.size, args.mate, args.judge, args.factor)


if __name__ == "__main__":
    main()
