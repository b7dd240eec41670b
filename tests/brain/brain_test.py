#!/usr/bin/env python3
"""brain_test.py BRAIN — scripted protocol sessions against pbrain-tengen.

Each check starts the brain as a manager would (pipes, CR LF or LF), sends commands and judges
the replies: every piskvork command, the Yixin-Board extensions, the coordinate conventions,
bad input, stopping while thinking, YXSHOWFORBID against the shared renju data ($TG_DATA,
default data/), time compliance at tiny limits (the worst overrun is reported and must
stay below zero) and memory (peak RSS under max_memory). Prints `brain: N passed, M failed`.
"""
import faulthandler
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time

BIN = sys.argv[1] if len(sys.argv) > 1 else "build/pbrain-tengen"
DATA = os.environ.get("TG_DATA", "data")
with open(BIN, "rb") if os.path.exists(BIN) else open(os.devnull, "rb") as _f:
    SANITIZED = b"__asan_init" in _f.read()
MOVE_RE = re.compile(r"^(-?\d+),(-?\d+)$")
results = {"passed": 0, "failed": 0}


class Brain:
    """One brain process. Lines are read by a thread and time-stamped as they arrive."""

    def __init__(self, eol="\n"):
        self.p = subprocess.Popen([BIN], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, bufsize=0)
        self.eol = eol
        self.lines = queue.Queue()
        self.messages = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.p.stdout:
            self.lines.put((time.monotonic(), raw.decode("ascii", "replace").rstrip("\r\n")))
        self.lines.put((time.monotonic(), None))

    def send(self, *lines):
        data = "".join(line + self.eol for line in lines).encode()
        self.sent_at = time.monotonic()
        try:
            self.p.stdin.write(data)
            self.p.stdin.flush()
        except BrokenPipeError:
            pass

    def line(self, timeout=10.0):
        """The next line of any kind, or None at end of output / timeout."""
        try:
            self.at, text = self.lines.get(timeout=timeout)
            return text
        except queue.Empty:
            return None

    def reply(self, timeout=10.0):
        """The next line that is not MESSAGE/DEBUG (those are kept in self.messages)."""
        while True:
            text = self.line(timeout)
            if text is None or not (text.startswith("MESSAGE") or text.startswith("DEBUG")):
                return text
            self.messages.append(text)

    def ask(self, *lines, timeout=10.0):
        self.messages = []
        self.send(*lines)
        return self.reply(timeout)

    def silent(self, wait=0.15):
        """True if nothing at all is written within `wait` seconds."""
        return self.line(wait) is None

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()

    def peak_rss(self):
        try:
            with open(f"/proc/{self.p.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) * 1024
        except OSError:
            pass
        return None


def check(name, ok, detail=""):
    if ok:
        results["passed"] += 1
    else:
        results["failed"] += 1
        print(f"brain: FAILED {name}" + (f": {detail}" if detail else ""), file=sys.stderr)


def move_of(text):
    m = MOVE_RE.match(text or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


def session(fn):
    """Runs one check function with a fresh brain; a crash of the check is a failure."""
    b = Brain()
    try:
        fn(b)
    except Exception as e:  # noqa: BLE001 - a broken session is one failed check
        check(fn.__name__, False, f"exception {e!r}")
    finally:
        b.close()


# ---- h8 notation of the shared data -> protocol x,y ----

def parse_point(tok, n):
    if tok == "--":
        return (-1, -1)
    return (ord(tok[0]) - ord("a"), n - int(tok[1:]))


def load_forbidden(name):
    out = []
    with open(os.path.join(DATA, name)) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            left, right = line.split("|")
            toks = left.split()
            n = int(toks[0])
            moves = [parse_point(t, n) for t in toks[1:]]
            forb = {parse_point(t.split(":")[0], n) for t in right.split()}
            out.append((n, moves, forb))
    return out


def board_body(moves):
    """BOARD/YXBOARD lines for moves in play order, Black to move after them: field 1 for
    Black's stones (the side to move), 2 for White's; passes as -1,-1."""
    return [f"{x},{y},{1 if i % 2 == 0 else 2}" for i, (x, y) in enumerate(moves)]


# ---- Sessions ----

def about_and_start(b):
    r = b.ask("ABOUT")
    check("ABOUT", r is not None and r.startswith('name="tengen"') and "version=" in r, r)
    for cmd, want in [("START 15", "OK"), ("START 20", "OK"), ("start 15 15", "OK"),
                      ("START 15,15", "OK"), ("RECTSTART 15,20", "OK"), ("START 4", "ERROR"),
                      ("START 23", "ERROR"), ("START 32", "ERROR"), ("RECTSTART 40,10", "ERROR"),
                      ("START", "ERROR"), ("START abc", "ERROR"), ("START -15", "ERROR")]:
        r = b.ask(cmd)
        check(f"{cmd} -> {want}", r is not None and r.split(" ")[0] == want, r)


def begin_turn_and_errors(b):
    b.ask("START 15")
    b.send("INFO timeout_turn 200", "INFO timeout_match 0", "INFO rule 0")
    r = b.ask("BEGIN")
    m = move_of(r)
    check("BEGIN answers a move on the board", m and 0 <= m[0] < 15 and 0 <= m[1] < 15, r)
    check("a MESSAGE summary comes before the move",
          any(s.startswith("MESSAGE depth") and "eval" in s and "best" in s for s in b.messages),
          b.messages)
    taken = {m}
    opp = (m[0] + 1, m[1] + 1)
    r = b.ask(f"turn {opp[0]},{opp[1]}")  # lower case
    m2 = move_of(r)
    check("lower-case TURN answers an empty point", m2 and m2 not in taken and m2 != opp, r)
    taken |= {opp, m2}
    for cmd in [f"TURN {m[0]},{m[1]}", "TURN 15,3", "TURN 3,15", "TURN -5,3", "TURN a,b",
                "TURN 1", "TURN 1,", "TURN 99999999999999999999,1", "TURN 1,2,3", "TURN"]:
        r = b.ask(cmd)
        check(f"{cmd} -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("TURN -1,-1")
    check("TURN -1,-1 is a pass and gets a move",
          move_of(r) is not None and move_of(r) not in taken, r)
    r = b.ask("TURN  3 , 4 ")
    check("TURN with spaces around the numbers", move_of(r) is not None, r)
    r = b.ask("FOO bar")
    check("unknown command -> UNKNOWN", r is not None and r.startswith("UNKNOWN"), r)
    r = b.ask("yxfoo")
    check("unknown YX command -> UNKNOWN", r is not None and r.startswith("UNKNOWN"), r)
    r = b.ask("X" * 10000)
    check("overlong line -> ERROR", r is not None and r.startswith("ERROR") and "long" in r, r)
    r = b.ask("ABOUT")
    check("still answering after bad input", r is not None and r.startswith("name="), r)


def turn_before_start(b):
    r = b.ask("TURN 7,7")
    check("TURN before START -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("BEGIN")
    check("BEGIN before START -> ERROR", r is not None and r.startswith("ERROR"), r)


def line_endings(_b):
    for eol, name in [("\r\n", "CR LF"), ("\r", "CR"), ("\n", "LF")]:
        b = Brain(eol)
        r1 = b.ask("ABOUT")
        r2 = b.ask("START 15")
        check(f"{name} line ends", r1 and r1.startswith("name=") and r2 == "OK", (r1, r2))
        b.close()


def board_colours(b):
    b.ask("START 15")
    b.send("INFO timeout_turn 300")
    # Our four (field 1) on row 5, theirs on row 9: equal counts, we are Black; we must win.
    body = [f"{x},5,1" for x in range(5, 9)] + [f"{x},9,2" for x in range(5, 9)]
    r = b.ask("BOARD", *body, "DONE")
    check("BOARD (equal counts): completes our own four", move_of(r) in {(4, 5), (9, 5)}, r)
    # Theirs one more (they are Black), listed in another order; our four on a column.
    body = [f"10,{y},2" for y in range(2, 6)] + ["0,0,2"] + [f"3,{y},1" for y in range(8, 12)]
    r = b.ask("board", *reversed(body), "done")
    check("board (White to move, any order): completes our four",
          move_of(r) in {(3, 7), (3, 12)}, r)
    # Their open four must be blocked... there is no block for an open four, so give them a
    # closed four: theirs 1..4 on row 0 with our stone at 0,0 -> we must play 5,0.
    body = ["0,0,1", "7,7,1", "9,9,1"] + [f"{x},0,2" for x in range(1, 5)]
    r = b.ask("BOARD", *body, "DONE")
    check("BOARD: blocks the opponent's four", move_of(r) == (5, 0), r)
    r = b.ask("BOARD", "7,7,1", "7,7,2", "DONE")
    check("BOARD with a duplicate -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("BOARD", "7,7,1", "20,3,2", "DONE")
    check("BOARD off the board -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("BOARD", "7,7,1", "garbage", "DONE")
    check("BOARD malformed line -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("BOARD", "7,7,4", "DONE")
    check("BOARD bad field -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("BOARD", "7,7,1", "8,8,2", "9,9,3", "DONE")
    check("BOARD ignores field 3", move_of(r) not in {None, (7, 7), (8, 8)}, r)
    r = b.ask("BOARD", *["7,7,1"] * 1200, "DONE")
    check("BOARD with too many lines -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("BOARD", "7,7,1", "ABOUT")
    check("BOARD cut by a command -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.reply()
    check("... and the command is still answered", r is not None and r.startswith("name="), r)
    r = b.ask("BOARD 7,7,1 8,8,2 DONE")
    check("BOARD on one line", move_of(r) not in {None, (7, 7), (8, 8)}, r)
    r = b.ask("BOARD", "DONE")
    check("BOARD empty: a move", move_of(r) is not None, r)


def board_pass(b):
    b.ask("START 15")
    b.send("INFO timeout_turn 200")
    # A pass flips the side: our four plus their pass -> still our turn to win.
    body = [f"{x},5,1" for x in range(5, 9)] + [f"{x},9,2" for x in range(5, 8)] + ["-1,-1,2"]
    r = b.ask("BOARD", *body, "DONE")
    check("BOARD with a -1,-1 pass", move_of(r) in {(4, 5), (9, 5)}, r)


def rules(b):
    b.ask("START 15")
    b.send("INFO timeout_turn 300")
    # Row 7: ours at 2,3,4,5 and 7. 6,7 makes six, 1,7 an exact five.
    body = [f"{x},7,1" for x in (2, 3, 4, 5, 7)] + [f"{x},12,2" for x in (0, 2, 4, 6, 8)]
    for rule, want in [("0", {(1, 7), (6, 7)}), ("1", {(1, 7)}), ("4", {(1, 7)})]:
        b.send(f"INFO rule {rule}")
        r = b.ask("BOARD", *body, "DONE")
        check(f"rule {rule}: the winning move", move_of(r) in want, r)
    # Caro (8): a five blocked at both ends does not win. Ours 2..5 on row 3 between theirs at
    # 1 and 7 (6,3 would be blocked), and ours 2..5 on row 10 with theirs at 1 only.
    body = ([f"{x},3,1" for x in range(2, 6)] + [f"{x},10,1" for x in range(2, 6)]
            + ["1,3,2", "7,3,2", "1,10,2", "12,12,2", "13,13,2", "0,14,2", "14,0,2", "14,14,2"])
    for rule, want in [("8", {(6, 10)}), ("9", {(6, 10)}), ("0", {(6, 3), (6, 10)})]:
        b.send(f"INFO rule {rule}")
        r = b.ask("BOARD", *body, "DONE")
        check(f"rule {rule}: caro fives", move_of(r) in want, r)
    b.send("INFO rule 16")
    r = b.ask("BEGIN")
    check("INFO rule 16 -> ERROR on the next command", r is not None and r.startswith("ERROR")
          and "rule" in r, r)
    b.send("INFO rule 2")  # Yixin's renju
    r = b.ask("RESTART")
    check("INFO rule 2 accepted", r == "OK", r)
    # Renju: Black to move at a double three.
    b.send("YXBOARD", "7,7,1", "0,0,2", "8,6,1", "0,2,2", "6,5,1", "0,4,2", "6,7,1", "0,6,2",
           "DONE")
    r = b.ask("YXSHOWFORBID")
    check("rule 2: renju fouls shown", r is not None and r.startswith("FORBID ") and
          r.endswith(".") and len(r) > len("FORBID ."), r)
    b.send("INFO rule 1")
    r = b.ask("YXSHOWFORBID")
    check("rule 1: no fouls", r == "FORBID .", r)


def renju_board_in_move_order(b):
    data = [d for d in load_forbidden("renju/forbidden.txt") if d[2]]
    random.Random(4).shuffle(data)
    b.ask("START 15")
    b.send("INFO rule 4", "INFO timeout_turn 150", "INFO max_memory 67108864")
    bad = []
    for n, moves, forb in data[:15]:
        r = b.ask("BOARD", *board_body(moves), "DONE")
        m = move_of(r)
        if m is None or m in forb or m in moves or not (0 <= m[0] < n and 0 <= m[1] < n):
            bad.append((r, sorted(forb)))
    check("renju BOARD in move order: Black never plays a forbidden point", not bad, bad[:3])


def showforbid_data(b):
    b.ask("START 15")
    b.send("INFO rule 4")
    total = wrong = 0
    first = None
    for name in ("renju/forbidden.txt", "renju/forbidden-public.txt"):
        for n, moves, forb in load_forbidden(name):
            b.send("YXBOARD", *board_body(moves), "DONE", "YXSHOWFORBID")
            r = b.reply()
            total += 1
            got = None
            if r and r.startswith("FORBID ") and r.endswith("."):
                digits = r[len("FORBID "):-1]
                got = {(int(digits[i:i + 2]), int(digits[i + 2:i + 4]))
                       for i in range(0, len(digits), 4)}
            if got != forb:
                wrong += 1
                first = first or (moves, r, sorted(forb))
    check(f"YXSHOWFORBID on {total} shared positions", wrong == 0 and total == 839,
          f"{wrong} wrong; first {first}")


# A renju game (self-play at 100,000 nodes) played to its 224th stone: the one empty point left,
# m1, is a foul for Black, who is to move.
FULL_RENJU = (
    "j11 j9 k8 k7 h9 i10 l8 j8 j7 l9 i9 h8 g10 i8 g9 g11 f8 e9 d8 e8 e7 d6 g6 f6 e10 d10 e12 f9 "
    "h5 g7 e5 f5 h3 i4 f11 d13 f13 f12 h13 d9 c9 d11 d12 e13 d14 l10 k9 i11 k10 c6 e6 h12 h4 "
    "i13 f10 h2 j14 g14 j12 i14 i12 j10 j13 j15 g13 e3 d5 f2 i6 g4 b5 c13 k5 b11 c10 h6 c5 a5 "
    "f4 j5 a13 k3 m8 m5 k12 k11 n6 n8 e2 c4 c8 c11 a11 b10 j4 l12 a10 a12 b9 d7 m7 o5 l13 i2 n4 "
    "j2 g2 n5 l4 m4 l3 m3 m2 l2 k2 m13 n14 m10 o7 e14 i3 l6 m11 k14 o10 o9 f15 h1 c3 j3 l5 b4 "
    "a4 n15 d2 a1 n12 g8 k15 c15 f14 c2 b1 n10 j1 d1 c12 a8 a6 e15 b6 n9 o14 m12 o1 n7 n11 o4 "
    "b2 f7 f1 i1 b14 b8 h15 o3 o6 b15 d15 g1 o13 o11 d4 f3 a15 g15 l1 a7 k1 h10 n13 o2 h11 a2 "
    "a9 l7 i5 k4 h7 b7 l11 j6 b13 e4 d3 o12 e11 b12 m6 g3 g12 n2 b3 a3 e1 a14 c14 m9 l14 o8 n1 "
    "k13 i15 h14 o15 m14 l15 c1 m15 k6 c7 i7 g5 n3").split()


def renju_only_fouls_left(b):
    b.ask("START 15")
    b.send("INFO rule 4", "INFO timeout_turn 200")
    moves = [parse_point(t, 15) for t in FULL_RENJU]
    r = b.ask("BOARD", *board_body(moves), "DONE")
    check("renju, only a foul left: it is played, not -1,-1", move_of(r) == (12, 14), r)


def info_keys(b):
    b.send("INFO timeout_turn 1000", "INFO timeout_match 100000", "INFO time_left 90000",
           "INFO max_memory 367001600", "INFO game_type 1", "INFO rule 1", "INFO folder C:\\tmp x",
           "INFO thread_num 2", "INFO hash_size 65536", "INFO max_node 100000",
           "INFO max_depth 10", "INFO time_increment 100", "INFO caution_factor 3",
           "INFO pondering 0", "INFO show_detail 0", "INFO nbestsym 1", "INFO evaluate 7,7",
           "INFO some_unknown_key 5", "INFO TIMEOUT_TURN 500", "INFO", "INFO timeout_turn x")
    check("INFO writes nothing", b.silent(0.3))
    r = b.ask("START 15")
    check("START after every INFO key", r == "OK", r)
    r = b.ask("BEGIN")
    check("BEGIN after the INFO keys", move_of(r) is not None, r)
    b.send("INFO max_memory 1000000")
    r = b.ask("RESTART")
    check("max_memory too small -> ERROR", r is not None and r.startswith("ERROR"), r)


def takeback_play_restart(b):
    b.ask("START 15")
    b.send("INFO timeout_turn 100")
    r = b.ask("TURN 7,7")
    m = move_of(r)
    r = b.ask(f"TAKEBACK {m[0]},{m[1]}")
    check("TAKEBACK our move -> OK", r == "OK", r)
    r = b.ask("TAKEBACK 3,3")
    check("TAKEBACK a move that is not last -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("TAKEBACK 7,7")
    check("TAKEBACK their move -> OK", r == "OK", r)
    r = b.ask("TAKEBACK 7,7")
    check("TAKEBACK on an empty board -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("TURN 7,7")
    check("TURN 7,7 again after TAKEBACK", move_of(r) is not None, r)
    r = b.ask("PLAY 0,0")
    check("PLAY imposes our move", r == "0,0", r)
    r = b.ask("PLAY 0,0")
    check("PLAY on an occupied point -> ERROR", r is not None and r.startswith("ERROR"), r)
    r = b.ask("RESTART")
    check("RESTART -> OK", r == "OK", r)
    r = b.ask("TURN 0,0")
    check("RESTART empties the board", move_of(r) is not None, r)


def swap2(b):
    b.ask("START 15")
    b.send("INFO timeout_turn 600", "INFO rule 1")
    r = b.ask("SWAP2BOARD", "DONE")
    pts = [move_of(t) for t in (r or "").split()]
    check("SWAP2BOARD 0 stones: three stones", len(pts) == 3 and None not in pts
          and len(set(pts)) == 3 and all(0 <= x < 15 and 0 <= y < 15 for x, y in pts), r)
    stones = ["7,7", "8,8", "8,6"]
    r = b.ask("SWAP2BOARD", *stones, "DONE")
    pts = [move_of(t) for t in (r or "").split()]
    ok = r == "SWAP" or (len(pts) in (1, 2) and None not in pts and
                         not {f"{x},{y}" for x, y in pts} & set(stones))
    check("SWAP2BOARD 3 stones: SWAP, one move or two", ok, r)
    stones = ["7,7", "8,8", "8,6", "6,8", "9,7"]
    r = b.ask("SWAP2BOARD", *stones, "DONE")
    ok = r == "SWAP" or (move_of(r) is not None and r not in stones)
    check("SWAP2BOARD 5 stones: SWAP or one move", ok, r)
    r = b.ask("SWAP2BOARD", "7,7", "DONE")
    check("SWAP2BOARD 1 stone -> ERROR", r is not None and r.startswith("ERROR"), r)


def swap2_decisions(b):
    """The swap2 answers follow the engine's judgement where one side is clearly ahead."""
    b.ask("START 15")
    b.send("INFO timeout_turn 1500", "INFO rule 1")
    # Five stones with a black open three (7..9 on row 7) and White far away: take Black.
    r = b.ask("SWAP2BOARD", "7,7", "0,0", "8,7", "14,0", "9,7", "DONE")
    check("SWAP2BOARD 5 stones, Black clearly ahead: SWAP", r == "SWAP", (r, b.messages[-2:]))
    # Five stones with a white pair in the centre and Black's stones in corners: play White.
    r = b.ask("SWAP2BOARD", "0,0", "7,7", "14,14", "8,7", "0,14", "DONE")
    check("SWAP2BOARD 5 stones, White clearly ahead: a move",
          move_of(r) is not None and r not in ("0,0", "7,7", "14,14", "8,7", "0,14"),
          (r, b.messages[-2:]))
    check("SWAP2BOARD explains its decision", any(m.startswith("MESSAGE swap2:")
                                                  for m in b.messages), b.messages[-3:])


def swap2_lines(b, want, timeout=10.0):
    """MESSAGE SWAP2 lines until `want` of them came (or an ERROR)."""
    got = []
    while len(got) < want:
        text = b.line(timeout)
        if text is None or text.startswith("ERROR"):
            got.append(text)
            break
        if text.startswith("MESSAGE SWAP2"):
            got.append(text)
            if " SWAP1 " in text or " SWAP2 SWAP2 " in text:
                break
    return got


def yixin_swap2(b):
    """Yixin-Board's YXSWAP2STEP1..3 answers (protocol.md §8)."""
    b.send("start 15 15", "INFO timeout_turn 900", "INFO rule 1")
    b.reply()
    b.send("yxswap2step1")
    got = swap2_lines(b, 3)
    pts = {tuple(t.split()[3:5]) for t in got if t and t.startswith("MESSAGE SWAP2 MOVE")}
    check("YXSWAP2STEP1: MESSAGE SWAP2 MOVE1..3 a b",
          [t.split()[2] for t in got if t] == ["MOVE1", "MOVE2", "MOVE3"] and len(pts) == 3, got)
    b.send("yxboard", "7,6,2", "6,7,1", "5,6,2", "done", "yxswap2step2")
    got = swap2_lines(b, 2)
    ok = (len(got) == 1 and got[0] in ("MESSAGE SWAP2 SWAP1 YES", "MESSAGE SWAP2 SWAP1 NO")) or \
         [t.split()[2] for t in got if t] == ["MOVE4", "MOVE5"]
    check("YXSWAP2STEP2: SWAP1 YES/NO or MOVE4 and MOVE5", ok, got)
    # Black's open three on row 7, White to move: player 1 keeps Black.
    b.send("yxboard", "7,7,2", "0,0,1", "8,7,2", "14,0,1", "9,7,2", "done", "yxswap2step3")
    got = swap2_lines(b, 1)
    check("YXSWAP2STEP3: SWAP2 YES when Black is clearly ahead",
          got == ["MESSAGE SWAP2 SWAP2 YES"], got)
    b.send("yxboard", "7,7,2", "done", "yxswap2step3")
    got = swap2_lines(b, 1)
    check("YXSWAP2STEP3 on a position that is not one: ERROR",
          len(got) == 1 and got[0] and got[0].startswith("ERROR"), got)

def yixin(b):
    b.send("YXSHOWINFO")
    lines = [b.line(), b.line()]
    check("YXSHOWINFO", "MESSAGE INFO MAX_THREAD_NUM" in " ".join(map(str, lines)) and
          "MESSAGE INFO MAX_HASH_SIZE" in " ".join(map(str, lines)), lines)
    b.reply(0.2)
    b.send("start 15 15", "INFO timeout_turn 300", "INFO rule 0")
    b.reply()
    b.send("yxboard", "7,7,1", "8,7,2", "7,8,1", "done")
    check("YXBOARD writes nothing", b.silent(0.3))
    r = b.ask("YXNBEST 3")
    tags = {s.split(" ")[1] for s in b.messages if s.startswith("MESSAGE (")}
    check("YXNBEST 3: a move and three lines", move_of(r) is not None and
          {"(1)", "(2)", "(3)"} <= tags, (r, b.messages[-4:]))
    check("REALTIME stream while thinking",
          any(s.startswith("MESSAGE REALTIME BEST") for s in b.messages)
          and any(s.startswith("MESSAGE REALTIME REFRESH") for s in b.messages), b.messages[:5])
    check("per-depth MESSAGE lines (depth, eval, speed, nodes, time, best)",
          any(all(k in s for k in ("depth", "eval", "speed", "nodes", "time", "best"))
              for s in b.messages), b.messages[:3])
    # YXBLOCK: with a node limit and a cleared table the search is repeatable, so a blocked
    # best move must give way to another move and come back after YXBLOCKUNDO.
    pos = ["7,7,1", "8,7,2", "7,8,1", "8,8,2", "6,9,1"]
    b.send("INFO max_node 20000", "YXHASHCLEAR", "YXBOARD", *pos, "DONE")
    first = b.ask("YXNBEST 1")
    fx, fy = move_of(first) or (-1, -1)
    b.send("YXBLOCK", f"{fx},{fy}", "0,0", "DONE", "YXHASHCLEAR", "YXBOARD", *pos, "DONE")
    r = b.ask("YXNBEST 1")
    check("YXBLOCK keeps the search off blocked points",
          move_of(r) not in {None, (-1, -1), (fx, fy), (0, 0)}, (first, r))
    b.send("YXBLOCKUNDO", f"{fx},{fy}", "DONE", "YXHASHCLEAR", "YXBOARD", *pos, "DONE")
    r = b.ask("YXNBEST 1")
    check("YXBLOCKUNDO gives a point back", r == first, (first, r))
    b.send("YXBLOCK", f"{fx},{fy}", "DONE", "YXBLOCKRESET", "YXHASHCLEAR", "YXBOARD", *pos, "DONE")
    r = b.ask("YXNBEST 1")
    check("YXBLOCKRESET", r == first, (first, r))
    b.send("INFO max_node 0")
    # Their open three on row 7 (they have one stone more: we are White to move).
    b.send("YXBOARD", "5,7,2", "6,7,2", "7,7,2", "9,10,1", "10,11,1", "DONE")
    r = b.ask("YXSEARCHDEFEND")
    check("YXSEARCHDEFEND lists defences and moves", move_of(r) in {(3, 7), (4, 7), (8, 7), (9, 7)}
          and any(s.startswith("MESSAGE DEFEND") for s in b.messages), (r, b.messages[-2:]))
    b.send("YXHASHCLEAR")
    check("YXHASHCLEAR writes nothing", b.silent(0.2))
    b.send("YXDRAW")
    r = b.line()
    check("YXDRAW -> MESSAGE DRAW ACCEPT/REJECT",
          r in ("MESSAGE DRAW ACCEPT", "MESSAGE DRAW REJECT"), r)
    b.send("YXRESIGN", "YXSTOP", "STOP")
    check("YXRESIGN and idle YXSTOP write nothing", b.silent(0.2))


def stop_while_thinking(b):
    b.ask("START 15")
    b.send("INFO timeout_turn 100000", "INFO timeout_match 0", "INFO time_left 2147483647")
    b.send("BOARD", "7,7,1", "8,8,2", "6,8,1", "8,6,2", "DONE")
    time.sleep(0.3)
    b.send("YXSTOP")
    t = time.monotonic()
    r = b.reply(5)
    check("YXSTOP ends a long search", move_of(r) is not None and time.monotonic() - t < 1.0, r)
    b.send("BEGIN")
    time.sleep(0.2)
    b.send("INFO timeout_turn 300")  # heard while thinking; counts from the next move
    time.sleep(0.1)
    b.send("STOP")
    t = time.monotonic()
    r = b.reply(5)
    check("STOP ends a long search", move_of(r) is not None and time.monotonic() - t < 1.0, r)
    t = time.monotonic()
    r = b.ask("TURN 0,0", timeout=5)
    check("INFO sent while thinking is applied", move_of(r) is not None and
          time.monotonic() - t < 0.5, (r, time.monotonic() - t))
    b.send("BEGIN", "YXSTOP")  # the stop comes before the search has started
    r = b.reply(2)
    check("a YXSTOP queued behind its command still stops it", move_of(r) is not None, r)


def end_while_thinking(b):
    b.ask("START 15")
    b.send("INFO timeout_turn 100000", "INFO time_left 2147483647", "BEGIN")
    time.sleep(0.3)
    t = time.monotonic()
    b.send("END")
    try:
        b.p.wait(timeout=2)
    except subprocess.TimeoutExpired:
        pass
    rest = []
    while True:
        s = b.line(0.1)
        if s is None:
            break
        rest.append(s)
    check("END while thinking: exits at once, prints nothing more",
          b.p.poll() == 0 and time.monotonic() - t < 1.0 and not any(move_of(s) for s in rest),
          (b.p.poll(), rest))


def eof(b):
    b.ask("START 15")
    b.send("BOARD", "7,7,1")
    b.p.stdin.close()
    r = b.line(3)
    check("EOF inside BOARD -> ERROR", r is not None and r.startswith("ERROR"), r)
    try:
        code = b.p.wait(timeout=3)
    except subprocess.TimeoutExpired:
        code = None
    check("EOF ends the brain", code == 0, code)


def instant(b):
    b.ask("START 15")
    b.send("INFO timeout_turn 0")
    t = time.monotonic()
    r = b.ask("BOARD", "7,7,1", "8,8,2", "6,8,1", "8,6,2", "DONE")
    dt = (time.monotonic() - t) * 1000
    check("timeout_turn 0: a move at once", move_of(r) is not None and dt < 50, (r, dt))
    return dt


# ---- Time and memory ----

def first_turn_after_big_table(limit=2000000000, turn_ms=200):
    """A manager starts timing a turn when it sends the command: a large table set up by the
    INFO lines just before (max_memory) must not make the first move late."""
    b = Brain()
    try:
        b.ask("START 15")
        b.send(f"INFO max_memory {limit}", f"INFO timeout_turn {turn_ms}", "INFO rule 0")
        t = time.monotonic()
        r = b.ask("BOARD", "7,7,2", "8,8,1", "DONE")
        dt = (time.monotonic() - t) * 1000
    finally:
        b.close()
    # Under AddressSanitizer a table this large is slow to map: report only.
    check(f"max_memory {limit >> 20} MiB: the first {turn_ms} ms turn is on time",
          move_of(r) is not None and (dt < turn_ms or SANITIZED), (r, round(dt, 1)))
    return dt


def five_at(board, p, n):
    x, y = p
    c = board[p]
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        k = 1
        for s in (1, -1):
            i = 1
            while board.get((x + s * i * dx, y + s * i * dy)) == c:
                k += 1
                i += 1
        if k >= 5:
            return True
    return False


def play_games(b, n, moves, limits, rng, stats):
    """Plays `moves` brain moves against a random neighbour-mover at the given limits.
    limits() -> (INFO lines, turn limit ms or None, game limit ms or None)."""
    board = {}
    history = []
    b.ask(f"START {n}")
    played = 0
    need_restart = False
    while played < moves:
        if need_restart or len(board) > n * n - 10:
            b.ask("RESTART")
            board = {}
            history = []
            need_restart = False
        empty = [(x, y) for x in range(n) for y in range(n) if (x, y) not in board]
        near = [p for p in empty if any((p[0] + dx, p[1] + dy) in board
                                        for dx in (-1, 0, 1) for dy in (-1, 0, 1))]
        opp = rng.choice(near or [(n // 2, n // 2)])
        board[opp] = 2
        history.append(opp)
        if five_at(board, opp, n):
            need_restart = True
            continue
        infos, turn, game = limits()
        b.send(*infos)
        b.messages = []
        b.send(f"TURN {opp[0]},{opp[1]}")
        sent = b.sent_at
        r = b.reply(5)
        elapsed = (b.at - sent) * 1000
        if r and r.startswith("ERROR") and "forbidden" in r:
            # The random mover is renju Black and chose a foul: the brain refused it, rightly
            # (its moves, timed, vary from run to run): take the stone back and choose again.
            del board[opp]
            history.pop()
            continue
        m = move_of(r)
        if m is None or m in board:
            stats["bad"].append(r)
            return
        limit = min(v for v in (turn, game) if v is not None)
        if elapsed - limit > stats["worst"]:
            stats["worst"], stats["worst_at"] = elapsed - limit, (turn, game, round(elapsed, 1))
        if elapsed > limit:
            stats.setdefault("over", []).append((turn, game, elapsed, list(history)))
        stats["moves"] += 1
        board[m] = 1
        history.append(m)
        played += 1
        if five_at(board, m, n):
            need_restart = True


def time_compliance():
    """Three games against a random mover: turn limits alone (freestyle 15x15), a match clock
    running down (renju), and a few ms of time_left with a long turn limit (standard 20x20)."""
    rng = random.Random(7)
    stats = {"worst": -1e9, "moves": 0, "bad": []}
    left = [3000]

    def turn_only():
        t = rng.choice([10, 15, 20, 30, 50, 80])
        return ([f"INFO timeout_turn {t}", "INFO timeout_match 0", "INFO time_left 2147483647"],
                t, None)

    def match_clock():
        left[0] = max(10, left[0] - rng.randint(20, 120))
        return ["INFO timeout_turn 1000", "INFO timeout_match 3000",
                f"INFO time_left {left[0]}"], 1000, left[0]

    def tiny_left():
        t = rng.choice([10, 15, 25, 40, 100])
        return (["INFO timeout_turn 5000", "INFO timeout_match 120000", f"INFO time_left {t}"],
                5000, t)

    b = Brain()
    try:
        b.send("INFO max_memory 367001600", "INFO rule 0")
        play_games(b, 15, 60, turn_only, rng, stats)
        b.send("INFO rule 4")
        play_games(b, 15, 50, match_clock, rng, stats)
        b.send("INFO rule 1")
        play_games(b, 20, 40, tiny_left, rng, stats)
    finally:
        b.close()
    check("time compliance: valid moves", not stats["bad"], stats["bad"][:3])
    check("time compliance: never past timeout_turn or time_left", stats["worst"] < 0,
          f"worst overrun {stats['worst']:+.1f} ms at (turn, time_left, elapsed) "
          f"{stats.get('worst_at')}")
    return stats


def memory(limit, threads, moves, level="max", turn_ms=150):
    """Plays `moves` moves at `level` under max_memory `limit`; the tree of the mcts and zero
    levels counts against it as the table does."""
    b = Brain()
    try:
        b.send(f"INFO max_memory {limit}", f"INFO thread_num {threads}",
               f"INFO timeout_turn {turn_ms}", "INFO rule 0", f"INFO level {level}")
        stats = {"worst": -1e9, "moves": 0, "bad": []}
        play_games(b, 20, moves, lambda: ([], turn_ms, None), random.Random(3), stats)
        rss = b.peak_rss()
    finally:
        b.close()
    # Under AddressSanitizer the shadow memory and quarantine count too: report only.
    check(f"max_memory {limit >> 20} MiB, {level}, {threads} threads: peak RSS below it",
          rss is not None and (rss < limit or SANITIZED) and not stats["bad"],
          (rss, stats["bad"][:2]))
    return rss


def main():
    if not os.path.exists(BIN):
        print(f"brain: {BIN} not found", file=sys.stderr)
        return 1
    faulthandler.dump_traceback_later(100, exit=True)  # a hung session fails the run
    t0 = time.monotonic()
    for fn in (about_and_start, begin_turn_and_errors, turn_before_start, line_endings,
               board_colours, board_pass, rules, renju_board_in_move_order, renju_only_fouls_left,
               showforbid_data,
               info_keys, takeback_play_restart, swap2, swap2_decisions, yixin_swap2, yixin, stop_while_thinking,
               end_while_thinking, eof):
        session(fn)
    b = Brain()
    try:
        dt = instant(b)
    finally:
        b.close()
    stats = time_compliance()
    first_dt = first_turn_after_big_table()
    rss350 = memory(367001600, 1, 12)
    # 150 ms turns use 8 MiB of the table (64 KiB a millisecond), not all of the 256 MiB that
    # 350 MB of max_memory leaves: a part the search cannot fill only slows its probes.
    check("max_memory 350 MiB at 150 ms turns: the search uses the turn's part (peak RSS < 64 MiB)",
          rss350 is not None and (rss350 < 64 << 20 or SANITIZED), rss350)
    rss64 = memory(64 << 20, 2, 12)
    rss_mcts = memory(40 << 20, 1, 6, "mcts", 1000)
    memory(32 << 20, 1, 4, "mcts", 300)  # the least max_memory: no room for the root's moves
    print(f"brain: time: {stats['moves']} moves at 10-80 ms turns and 10-3000 ms time_left, "
          f"worst overrun {stats['worst']:+.1f} ms at (turn, time_left, elapsed) "
          f"{stats.get('worst_at')}; "
          f"timeout_turn 0 answered in {dt:.1f} ms; first 200 ms turn under max_memory "
          f"1907 MiB answered in {first_dt:.1f} ms")
    print(f"brain: memory: peak RSS {(rss350 or 0) / 2**20:.1f} MiB under max_memory 350 MiB, "
          f"{(rss64 or 0) / 2**20:.1f} MiB under 64 MiB (2 threads), "
          f"{(rss_mcts or 0) / 2**20:.1f} MiB under 40 MiB (mcts)"
          + (" (AddressSanitizer build: not judged)" if SANITIZED else ""))
    print(f"brain: {results['passed']} passed, {results['failed']} failed "
          f"({time.monotonic() - t0:.1f} s)")
    return 0 if results["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
