#!/usr/bin/env python3
"""openings_from_data.py FILE.tgd [MAX] — prints the random opening of each game of a tengen
training data file (docs/formats.md §14: the leading moves with no score) in h8 notation, one
opening a line, each once. With `tengen datagen --nodes 300` it makes varied, balanced opening
files for matches (data/openings/README.md)."""
import struct
import sys

NO_SCORE = -32768


def openings(path):
    data = open(path, "rb").read()
    at = 0
    while at < len(data):
        if data[at:at + 4] == b"TGD1":
            at += 8
            continue
        rule, width, height, result, count = struct.unpack_from("<BBBBH", data, at)
        at += 6
        moves = []
        for i in range(count):
            x, y, score = struct.unpack_from("<BBh", data, at + 4 * i)
            if score != NO_SCORE:
                break
            moves.append("%s%d" % (chr(ord("a") + x), height - y))
        at += 4 * count
        yield "".join(moves)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    limit = int(sys.argv[2]) if len(sys.argv) == 3 else None
    seen = set()
    for opening in openings(sys.argv[1]):
        if opening and opening not in seen:
            seen.add(opening)
            print(opening)
            if limit and len(seen) >= limit:
                break


if __name__ == "__main__":
    main()
