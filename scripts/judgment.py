#!/usr/bin/env python3
"""judgment.py — how well each engine of a match judged its positions, from the scores it
reported while playing.

usage: scripts/judgment.py [--name PREFIX] [--min-ms MS] [--positions FILE] DIR...

Each DIR is a scripts/match.sh folder (games.sgf and messages.txt, as c-gomoku-cli writes
them); the folders are pooled. The tested engine is the one whose name starts with PREFIX
(default "tengen"); the other is its opponent. Only the scores of moves that took at least MS
milliseconds (default 300) count: forced moves and book moves report little. Mate scores are
left out. Two tables:

- Calibration: for each engine, its reported scores in bins, the number of moves in each bin
  and the share of those games that engine went on to win (a draw counts half). A
  well-judging engine scores about 50% where it reports 0.
- Disagreements: the first move of a game where the tested engine reported at least T and the
  opponent's next timed report was at least T/2 (both think they are better), and the other
  way round, for T = 50, 100 and 200: the games and the tested engine's score in them.

--positions FILE writes, for each game with a disagreement at T = 100 (the tested engine's
report first), one line: folder, game, its result for the tested engine, the ply, both
scores, the tested engine's colour and the moves before its move (h8 style, the row counted
from the bottom), ready for `tengen analyze --moves`.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired import fail, game_points, read_text  # noqa: E402 (the games are read as paired.py reads them)

BINS = [-400, -200, -100, -50, 0, 50, 100, 200, 400]
REPORT = re.compile(r'^(\d+)\) (\S+): .*?[Ee]val ([^|]+?) \|.*?[Tt]ime (\d+) ?ms', re.M)


def read_games(folder, prefix):
    """{game number: (result for the tested engine, tested engine is Black, moves, size)}."""
    sgf = os.path.join(folder, 'games.sgf')
    games = {}
    for g in read_text(sgf).split('(;')[1:]:
        number, score, tested_black = game_points(g, prefix, sgf)
        size = re.search(r'SZ\[(\d+)\]', g)
        moves = re.findall(r';[BW]\[([a-z]{2})\]', g)
        games[number] = (score, tested_black, moves, int(size.group(1)) if size else 15)
    return games


def read_reports(folder, prefix, min_ms):
    """{game number: [(ply, by the tested engine, score)]}, timed numeric reports only."""
    text = read_text(os.path.join(folder, 'messages.txt'))
    reports = {}
    for part in text.split('Game ID: ')[1:]:
        gid = part.split('\n', 1)[0].strip()
        if not gid.isdigit():
            fail(f'{folder}/messages.txt: a game ID that is not a number: {gid!r}')
        seq = []
        for ply, who, value, ms in REPORT.findall(part):
            value = value.strip()
            if int(ms) < min_ms or not re.fullmatch(r'[+-]?\d+', value):
                continue
            seq.append((int(ply), who.startswith(prefix), int(value)))
        reports[int(gid)] = seq
    return reports


def point(move, size):
    return f'{move[0]}{size - (ord(move[1]) - ord("a"))}'


def bin_of(v):
    for b in BINS:
        if v < b:
            return b
    return None


def calibration(matches):
    table = {}
    for _, games, reports in matches:
        for gid, seq in reports.items():
            if gid not in games:
                continue
            score = games[gid][0]
            for _, tested, v in seq:
                row = table.setdefault((tested, bin_of(v)), [0, 0.0])
                row[0] += 1
                row[1] += score if tested else 1 - score
    print('calibration: the score an engine reported, its moves there, and its game score')
    print(f'{"score":>12} | {"tested":>15} | {"opponent":>15}')
    lows = [None] + BINS
    for low, high in zip(lows, BINS + [None]):
        label = (f'< {high}' if low is None else f'>= {low}' if high is None
                 else f'{low} .. {high - 1}')
        cells = []
        for tested in (True, False):
            n, s = table.get((tested, high), [0, 0.0])
            cells.append(f'{n:6d} {100 * s / n:6.1f}%' if n else f'{n:6d} {"-":>7}')
        print(f'{label:>12} | {cells[0]:>15} | {cells[1]:>15}')


def first_disagreement(seq, threshold, tested_first):
    for (ply, a_tested, a), (_, b_tested, b) in zip(seq, seq[1:]):
        if a_tested == tested_first and b_tested != tested_first and a >= threshold \
                and b >= threshold // 2:
            return ply, a, b
    return None


def disagreements(matches, positions):
    print('disagreements: the first move of a game where both engines reported they were better')
    for threshold in (50, 100, 200):
        for tested_first in (True, False):
            n, won = 0, 0.0
            for folder, games, reports in matches:
                for gid, seq in sorted(reports.items()):
                    found = first_disagreement(seq, threshold, tested_first)
                    if not found or gid not in games:
                        continue
                    n += 1
                    won += games[gid][0]
                    if positions is not None and threshold == 100 and tested_first:
                        score, black, moves, size = games[gid]
                        ply, a, b = found
                        before = ' '.join(point(m, size) for m in moves[:ply - 1])
                        positions.write(f'{folder} {gid} {score:g} {ply} {a:+d} {b:+d} '
                                        f'{"black" if black else "white"} {before}\n')
            first, second = ('tested', 'opponent') if tested_first else ('opponent', 'tested')
            share = f'{100 * won / n:.1f}%' if n else '-'
            print(f'  {first} >= +{threshold}, then {second} >= +{threshold // 2}: '
                  f'{n} games, the tested engine scored {won:g} ({share})')


def main():
    ap = argparse.ArgumentParser(description='Calibration and disagreements of a match.')
    ap.add_argument('--name', default='tengen', help='name prefix of the tested engine')
    ap.add_argument('--min-ms', type=int, default=300, help='shortest move whose score counts')
    ap.add_argument('--positions', help='file for the disagreement positions at +100')
    ap.add_argument('dirs', nargs='+', help='scripts/match.sh folders')
    args = ap.parse_args()
    matches = [(d, read_games(d, args.name), read_reports(d, args.name, args.min_ms))
               for d in args.dirs]
    calibration(matches)
    out = open(args.positions, 'w', encoding='utf-8') if args.positions else None
    disagreements(matches, out)
    if out:
        out.close()


if __name__ == '__main__':
    main()
