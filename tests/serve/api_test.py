#!/usr/bin/env python3
"""api_test.py — `tengen serve` driven over HTTP as the web page and scripts use it
(docs/api.md): games of every rule, full games against the computer, undo/redo, jumps,
resignation, draws, refusals that must change nothing, the security checks, the rate limit,
the event stream, analysis, online seats, records and imports, clocks, and recovery after the
server is killed with SIGKILL (also while the computer thinks). Python standard library only.

usage: api_test.py path/to/tengen      prints "serve: N passed, M failed"
"""
import atexit
import http.client
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

BIN = os.path.abspath(sys.argv[1])
TMP = tempfile.mkdtemp(prefix="tengen-serve-")
counts = {"passed": 0, "failed": 0}
servers = []


def check(name, cond, detail=""):
    if cond:
        counts["passed"] += 1
    else:
        counts["failed"] += 1
        print(f"FAIL: {name} {detail}", file=sys.stderr)
    return cond


# ---- The server ------------------------------------------------------------------------------


class Server:
    def __init__(self, db, *args):
        self.err_path = os.path.join(TMP, f"stderr-{len(servers)}.txt")
        self.err = open(self.err_path, "w")
        self.proc = subprocess.Popen(
            [BIN, "serve", "--port", "0", "--db", db, "--workers", "2", *args],
            stdout=subprocess.PIPE, stderr=self.err, text=True)
        line = self.proc.stdout.readline()
        m = re.match(r"tengen: serving http://127\.0\.0\.1:(\d+)/$", line.strip())
        if not m:
            raise SystemExit(f"serve did not start: {line!r}")
        self.port = int(m.group(1))
        self.host = f"127.0.0.1:{self.port}"
        servers.append(self)

    def request(self, method, path, body=None, headers=None, raw=None, timeout=30):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        h = {"Host": self.host}
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        c.putrequest(method, path, skip_host=True)
        for k, v in h.items():
            c.putheader(k, v)
        if data is not None:
            c.putheader("Content-Length", str(len(data)))
        c.endheaders(data)
        r = c.getresponse()
        text = r.read().decode("utf-8", "replace")
        c.close()
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = text
        return r.status, {k.lower(): v for k, v in r.getheaders()}, parsed

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body=None, **kw):
        return self.request("POST", path, body, **kw)

    def kill(self, sig=signal.SIGKILL):
        self.proc.send_signal(sig)
        return self.proc.wait(timeout=10)


def new_game(s, **fields):
    status, _, g = s.post("/api/games", fields)
    assert status == 201, (status, g)
    return g


def game(s, gid):
    return s.get(f"/api/games/{gid}")[2]


def wait_for(s, gid, cond, timeout=20):
    end = time.time() + timeout
    g = game(s, gid)
    while not cond(g) and time.time() < end:
        time.sleep(0.05)
        g = game(s, gid)
    return g


def idle(g):
    return not g["thinking"]


def move(s, gid, point, seat=None):
    headers = {"X-Tengen-Seat": seat} if seat else None
    return s.post(f"/api/games/{gid}/moves", {"move": point}, headers=headers)


def act(s, gid, action, body=None, seat=None):
    headers = {"X-Tengen-Seat": seat} if seat else None
    return s.post(f"/api/games/{gid}/{action}", body, headers=headers)


def play_line(s, gid, points):
    for p in points:
        status, _, g = move(s, gid, p)
        assert status == 200, (p, status, g)
    return g


def letters(size):
    return "abcdefghijklmnopqrstuv"[:size]


def free_points(g):
    taken = set(g["moves"])
    bad = {f["point"] for f in g["forbidden"]}
    size = g["size"]
    centre = (size + 1) / 2
    pts = [f"{c}{r}" for c in letters(size) for r in range(1, size + 1)]
    pts = [p for p in pts if p not in taken and p not in bad]
    # near the centre first, so that games look like games
    return sorted(pts, key=lambda p: abs(ord(p[0]) - 96 - centre) + abs(int(p[1:]) - centre))


# ---- Tests -----------------------------------------------------------------------------------


def test_info_and_rules(s):
    status, h, info = s.get("/api/info")
    check("info", status == 200 and info["rules"] == ["freestyle", "standard", "renju", "caro8",
                                                         "caro9"], info)
    check("info levels", info["levels"] == ["mcts", "beginner", "easy", "medium", "hard", "max", "zero"], info)
    ratings = info["ratings"]
    check("info ratings", [r["level"] for r in ratings] == info["levels"][:len(ratings)]
          and [r["elo"] for r in ratings if r["level"] == "beginner"] == [0]
          and all(a["elo"] < b["elo"] for a, b in zip(ratings, ratings[1:]))
          and all(set(r) == {"level", "elo", "error", "nodes"} for r in ratings), ratings)
    check("info sizes", (info["min_size"], info["max_size"], info["default_size"]) == (5, 22, 15))
    check("security headers", "default-src 'self'" in h.get("content-security-policy", "")
          and h.get("x-content-type-options") == "nosniff"
          and h.get("referrer-policy") == "no-referrer" and h.get("cache-control") == "no-store", h)
    for rule in ["freestyle", "standard", "renju", "caro8", "caro9"]:
        g = new_game(s, rule=rule, size=15, black="human", white="human")
        check(f"create {rule}", g["rule"] == rule and g["ply"] == 0 and g["to_move"] == "black"
              and g["result"] is None and g["clock"] is None and g["seats"] is None, g)
    check("caro reads as caro9", new_game(s, rule="caro", white="human")["rule"] == "caro9")
    g = new_game(s)
    check("defaults", (g["rule"], g["size"], g["black"], g["white"]) ==
          ("freestyle", 15, "human", "hard"), g)
    check("size 5 and 22", new_game(s, size=5)["size"] == 5 and new_game(s, size=22)["size"] == 22)
    for bad in [{"size": 4}, {"size": 23}, {"rule": "go"}, {"black": "god"}, {"size": "15"},
                {"clock": {"game_ms": -1}}, {"clock": {"hours": 1}}, {"moves": ["h8", "h8"]},
                {"online": True, "white": "easy"}, {"computer_ms": 0}]:
        status, _, e = s.post("/api/games", bad)
        check(f"create refuses {bad}", status in (400, 409) and "error" in e and "code" in e, e)
    # players by target rating: the nearest level, or max with fewer nodes between hard and max
    elo = {r["level"]: r["elo"] for r in ratings}
    for target, want in [(-2000, "mcts"), (-50, "beginner"), (elo["easy"] + 1, "easy"), (elo["medium"], "medium"),
                         (elo["hard"], "hard"), (elo["max"] + 400, "max")]:
        g = new_game(s, black="human", white_rating=target)
        check(f"rating {target} plays {want}", g["white"] == want, g["white"])
    g = new_game(s, black="human", white_rating=(elo["hard"] + elo["max"]) // 2)
    nodes = int(g["white"].split("@")[1]) if g["white"].startswith("max@") else 0
    hard_nodes = [r["nodes"] for r in ratings if r["level"] == "hard"][0]
    max_nodes = [r["nodes"] for r in ratings if r["level"] == "max"][0]
    check("rating between hard and max", hard_nodes < nodes < max_nodes, g["white"])
    g = new_game(s, black="human", white="max@5000")
    check("max@5000 kept", g["white"] == "max@5000", g)
    for bad in [{"white": "max@0"}, {"white": "max@"}, {"white": "human@5"}, {"white": "max@-3"},
                {"white": "hard", "white_rating": 500}, {"white_rating": "500"}]:
        status, _, e = s.post("/api/games", bad)
        check(f"create refuses {bad}", status == 400 and "error" in e, e)
    g = new_game(s, white="human", moves=["h8", "i9", "h9"])
    check("start position", g["moves"] == ["h8", "i9", "h9"] and g["to_move"] == "white", g)
    # The zero level plays where a network is built in (8x8 freestyle ships one), not elsewhere.
    check("zero boards", {"rule": "freestyle", "size": 8} in info["zero_boards"], info)
    g = new_game(s, size=8, black="human", white="zero")
    check("a zero game on 8x8", g["white"] == "zero", g)
    g = new_game(s, size=8, black="human", white="mcts")
    check("an mcts game", g["white"] == "mcts", g)
    status, _, e = s.post("/api/games", {"size": 15, "white": "zero"})
    check("zero refused without a network", status == 400 and "network" in e.get("error", ""), e)


def test_human_game(s):
    g = new_game(s, rule="freestyle", black="human", white="human")
    gid = g["id"]
    g = play_line(s, gid, ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"])
    r = g["result"]
    check("five wins", r and r["winner"] == "black" and r["reason"] == "five"
          and sorted(r["line"]) == ["h8", "l8"] and g["to_move"] is None, g)
    status, _, e = move(s, gid, "a5")
    check("move after the end", status == 409 and e["code"] == "game_over", e)
    check("game over changes nothing", game(s, gid)["ply"] == 9)
    status, _, e = act(s, gid, "goto", {"ply": 4})
    g = game(s, gid)
    check("a finished game is kept as played", status == 409 and e["code"] == "game_over"
          and g["ply"] == 9 and g["result"] == r, (e, g))


def test_refusals(s):
    g = new_game(s, rule="renju", white="human")
    gid = g["id"]
    # Black h8 would make two open threes (h8-i8-j8 and h8-h9-h10): a renju foul.
    g = play_line(s, gid, ["i8", "a1", "j8", "a3", "h9", "a5", "h10", "a7"])
    check("forbidden listed", {"point": "h8", "foul": "33"} in g["forbidden"], g["forbidden"])
    before = game(s, gid)
    status, _, e = move(s, gid, "h8")
    check("foul refused", status == 409 and e["code"] == "illegal" and e.get("foul") == "33"
          and "33" in e["error"], e)
    status, _, e = move(s, gid, "i8")
    check("occupied", status == 409 and e["code"] == "illegal", e)
    for bad in ["p8", "a16", "z1", "h0", "", "h8h9"]:
        status, _, e = move(s, gid, bad)
        check(f"off board {bad!r}", status == 400 and e["code"] == "bad_move", e)
    after = game(s, gid)
    check("refusals change nothing", before["moves"] == after["moves"]
          and before["updated"] == after["updated"], after)
    # bodies
    for raw, code in [(b"{bad", "bad_json"), (b"[1]", "bad_json"), (b'"h8"', "bad_json"),
                      (b'{"move":"h8","move":"h9"}', "bad_json"),
                      (b'{"move":"h8","x":1}', "bad_field"), (b'{"move":5}', "bad_field"),
                      (b"{}", "bad_field"), (b'{"move":null}', "bad_field")]:
        status, _, e = s.request("POST", f"/api/games/{gid}/moves", raw=raw,
                                 headers={"Content-Type": "application/json"})
        check(f"body {raw!r}", status == 400 and e["code"] == code, (status, e))
    check("bodies change nothing", game(s, gid)["moves"] == before["moves"])
    # routes and methods
    for method, path, status_want, code in [
            ("GET", "/api/games/zzzzzzzzzz", 404, "no_game"),
            ("POST", "/api/games/zzzzzzzzzz/moves", 404, "no_game"),
            ("GET", "/api/games/../../etc/passwd", 404, None),
            ("GET", "/api/nope", 404, "no_route"),
            ("GET", "/api/", 404, "no_route"),
            ("POST", f"/api/games/{gid}/nope", 404, "no_route"),
            ("GET", f"/api/games/{gid}/moves", 405, "bad_method"),
            ("DELETE", "/api/games", 405, "bad_method"),
            ("POST", "/api/info", 405, "bad_method"),
            ("PUT", f"/api/games/{gid}", 405, "bad_method"),
            ("GET", f"/api/games/{gid}/record?format=doc", 400, "bad_field"),
            ("GET", "/api/games?limit=0", 400, "bad_field"),
            ("GET", "/nope.js", 404, "no_route")]:
        status, h, e = s.request(method, path)
        check(f"{method} {path}", status == status_want and (code is None or e["code"] == code)
              and h.get("x-content-type-options") == "nosniff", (status, e))
    # security
    status, _, e = s.post("/api/games", {"white": "human"}, headers={"Host": "evil.example:80"})
    check("bad Host", status == 403 and e["code"] == "bad_host", e)
    status, _, e = s.get("/", headers={"Host": "evil.example"})
    check("bad Host for the page", status == 403, status)
    check("localhost Host", s.get("/api/info", headers={"Host": f"localhost:{s.port}"})[0] == 200)
    status, _, e = s.post("/api/games", {"white": "human"},
                          headers={"Origin": "http://evil.example"})
    check("bad Origin", status == 403 and e["code"] == "bad_origin", e)
    status, _, _ = s.post("/api/games", {"white": "human"}, headers={"Origin": f"http://{s.host}"})
    check("same Origin", status == 201, status)
    status, _, e = s.request("POST", "/api/games", raw=b'{"white":"human"}',
                             headers={"Content-Type": "text/plain"})
    check("wrong content type", status == 415 and e["code"] == "bad_type", e)
    status, _, e = s.request("POST", "/api/games", raw=b"{" + b" " * 70000 + b"}",
                             headers={"Content-Type": "application/json"})
    check("huge body", status == 413 and e["code"] == "too_large", e)
    status, _, _ = s.get("/api/info", headers={"X-Big": "a" * 20000})
    check("huge headers", status == 431, status)
    status, h, page = s.get("/")
    check("page", status == 200 and h["content-type"].startswith("text/html")
          and "<html" in page.lower() and "frame-ancestors 'none'" in h["content-security-policy"])
    status, h, _ = s.get("/app.js")
    check("script type", status == 200 and h["content-type"].startswith("text/javascript"), h)


def raw_get(s, path, headers):
    """A GET answered as bytes (the page's files may come gzip-compressed)."""
    c = http.client.HTTPConnection("127.0.0.1", s.port, timeout=30)
    c.request("GET", path, headers={"Host": s.host, **headers})
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


def test_assets(s):
    """The page's files carry an ETag (a revisit gets 304 and no body) and come
    gzip-compressed to a browser that takes it, byte for byte the same once inflated."""
    import gzip
    plain_total = gz_total = 0
    for path in ["/", "/app.js", "/game.js", "/style.css", "/i18n.js"]:
        status, h, plain = raw_get(s, path, {})
        etag = h.get("etag", "")
        check(f"{path}: an ETag", status == 200 and re.match(r'^"[0-9a-f]{20}"$', etag)
              and "content-encoding" not in h, h)
        status, h2, body = raw_get(s, path, {"If-None-Match": etag})
        check(f"{path}: 304 when unchanged", status == 304 and body == b""
              and h2.get("etag") == etag, (status, h2))
        status, h3, packed = raw_get(s, path, {"Accept-Encoding": "gzip, deflate, br"})
        check(f"{path}: gzip", status == 200 and h3.get("content-encoding") == "gzip"
              and h3.get("vary") == "Accept-Encoding" and gzip.decompress(packed) == plain
              and len(packed) < len(plain) / 2, (h3, len(packed), len(plain)))
        status, _, body = raw_get(s, path, {"If-None-Match": '"0000"'})
        check(f"{path}: another ETag gets the file", status == 200 and body == plain)
        plain_total += len(plain)
        gz_total += len(packed)
    print(f"serve: page files {plain_total} bytes, {gz_total} gzip-compressed", file=sys.stderr)


def test_computer_games(s):
    # a full game against the easy level, then one against hard, each to its result
    for level, max_ply in [("beginner", 225), ("easy", 225), ("hard", 225)]:
        g = new_game(s, rule="standard", black="human", white=level)
        gid = g["id"]
        rnd = random.Random(7)
        refused = []
        while g["result"] is None and g["ply"] < max_ply:
            if g["to_move"] == "black" and idle(g):
                pts = free_points(g)
                status, _, g = move(s, gid, pts[rnd.randrange(min(6, len(pts)))])
                if status != 200:
                    refused.append(g)
            g = wait_for(s, gid, lambda x: idle(x) or x["result"])
        check(f"{level}: every human move taken", not refused, refused[:1])
        check(f"{level}: game ends", g["result"] is not None and g["ply"] >= 9, g)
        if level == "hard":
            check("hard wins", g["result"]["winner"] == "white", g["result"])
            check("hard evals", len(g["evals"]) > 2 and all(
                set(e) == {"ply", "score", "text", "winrate", "depth"} for e in g["evals"]), g)
    # the computer against itself
    g = new_game(s, black="easy", white="medium", rule="renju")
    g = wait_for(s, g["id"], lambda x: x["result"] is not None, 60)
    check("computer vs computer", g["result"] is not None, g["ply"])
    # a node-limited max against the beginner, on renju: the beginner never plays a foul
    g = new_game(s, black="beginner", white="max@3000", rule="renju")
    g = wait_for(s, g["id"], lambda x: x["result"] is not None, 60)
    check("max@3000 beats beginner", g["result"] is not None and g["result"]["winner"] == "white"
          and g["result"]["reason"] == "five", g["result"])


def test_undo_redo_goto(s):
    g = new_game(s, black="human", white="easy")
    gid = g["id"]
    status, _, e = act(s, gid, "undo")
    check("nothing to undo", status == 409 and e["code"] == "nothing", e)
    move(s, gid, "h8")
    g = wait_for(s, gid, lambda x: x["ply"] == 2 and idle(x))
    reply = g["moves"][1]
    status, _, g = act(s, gid, "undo")
    check("undo pair", status == 200 and g["ply"] == 0 and g["redo"] == ["h8", reply], g)
    status, _, g = act(s, gid, "redo")
    check("redo pair", status == 200 and g["moves"] == ["h8", reply] and g["redo"] == [], g)
    status, _, e = act(s, gid, "redo")
    check("nothing to redo", status == 409 and e["code"] == "nothing", e)
    act(s, gid, "undo")
    status, _, g = move(s, gid, "a1")
    check("a move cuts redo", g["redo"] == [] and g["moves"] == ["a1"], g)
    wait_for(s, gid, lambda x: x["ply"] == 2 and idle(x))
    # the computer as Black: undo takes back White's move and Black's reply
    g = new_game(s, black="easy", white="human")
    gid = g["id"]
    g = wait_for(s, gid, lambda x: x["ply"] == 1 and idle(x))
    move(s, gid, free_points(g)[0])
    g = wait_for(s, gid, lambda x: x["ply"] == 3 and idle(x))
    status, _, g = act(s, gid, "undo")
    check("undo to the human's turn", g["ply"] == 1 and g["to_move"] == "white", g)
    # humans: one move each way; goto
    g = new_game(s, white="human")
    gid = g["id"]
    play_line(s, gid, ["h8", "i9", "h9", "i10", "h10"])
    status, _, g = act(s, gid, "undo")
    check("undo one", g["ply"] == 4 and g["redo"] == ["h10"], g)
    status, _, g = act(s, gid, "goto", {"ply": 1})
    check("goto", status == 200 and g["moves"] == ["h8"] and len(g["redo"]) == 4, g)
    status, _, g = act(s, gid, "goto", {"ply": 5})
    check("goto end", g["ply"] == 5, g)
    for bad in [{"ply": 6}, {"ply": -1}, {"ply": "2"}, {}]:
        status, _, e = act(s, gid, "goto", bad)
        check(f"goto {bad}", status == 400, e)
    # against the computer, an undo pauses it where it is to move
    g = new_game(s, black="easy", white="human")
    gid = g["id"]
    wait_for(s, gid, lambda x: x["ply"] == 1 and idle(x))
    status, _, g = act(s, gid, "goto", {"ply": 0})
    check("paused after a jump", g["paused"] and not g["thinking"] and g["ply"] == 0, g)
    time.sleep(0.3)
    check("stays paused", game(s, gid)["ply"] == 0)
    status, _, g = act(s, gid, "go")
    g = wait_for(s, gid, lambda x: x["ply"] == 1)
    check("go", g["ply"] == 1, g)


def test_resign_draw(s):
    g = new_game(s, white="human")
    gid = g["id"]
    play_line(s, gid, ["h8", "i9"])
    status, _, g = act(s, gid, "resign")
    check("resign (side to move)", g["result"] == {"winner": "white", "reason": "resign"}, g)
    status, _, e = act(s, gid, "resign")
    check("resign twice", status == 409 and e["code"] == "game_over", e)
    status, _, g = act(s, gid, "undo")
    check("undo a resignation", g["result"] is None and g["ply"] == 2, g)
    g = new_game(s, black="human", white="easy")
    status, _, g = act(s, g["id"], "resign")
    check("resign against the computer", g["result"]["winner"] == "white", g)
    g = new_game(s, white="human")
    gid = g["id"]
    status, _, g = act(s, gid, "draw")
    check("draw offer", g["draw_offer"] == "black" and g["result"] is None, g)
    status, _, g = move(s, gid, "h8")
    check("a move clears the offer", g["draw_offer"] is None, g)
    status, _, e = act(s, gid, "decline")
    check("nothing to decline", status == 409 and e["code"] == "nothing", e)
    act(s, gid, "draw", {"color": "white"})
    status, _, g = act(s, gid, "decline")
    check("draw declined on one screen", g["draw_offer"] is None and g["result"] is None, g)
    act(s, gid, "draw", {"color": "black"})
    status, _, g = act(s, gid, "draw", {"color": "white"})
    check("draw agreed", g["result"] == {"winner": None, "reason": "agreement"}, g)
    status, _, e = act(s, gid, "draw", {"color": "red"})
    check("draw colour", status == 400, e)
    g = new_game(s, black="human", white="easy")
    status, _, g = act(s, g["id"], "draw")
    check("the computer declines", status == 200 and g.get("declined") is True
          and g["result"] is None and g["draw_offer"] is None, g)


def test_search_controls(s):
    g = new_game(s, black="human", white="max", computer_ms=60000)
    gid = g["id"]
    status, _, g = move(s, gid, "h8")
    check("thinking", g["thinking"], g)
    status, _, e = move(s, gid, "i9")
    check("not your turn", status == 409 and e["code"] == "not_your_turn", e)
    status, _, e = act(s, gid, "analyze", {"time_ms": 100})
    check("analyze while thinking", status == 409 and e["code"] == "busy", e)
    status, _, g = act(s, gid, "stop")
    check("stop", not g["thinking"] and g["paused"] and g["ply"] == 1, g)
    status, _, g = act(s, gid, "go")
    check("go again", g["thinking"], g)
    time.sleep(0.2)
    status, _, g = act(s, gid, "move-now")
    g = wait_for(s, gid, lambda x: x["ply"] == 2, 5)
    check("move now", g["ply"] == 2 and not g["thinking"], g)
    status, _, e = act(s, gid, "move-now")
    check("move now on the human's turn", status == 409 and e["code"] == "not_your_turn", e)
    act(s, gid, "undo")
    g = new_game(s, black="max", white="human", computer_ms=60000)
    g = wait_for(s, g["id"], lambda x: x["thinking"], 3)
    status, _, g = act(s, g["id"], "move-now")
    g = wait_for(s, g["id"], lambda x: x["ply"] == 1, 5)
    check("move now at the start", g["ply"] == 1, g)


class Events:
    """A reader of a game's event stream."""

    def __init__(self, s, gid):
        self.sock = socket.create_connection(("127.0.0.1", s.port), timeout=10)
        self.sock.sendall(f"GET /api/games/{gid}/events HTTP/1.1\r\nHost: {s.host}\r\n\r\n"
                          .encode())
        self.buf = b""
        head = self._until(b"\r\n\r\n")
        self.headers = head.decode()

    def _until(self, sep):
        while sep not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        head, self.buf = self.buf.split(sep, 1)
        return head

    def next(self):
        """The next event as (name, data); chunked framing lines are skipped."""
        name, data = None, None
        while True:
            line = self._until(b"\n").decode().rstrip("\r")
            if line.startswith("event: "):
                name = line[7:]
            elif line.startswith("data: "):
                data = json.loads(line[6:])
            elif line == "" and name:
                return name, data

    def find(self, cond, timeout=20):
        end = time.time() + timeout
        seen = []
        while time.time() < end:
            ev = self.next()
            seen.append(ev)
            if cond(ev):
                return ev, seen
        return None, seen

    def close(self):
        self.sock.close()


def test_events_and_analysis(s):
    g = new_game(s, black="human", white="medium")
    gid = g["id"]
    ev = Events(s, gid)
    check("event stream type", "text/event-stream" in ev.headers, ev.headers)
    name, data = ev.next()
    check("first event is the game", name == "game" and data["id"] == gid, (name, data))
    move(s, gid, "h8")
    got, seen = ev.find(lambda e: e[0] == "game" and e[1]["ply"] == 2)
    searches = [d for n, d in seen if n == "search"]
    check("reply event", got is not None and not got[1]["thinking"], seen[-1:])
    check("search events", searches and searches[-1]["final"] and searches[0]["kind"] == "move"
          and searches[0]["color"] == "white" and searches[0]["ply"] == 1
          and searches[0]["lines"][0]["moves"], searches[:1])
    check("thinking shown", any(n == "game" and d["thinking"] for n, d in seen), len(seen))
    ev.close()
    # analysis: progress and the result as events, the score into evals
    g = new_game(s, white="human", moves=["h8", "i9", "h9"])
    gid = g["id"]
    ev = Events(s, gid)
    ev.next()
    status, _, g = act(s, gid, "analyze", {"time_ms": 400, "multipv": 2})
    check("analyze accepted", status == 202, (status, g))
    got, seen = ev.find(lambda e: e[0] == "search" and e[1]["final"])
    check("analysis events", got and got[1]["kind"] == "analysis" and len(got[1]["lines"]) == 2
          and got[1]["color"] == "white" and got[1]["ply"] == 3, got)
    g = wait_for(s, gid, lambda x: any(e["ply"] == 3 for e in x["evals"]), 5)
    check("analysis eval", any(e["ply"] == 3 for e in g["evals"]), g["evals"])
    for bad in [{"multipv": 11}, {"time_ms": -1}, {"time_ms": 700000}, {"depth": 3}]:
        status, _, e = act(s, gid, "analyze", bad)
        check(f"analyze {bad}", status == 400, e)
    act(s, gid, "analyze", {"time_ms": 0})
    time.sleep(0.3)
    act(s, gid, "stop")
    got, _ = ev.find(lambda e: e[0] == "search" and e[1]["final"], 5)
    check("stop ends an analysis", got is not None)
    ev.close()


def test_mate_texts(s):
    """Forced results found with White to move read right from Black's view: White's win in
    1 is Black's "loss in 1" (not a raw -29999), a win in 2 is "loss in 2" (not "loss in 1");
    Black's own win in 1 is "win in 1"."""
    corners = ["a1", "o1", "a15", "o15", "a8"]
    for name, white, ply, want in [("white four", ["h8", "h9", "h10", "h11"], 9, "loss in 1"),
                                   ("white open three", ["h8", "h9", "h10"], 7, "loss in 2")]:
        moves = [m for pair in zip(corners, white) for m in pair]
        if len(moves) < ply:
            moves.append(corners[len(white)])
        g = new_game(s, white="human", moves=moves)
        check(f"{name}: white to move", g["to_move"] == "white" and g["ply"] == ply, g)
        act(s, g["id"], "analyze", {"time_ms": 1500, "multipv": 1})
        g = wait_for(s, g["id"], lambda x: any(e["ply"] == ply for e in x["evals"]), 10)
        e = [e for e in g["evals"] if e["ply"] == ply]
        check(f"{name}: {want}", e and e[0]["text"] == want and e[0]["winrate"] == 0
              and e[0]["score"] <= -29000, e)
    g = new_game(s, white="human", moves=["h8", "a1", "h9", "o1", "h10", "a15", "h11", "o15"])
    act(s, g["id"], "analyze", {"time_ms": 500, "multipv": 1})
    g = wait_for(s, g["id"], lambda x: any(e["ply"] == 8 for e in x["evals"]), 10)
    e = [e for e in g["evals"] if e["ply"] == 8]
    check("black four: win in 1", e and e[0]["text"] == "win in 1", e)


def test_analysis_kept(s):
    """An analysis until stop keeps the position's latest evaluation when browsing stops it:
    an undo leaves the eval of the position left, so the graph fills while browsing."""
    g = new_game(s, white="human", moves=["h8", "i9", "h9"])
    gid = g["id"]
    ev = Events(s, gid)
    ev.next()
    status, _, r = act(s, gid, "analyze", {"time_ms": 0})
    check("analysis until stop", status == 202, r)
    got, _ = ev.find(lambda e: e[0] == "search" and e[1]["depth"] >= 3)
    ev.close()
    status, _, g = act(s, gid, "undo")
    check("the undo stops it, the eval stays", status == 200 and g["ply"] == 2
          and any(e["ply"] == 3 and e["depth"] >= 3 for e in g["evals"]), g["evals"])
    status, _, g = act(s, gid, "redo")
    check("... and after redo", any(e["ply"] == 3 for e in g["evals"]), g["evals"])


def test_solve(s):
    """The solver on a game's position: a VCF line ending with the five, a VCT, a proven
    none; refusals change nothing."""
    g = new_game(s, white="human", moves=["h8", "a1", "i8", "a2", "j8", "a3"])
    gid = g["id"]
    status, _, r = act(s, gid, "solve", {"kind": "vcf", "time_ms": 2000})
    check("vcf found", status == 200 and r["status"] == "win" and r["kind"] == "vcf"
          and r["color"] == "black" and len(r["line"]) == 2
          and set(r["line"]) <= {"g8", "k8", "f8", "l8"}, r)
    status, _, r = act(s, gid, "solve", {"kind": "vct"})
    check("vct found", status == 200 and r["status"] == "win" and r["kind"] == "vct", r)
    status, _, r = act(s, new_game(s, white="human", moves=["h8", "a1"])["id"], "solve", {})
    check("no vcf", status == 200 and r["status"] == "none" and r["line"] == [], r)
    for bad, code in [({"kind": "mate"}, 400), ({"time_ms": 0}, 400), ({"time_ms": 10001}, 400),
                      ({"depth": 3}, 400)]:
        status, _, e = act(s, gid, "solve", bad)
        check(f"solve refuses {bad}", status == code and e["code"] == "bad_field", e)
    status, _, e = s.get(f"/api/games/{gid}/solve")
    check("solve is a POST", status == 405, e)
    play_line(s, gid, ["k8", "a4", "g8"])
    status, _, e = act(s, gid, "solve", {})
    check("no solve after the end", status == 409 and e["code"] == "game_over", e)
    check("solve changes nothing", game(s, gid)["ply"] == 9)


def test_online(s):
    status, _, g = s.post("/api/games", {"online": True, "black": "human", "white": "human"})
    gid, black = g["id"], g["you"]["token"]
    check("online game", status == 201 and g["online"] and g["you"]["color"] == "black"
          and g["seats"] == {"black": "taken", "white": "open"}, g)
    status, _, e = move(s, gid, "h8")
    check("spectator cannot move", status == 403 and e["code"] == "not_your_seat", e)
    status, _, e = move(s, gid, "h8", "0" * 32)
    check("wrong token", status == 403 and e["code"] == "not_your_seat", e)
    status, _, j = act(s, gid, "join")
    white = j["you"]["token"]
    check("join", status == 200 and j["you"]["color"] == "white"
          and j["game"]["seats"] == {"black": "taken", "white": "taken"}, j)
    status, _, e = act(s, gid, "join")
    check("seat taken", status == 409 and e["code"] == "seat_taken", e)
    status, _, j = act(s, gid, "join", seat=white)
    check("rejoin keeps the seat", status == 200 and j["you"]["token"] == white, j)
    status, _, e = move(s, gid, "h8", white)
    check("not your seat", status == 403 and e["code"] == "not_your_seat", e)
    move(s, gid, "h8", black)
    move(s, gid, "i9", white)
    move(s, gid, "h9", black)
    status, _, g = act(s, gid, "undo", seat=black)
    check("undo request", g["undo_offer"] == "black" and g["ply"] == 3, g)
    status, _, g = act(s, gid, "undo", seat=white)
    check("undo granted", g["undo_offer"] is None and g["moves"] == ["h8", "i9"], g)
    status, _, e = act(s, gid, "goto", {"ply": 0}, seat=black)
    check("no goto online", status == 409, e)
    status, _, e = act(s, gid, "undo")
    check("spectator undo", status == 403, e)
    status, _, e = act(s, gid, "resign", {"color": "white"}, seat=black)
    check("resign for the other seat", status == 403, e)
    status, _, g = act(s, gid, "draw", seat=black)
    check("online draw offer", g["draw_offer"] == "black", g)
    status, _, e = act(s, gid, "decline", seat=black)
    check("no declining one's own offer", status == 409 and e["code"] == "nothing", e)
    status, _, g = act(s, gid, "decline", seat=white)
    check("online draw declined", status == 200 and g["draw_offer"] is None
          and g["result"] is None, g)
    move(s, gid, "h9", black)
    status, _, g = act(s, gid, "undo", seat=black)
    status, _, g = act(s, gid, "decline", seat=white)
    check("online undo declined", g["undo_offer"] is None and g["ply"] == 3, g)
    act(s, gid, "draw", seat=black)
    status, _, g = act(s, gid, "draw", seat=white)
    check("online draw agreed", g["result"] and g["result"]["reason"] == "agreement", g)
    status, _, g = s.get(f"/api/games/{gid}")
    check("spectator sees", status == 200 and "you" not in g and "token" not in json.dumps(g))
    return gid, black


def test_online_aids(s):
    """Online, hints and analysis need both players' agreement; one taking it back stops them;
    a game on one screen has no such agreement."""
    g = new_game(s, online=True, black="human", white="human")
    gid, one = g["id"], g["you"]["token"]
    two = act(s, gid, "join")[2]["you"]["token"]
    check("aids start off", g["aids"] == {"black": False, "white": False}, g)
    status, _, e = act(s, gid, "analyze", {"time_ms": 300}, seat=one)
    check("no analysis without agreement", status == 409 and e["code"] == "illegal", e)
    status, _, g = act(s, gid, "aids", {"allow": True}, seat=one)
    check("one agrees", status == 200 and g["aids"] == {"black": True, "white": False}, g)
    status, _, e = act(s, gid, "analyze", {"time_ms": 300}, seat=two)
    check("one is not enough", status == 409, e)
    act(s, gid, "aids", {"allow": True}, seat=two)
    status, _, r = act(s, gid, "analyze", {"time_ms": 0}, seat=two)
    check("both agree: analysis", status == 202, r)
    status, _, g = act(s, gid, "aids", {"allow": False}, seat=one)
    check("taken back", g["aids"] == {"black": False, "white": True}, g)
    status, _, e = act(s, gid, "aids", {"allow": True})
    check("aids need a seat", status == 403, e)
    status, _, e = act(s, gid, "aids", {"allow": "yes"}, seat=one)
    check("aids wants a boolean", status == 400, e)
    g = new_game(s, white="human")
    status, _, e = act(s, g["id"], "aids", {"allow": True})
    check("no aids on one screen", status == 409 and g["aids"] is None, e)


def test_records(s):
    g = new_game(s, rule="renju", white="human")
    gid = g["id"]
    play_line(s, gid, ["h8", "i9", "h9", "i10", "j8"])
    want = {"psq": "Piskvorky 15x15", "sgf": "(;", "pos": "h8i9h9i10j8", "txt": "h8 i9 h9 i10 j8"}
    for fmt, needle in want.items():
        status, h, text = s.get(f"/api/games/{gid}/record?format={fmt}")
        check(f"record {fmt}", status == 200 and needle in text and "attachment" in
              h.get("content-disposition", ""), (status, text))
        for import_as in [fmt, "auto"]:
            status, _, g2 = s.post("/api/games/import", {"data": text, "format": import_as,
                                                         "rule": "renju"})
            check(f"import {fmt} as {import_as}", status == 201 and
                  g2["moves"] == ["h8", "i9", "h9", "i10", "j8"] and g2["rule"] == "renju"
                  and g2["black"] == "human", (status, g2))
    status, _, g = s.post("/api/games/import", {"data": "h8 i9 h9", "white": "easy"})
    check("import against the computer", g["white"] == "easy" and g["to_move"] == "white"
          and g["paused"] and not g["thinking"], g)
    status, _, g = s.post("/api/games/import", {"data": "(;FF[4]GM[4]SZ[15]RU[freestyle];B[hh]"
                                                ";W[ii];B[ih];W[jj];B[jh];W[kk];B[kh];W[ll];B[lh])"})
    check("import a finished game", g["result"] and g["result"]["winner"] == "black", g)
    for bad in [{"data": "garbage!!"}, {"data": "h8 h8"}, {"data": "(;FF[4]GM[4]SZ[15];B[zz]"},
                {"data": "Piskvorky 15x15, 11:11, 0\n99,99\n-1\n"}, {"data": ""},
                {"data": "h8", "format": "doc"}, {"data": 5}, {}, {"data": "h8", "x": 1},
                {"data": "i8 a1 j8 a3 h9 a5 h10 a7 h8 a9", "rule": "renju"}]:
        status, _, e = s.post("/api/games/import", bad)
        check(f"corrupt import {str(bad)[:40]}", status == 400 and "error" in e, (status, e))


def test_clock(s):
    g = new_game(s, white="human", clock={"game_ms": 60000, "increment_ms": 2000, "move_ms": 0})
    c = g["clock"]
    check("clock", c["game_ms"] == 60000 and c["running"] == "black" and c["black_ms"] <= 60000)
    g = new_game(s, white="human", online=True, clock={"game_ms": 60000})
    check("online clock waits for the second player", g["clock"]["running"] is None, g["clock"])
    status, _, j = act(s, g["id"], "join")
    check("and starts when both sit", j["game"]["clock"]["running"] == "black", j)
    g = new_game(s, white="human", clock={"game_ms": 600})
    gid = g["id"]
    time.sleep(1.0)  # nobody asks: the server's timer must end it
    g = game(s, gid)
    check("lost on time", g["result"] == {"winner": "white", "reason": "time"}
          and g["clock"]["running"] is None and g["clock"]["black_ms"] == 0, g)
    status, _, e = act(s, gid, "undo")
    check("no undo after time", status == 409, e)
    g = new_game(s, black="human", white="max", clock={"game_ms": 400})
    gid = g["id"]
    move(s, gid, "h8")
    g = wait_for(s, gid, lambda x: x["result"] is not None, 10)
    check("the computer's clock", g["result"] is not None and g["ply"] >= 1, g)


def test_list(s):
    status, _, l = s.get("/api/games?limit=3&offset=1")
    check("list", status == 200 and len(l["games"]) == 3 and l["total"] > 10
          and set(l["games"][0]) == {"id", "rule", "size", "black", "white", "online", "created",
                                     "updated", "length", "result"}, l)
    times = [x["updated"] for x in s.get("/api/games?limit=50")[2]["games"]]
    check("newest first", times == sorted(times, reverse=True))


def test_filters_and_delete(s):
    """The archive list filters by rule, result and player; a game can be deleted (also one
    the computer is thinking about, or one an event stream is watching), an online one not."""
    tag = new_game(s, rule="caro8", white="human", moves=["h8", "a1", "i8", "a2", "j8", "a3",
                                                           "k8", "a4", "l8"])
    won = tag["id"]
    check("a caro8 win by black", tag["result"]["winner"] == "black", tag)
    open_game = new_game(s, rule="caro8", black="human", white="human")["id"]
    new_game(s, rule="caro8", black="human", white="easy")
    q = "/api/games?limit=50"
    status, _, l = s.get(q + "&rule=caro8")
    ids = {x["id"] for x in l["games"]}
    check("filter by rule", status == 200 and {won, open_game} <= ids
          and all(x["rule"] == "caro8" for x in l["games"]) and l["total"] == len(l["games"]), l)
    status, _, l = s.get(q + "&rule=caro8&result=black")
    check("filter by result", [x["id"] for x in l["games"]] == [won] and l["total"] == 1, l)
    status, _, l = s.get(q + "&rule=caro8&result=none")
    check("no result yet", open_game in {x["id"] for x in l["games"]} and won not in
          {x["id"] for x in l["games"]}, l)
    status, _, l = s.get(q + "&player=easy")
    check("filter by player", status == 200 and l["games"] and all(
        "easy" in (x["black"], x["white"]) for x in l["games"]), l)
    for bad in ["rule=chess", "result=win", "player=grandmaster"]:
        status, _, e = s.get(q + "&" + bad)
        check(f"list refuses {bad}", status == 400 and e["code"] == "bad_field", e)
    # delete: a finished game, watched by an event stream
    ev = Events(s, won)
    ev.next()
    status, _, r = act(s, won, "delete")
    check("delete", status == 200 and r == {"id": won, "deleted": True}, r)
    check("deleted game gone", s.get(f"/api/games/{won}")[0] == 404)
    status, _, l = s.get(q + "&rule=caro8&result=black")
    check("deleted game not listed", l["total"] == 0, l)
    ev.close()
    status, _, e = act(s, won, "delete")
    check("delete twice", status == 404 and e["code"] == "no_game", e)
    # a game the computer is thinking about
    g = new_game(s, black="max", white="human", computer_ms=5000)
    status, _, r = act(s, g["id"], "delete")
    check("delete while the computer thinks", status == 200, r)
    time.sleep(0.2)
    check("... and it is gone for good", s.get(f"/api/games/{g['id']}")[0] == 404)
    online = new_game(s, online=True, black="human", white="human")
    status, _, e = act(s, online["id"], "delete", seat=online["you"]["token"])
    check("an online game is kept", status == 409 and e["code"] == "illegal", e)
    status, _, e = s.get(f"/api/games/{open_game}/delete")
    check("delete is a POST", status == 405, e)
    check("the server lives on", s.get("/api/info")[0] == 200)


def test_rate_limit(db):
    s = Server(db, "--rate", "5")
    statuses = [s.get("/api/info")[0] for _ in range(30)]
    status, h, e = s.get("/api/info")
    check("rate limited", 429 in statuses and statuses[:5] == [200] * 5, statuses)
    check("retry after", status != 429 or (h.get("retry-after") and e["code"] == "rate_limited"))
    check("the page is not limited", s.get("/")[0] == 200)
    time.sleep(1.2)
    check("tokens come back", s.get("/api/info")[0] == 200)
    s.kill(signal.SIGTERM)


def test_restart(db, s, online):
    hvh = new_game(s, white="human", rule="renju")
    play_line(s, hvh["id"], ["h8", "i9", "h9"])
    act(s, hvh["id"], "undo")
    done = new_game(s, white="human")
    act(s, done["id"], "resign")
    by_nodes = new_game(s, black="human", white="max@4000", opening="swap1")
    clocked = new_game(s, white="human", clock={"game_ms": 120000, "increment_ms": 1000})
    play_line(s, clocked["id"], ["h8"])
    thinking = new_game(s, black="human", white="max", computer_ms=60000)
    move(s, thinking["id"], "h8")
    ev = Events(s, thinking["id"])
    ev.next()
    status, _, g = act(s, hvh["id"], "analyze", {"time_ms": 0})
    before = {gid: game(s, gid) for gid in [hvh["id"], done["id"], clocked["id"], thinking["id"],
                                             online[0], by_nodes["id"]]}
    total = s.get("/api/games")[2]["total"]
    check("killed", s.kill() == -signal.SIGKILL)
    s2 = Server(db, "--rate", "0")
    check("all games kept", s2.get("/api/games")[2]["total"] == total)
    for gid, b in before.items():
        a = game(s2, gid)
        same = all(a[k] == b[k] for k in ["moves", "redo", "ply", "to_move", "result", "black",
                                           "white", "rule", "online", "seats", "created"])
        check(f"restored {gid}", same, (b, a))
    a = game(s2, clocked["id"])
    b = before[clocked["id"]]["clock"]
    check("clock restored", a["clock"]["black_ms"] == b["black_ms"]
          and 110000 < a["clock"]["white_ms"] <= 120000, (b, a["clock"]))
    g = wait_for(s2, thinking["id"], lambda x: x["thinking"], 3)
    check("the computer thinks again", g["thinking"], g)
    act(s2, thinking["id"], "move-now")
    g = wait_for(s2, thinking["id"], lambda x: x["ply"] == 2, 5)
    check("and moves", g["ply"] == 2, g)
    status, _, g = act(s2, hvh["id"], "redo")
    check("redo after restart", status == 200 and g["ply"] == 3, g)
    status, _, g = move(s2, hvh["id"], "i10")
    check("play on after restart", status == 200 and g["ply"] == 4, g)
    status, _, e = move(s2, online[0], "a1", online[1])
    check("finished online game", status == 409 and e["code"] == "game_over", e)
    status, _, g = act(s2, done["id"], "undo")
    check("undo a resignation after restart", status == 200 and g["result"] is None, g)
    return s2


def test_shutdown(s):
    g = new_game(s, black="human", white="max", computer_ms=60000)
    move(s, g["id"], "h8")
    ev = Events(s, g["id"])
    ev.next()
    t = time.time()
    code = s.kill(signal.SIGTERM)
    check("SIGTERM stops cleanly", code == 0 and time.time() - t < 5, (code, time.time() - t))
    ev.close()


# ---- Opening rules ---------------------------------------------------------------------------


def op(s, gid, action, seat=None, **fields):
    """One action of the opening phase: (status, game or error)."""
    headers = {"X-Tengen-Seat": seat} if seat else None
    status, _, r = s.post(f"/api/games/{gid}/opening", {"action": action, **fields},
                          headers=headers)
    return status, r


def ops(s, gid, *actions, seat=None):
    """Scripted actions: a point places/offers/selects as the step asks, a word chooses, a
    number declares. Every one must be accepted; the game after the last."""
    g = None
    for a in actions:
        step = game(s, gid)["opening"]["step"]
        if isinstance(a, int):
            status, g = op(s, gid, "declare", seat, n=a)
        elif a in ("stay", "swap", "place-two", "offer"):
            status, g = op(s, gid, "choose", seat, choice=a)
        else:
            status, g = op(s, gid, step["kind"], seat, point=a)
        assert status == 200, (a, step, status, g)
    return g


def players(g):
    return g["opening"]["players"]


def test_openings_list(s):
    status, _, o = s.get("/api/openings")
    names = [r["name"] for r in o["rules"]]
    check("openings list", status == 200 and len(o["openings"]) == 26
          and o["openings"][0] == {"code": "1D", "name": "Kansei", "chinese": "寒星",
                                   "kanji": "寒星", "direct": True,
                                   "moves": ["h8", "h9", "h10"]}, o["openings"][:1])
    check("opening rules", names == ["none", "swap1", "swap", "swap2", "rif", "yamaguchi",
                                     "soosorv8", "taraguchi10"], names)
    rif = next(r for r in o["rules"] if r["name"] == "rif")
    tara = next(r for r in o["rules"] if r["name"] == "taraguchi10")
    check("rule facts", rif["odd_size"] and rif["three_stones"] and tara["min_size"] == 9
          and not tara["three_stones"], o["rules"])
    g = new_game(s, white="human")
    check("no opening rule", g["opening"] is None and g["balancing"] is False
          and g["renju_opening"] is None, g)


def test_opening_swap_rules(s):
    # swap1: one stone, then player 2 takes Black
    g = new_game(s, white="easy", opening="swap1")
    gid = g["id"]
    check("swap1 starts", g["opening"]["step"]["kind"] == "place" and g["to_move"] is None
          and g["opening"]["step"]["count"] == 1, g["opening"])
    # the computer is player 2 here: it chooses once the stone is down
    g = ops(s, gid, "h8")
    g = wait_for(s, gid, lambda x: x["opening"]["done"] and idle(x))
    check("swap1 done", g["opening"]["done"] and g["moves"][0] == "h8", g["opening"])
    # classic swap between humans: player 2 swaps
    g = new_game(s, white="human", opening="swap")
    g = ops(s, g["id"], "h8", "i9", "j10", "swap")
    check("swap: colours traded", g["opening"]["done"] and players(g) == {"1": "white",
                                                                          "2": "black"}
          and g["to_move"] == "white" and g["opening"]["line"] == "swap h8 i9 j10 swap", g)
    status, g = move(s, g["id"], "k11")[0], game(s, g["id"])
    check("swap: play on", status == 200 and g["ply"] == 4, g)
    # swap2, each branch
    for choices, want in [(["stay"], {"1": "black", "2": "white"}),
                          (["swap"], {"1": "white", "2": "black"}),
                          (["place-two", "h7", "g6", "stay"], {"1": "black", "2": "white"}),
                          (["place-two", "h7", "g6", "swap"], {"1": "white", "2": "black"})]:
        g = new_game(s, rule="standard", white="human", opening="swap2")
        gid = g["id"]
        g = ops(s, gid, "h8", "i9", "j10")
        step = g["opening"]["step"]
        check("swap2 choice step", step["kind"] == "choose" and step["player"] == 2
              and step["choices"] == ["stay", "swap", "place-two"], step)
        g = ops(s, gid, *choices)
        stones = 5 if "place-two" in choices else 3
        check(f"swap2 {choices}", g["opening"]["done"] and players(g) == want
              and g["ply"] == stones and g["to_move"] == ("white" if stones == 3 else "white"
                                                          if stones == 5 else None), g)
        status, _, g = move(s, gid, free_points(g)[0])
        check(f"swap2 {choices}: a move", status == 200 and g["ply"] == stones + 1, g)


def test_opening_renju_rules(s):
    # RIF between humans: the 26 openings' squares, a swap, two offers, the selection
    g = new_game(s, rule="renju", white="human", opening="rif")
    gid = g["id"]
    for point, why in [("a1", "centre"), ("h8", None), ("h11", "3x3"), ("i9", None),
                       ("c3", "5x5"), ("j10", None)]:
        status, r = op(s, gid, "place", point=point)
        check(f"rif place {point}", status == (409 if why else 200)
              and (not why or (r["code"] == "illegal" and why in r["error"])), r)
    g = game(s, gid)
    check("rif opening named", g["opening"]["renju_opening"] == {"code": "1I", "name": "Chosei",
                                                                 "chinese": "长星"}, g["opening"])
    status, r = op(s, gid, "choose", choice="place-two")
    check("rif: no place-two", status == 409 and r["code"] == "illegal", r)
    g = ops(s, gid, "swap", "k11")
    check("rif: swapped, player 2 offers", players(g)["2"] == "black"
          and g["opening"]["step"]["kind"] == "offer" and g["opening"]["step"]["player"] == 2, g)
    g = ops(s, gid, "g9")
    status, r = op(s, gid, "offer", point="i7")  # the mirror image of g9 on this diagonal
    check("symmetric offer refused", status == 409 and "symmetric" in r["error"], r)
    status, r = op(s, gid, "offer", point="g9")
    check("repeated offer refused", status == 409 and "already offered" in r["error"], r)
    g = ops(s, gid, "g10")
    check("offers shown", g["opening"]["offers"] == ["g9", "g10"]
          and g["opening"]["step"]["kind"] == "select" and g["opening"]["step"]["player"] == 1, g)
    status, r = op(s, gid, "select", point="a1")
    check("select a non-offer", status == 409 and "not one of the offered" in r["error"], r)
    g = ops(s, gid, "g10")
    check("rif done", g["opening"]["done"] and g["moves"] == ["h8", "i9", "j10", "k11", "g10"]
          and g["to_move"] == "white" and g["opening"]["line"] ==
          "rif h8 i9 j10 swap k11 g9 g10 g10", g)
    # Yamaguchi: N declared by the opener, then N offers
    g = new_game(s, rule="renju", white="human", opening="yamaguchi")
    gid = g["id"]
    g = ops(s, gid, "h8", "h9", "h10")
    for n in [0, 11]:
        status, r = op(s, gid, "declare", n=n)
        check(f"declare {n}", status == 409 and r["code"] == "illegal" and "1 to 10" in r["error"],
              r)
    g = ops(s, gid, 3, "stay", "j12")
    check("yamaguchi declared", g["opening"]["declared"] == 3
          and g["opening"]["step"]["count"] == 3, g["opening"])
    g = ops(s, gid, "g9", "g7", "i11", "i11")
    check("yamaguchi done", g["opening"]["done"] and g["moves"][-1] == "i11", g["opening"])
    # Soosorv-8: White declares with move 4, then Black's swap option
    g = new_game(s, rule="renju", white="human", opening="soosorv8")
    gid = g["id"]
    g = ops(s, gid, "h8", "i9", "j9", "stay", "g10")
    check("soosorv8 declares", g["opening"]["step"]["kind"] == "declare"
          and g["opening"]["step"]["player"] == 2 and g["opening"]["step"]["max"] == 8, g)
    status, r = op(s, gid, "declare", n=9)
    check("soosorv8 at most 8", status == 409, r)
    g = ops(s, gid, 2, "swap", "f7", "k10", "k10")
    check("soosorv8 done", g["opening"]["done"] and players(g) == {"1": "white", "2": "black"}
          and g["opening"]["declared"] == 2 and len(g["moves"]) == 5, g["opening"])
    # Taraguchi-10: the swap options after moves 1-4 and 5, and the ten offers
    g = new_game(s, rule="renju", white="human", opening="taraguchi10")
    gid = g["id"]
    g = ops(s, gid, "h8", "stay", "i8", "swap", "h10", "stay", "k5", "stay", "l10", "swap")
    check("taraguchi10 move 5", g["opening"]["done"] and players(g) == {"1": "black",
                                                                       "2": "white"}
          and g["moves"] == ["h8", "i8", "h10", "k5", "l10"], g["opening"])
    g = new_game(s, rule="renju", white="human", opening="taraguchi10")
    gid = g["id"]
    g = ops(s, gid, "h8", "stay", "i8", "stay", "h10", "stay", "k5")
    status, r = op(s, gid, "place", point="m12")
    check("taraguchi10: move 5 outside 9x9", status == 409 and "choice" in r["error"], r)
    g = ops(s, gid, "offer")
    check("ten offers", g["opening"]["step"]["count"] == 10, g["opening"])
    offers = ["a1", "a3", "a5", "a7", "a9", "a11", "a13", "a15", "c1", "c3"]
    g = ops(s, gid, *offers, "a9")
    check("taraguchi10 offers done", g["opening"]["done"] and g["opening"]["offers"] == offers
          and g["moves"][-1] == "a9", g["opening"])
    status, r = op(s, gid, "place", point="b2")
    check("after the phase", status == 409 and r["code"] == "illegal", r)


def test_opening_refusals(s):
    g = new_game(s, rule="renju", white="human", opening="rif")
    gid = g["id"]
    before = game(s, gid)
    for body, want, code in [({"action": "place"}, 400, "bad_field"),
                             ({"action": "place", "point": "z99"}, 400, "bad_move"),
                             ({"action": "fly", "point": "h8"}, 400, "bad_field"),
                             ({"action": "choose", "choice": "maybe"}, 400, "bad_field"),
                             ({"action": "declare"}, 400, "bad_field"),
                             ({"action": "choose", "choice": "swap"}, 409, "illegal"),
                             ({"action": "declare", "n": 2}, 409, "illegal"),
                             ({"action": "offer", "point": "h8"}, 409, "illegal"),
                             ({"point": "h8"}, 400, "bad_field"),
                             ({"action": "place", "point": "h8", "x": 1}, 400, "bad_field"),
                             ({"action": 5}, 400, "bad_field")]:
        status, _, r = s.post(f"/api/games/{gid}/opening", body)
        check(f"opening refuses {body}", status == want and r["code"] == code, (status, r))
    status, _, r = move(s, gid, "h8")
    check("no moves during the phase", status == 409 and r["code"] == "illegal", r)
    for action, body in [("goto", {"ply": 0}), ("analyze", {"time_ms": 100})]:
        status, _, r = act(s, gid, action, body)
        check(f"no {action} during the phase", status == 409, r)
    check("refusals change nothing", game(s, gid)["updated"] == before["updated"])
    g = new_game(s, white="human")
    status, r = op(s, g["id"], "place", point="h8")
    check("no opening rule", status == 409 and r["code"] == "illegal", r)
    for bad in [{"opening": "chess"}, {"opening": "rif", "size": 14},
                {"opening": "taraguchi10", "size": 7}, {"opening": 1},
                {"opening": "swap2", "moves": ["h8"]}, {"renju_opening": "9Z"},
                {"renju_opening": "2I", "size": 16}, {"renju_opening": "2I", "balanced": True},
                {"opening": "swap1", "renju_opening": "2I"},
                {"opening": "taraguchi10", "balanced": True},
                {"opening": "rif", "rule": "freestyle", "balanced": True},
                {"balanced": "yes"}]:
        status, _, e = s.post("/api/games", {"white": "human", **bad})
        check(f"create refuses {bad}", status == 400 and e["code"] == "bad_field", (status, e))


def test_opening_starts(s):
    for name, code in [("2I", "2I"), ("Kagetsu", "4D"), ("花月", "4D"), ("kyogetsu", "2I")]:
        g = new_game(s, rule="renju", white="human", renju_opening=name)
        check(f"start from {name}", g["renju_opening"]["code"] == code and g["ply"] == 3
              and g["opening"] is None and g["to_move"] == "white", g)
    g = new_game(s, rule="renju", white="human", renju_opening="2I")
    check("named: as in the table", g["moves"] == ["h8", "i9", "j9"], g["moves"])
    g = new_game(s, rule="renju", white="human", opening="rif", renju_opening="random")
    check("random opening under rif", g["opening"]["renju_opening"] is not None
          and g["opening"]["step"]["kind"] == "choose" and len(g["moves"]) == 3, g["opening"])
    g = new_game(s, rule="standard", white="human", opening="swap2", renju_opening="any")
    check("any opening under swap2", g["opening"]["step"]["choices"] ==
          ["stay", "swap", "place-two"], g["opening"])
    # the balanced start, computed by a worker and announced by an event
    g = new_game(s, rule="renju", white="human", opening="rif", balanced=True)
    gid = g["id"]
    check("balancing", g["balancing"] and g["moves"] == [], g)
    status, r = op(s, gid, "place", point="h8")
    check("busy while balancing", status == 409 and r["code"] == "busy", r)
    g = wait_for(s, gid, lambda x: not x["balancing"])
    check("balanced rif", len(g["moves"]) == 3 and g["opening"]["renju_opening"] is not None
          and g["opening"]["step"]["kind"] == "choose", g)
    g = new_game(s, rule="freestyle", size=13, white="human", balanced=True)
    g = wait_for(s, g["id"], lambda x: not x["balancing"])
    check("balanced without a rule", len(g["moves"]) == 3 and g["to_move"] == "white", g)


def human_step(s, gid, g, choice="stay"):
    """A scripted human answer to the step: the first fitting point, always `choice`, the
    smallest N, the first offer."""
    step = g["opening"]["step"]
    taken = set(g["moves"]) | set(g["opening"]["offers"])
    if step["kind"] == "choose":
        return op(s, gid, "choose", choice=choice)
    if step["kind"] == "declare":
        return op(s, gid, "declare", n=step["min"])
    if step["kind"] == "select":
        return op(s, gid, "select", point=g["opening"]["offers"][0])
    for p in free_points(g):
        if p in taken:
            continue
        status, r = op(s, gid, step["kind"], point=p)
        if status == 200:
            return status, r
    return 409, None


def test_opening_computer(s):
    """The computer (easy) takes every kind of step; the human answers by script. Each kind
    comes whatever the computer chooses: Yamaguchi's opener declares and (the human staying
    White) offers; under RIF a human player 2 who swaps leaves the computer to select."""
    seen = set()
    for rule, black, white, choice in [("yamaguchi", "easy", "human", "stay"),
                                       ("rif", "easy", "human", "swap"),
                                       ("rif", "human", "easy", "stay"),
                                       ("soosorv8", "human", "easy", "stay"),
                                       ("taraguchi10", "easy", "human", "stay")]:
        g = new_game(s, rule="renju", black=black, white=white, opening=rule)
        gid = g["id"]
        end = time.time() + 30
        while not g["opening"]["done"] and time.time() < end:
            step = g["opening"]["step"]
            if step["who"] != "human":
                g = wait_for(s, gid, lambda x: x["opening"]["step"] != step or x["paused"])
                check(f"{rule}: the computer acts", g["opening"]["step"] != step, g)
                seen.add(step["kind"])
                continue
            status, g = human_step(s, gid, g, choice)
            if not check(f"{rule}: human step {step['kind']}", status == 200, (step, g)):
                break
        check(f"{rule}: opening done", g["opening"]["done"], g["opening"])
        # A quick declaration right after the computer's own stones can come and go between
        # two looks at the game; the number it leaves behind shows it was made. Under
        # Yamaguchi the opener declares, and in that row the opener is the computer.
        if rule == "yamaguchi" and g["opening"]["declared"]:
            seen.add("declare")
        g = wait_for(s, gid, idle)
        mover = g["to_move"]
        check(f"{rule}: names follow colours", g[mover] == ("human" if
              g["opening"]["players"][str(1 if black == "human" else 2)] == mover else "easy"), g)
    check("the computer decided every kind of step",
          seen == {"place", "choose", "declare", "offer", "select"}, seen)
    # undo against the computer: back to the human's last step
    g = new_game(s, rule="standard", black="human", white="easy", opening="swap2")
    gid = g["id"]
    ops(s, gid, "h8", "i9", "j10")
    g = wait_for(s, gid, lambda x: x["opening"]["step"]["player"] == 1 and idle(x)
                 or x["opening"]["done"] and idle(x))
    status, _, g = act(s, gid, "undo")
    check("undo to the human's step", status == 200 and g["opening"]["step"]["kind"] == "place"
          and g["moves"] == ["h8", "i9"] and g["paused"] is False, g)


def play_to_result(s, gid, name, limit=120):
    """Plays the scripted human's moves (the free point nearest the centre) against the
    computer until the game has a result; false if the computer stops moving."""
    g = game(s, gid)
    for _ in range(limit):
        g = wait_for(s, gid, lambda x: x["result"] or idle(x) and not x["paused"]
                     and x[x["to_move"]] == "human", timeout=30)
        if g["result"]:
            return g
        if not check(f"{name}: the computer moves", g[g["to_move"]] == "human"
                     and not g["paused"], {k: g[k] for k in ["to_move", "black", "white",
                                                             "thinking", "paused", "ply"]}):
            return g
        status, _, g = move(s, gid, free_points(g)[0])
        if not check(f"{name}: human move", status == 200, g):
            return g
    return g


def test_opening_rules_to_result(s):
    """Every opening rule against the computer, as player 1 and as player 2, the human
    staying and swapping when asked: each game is played through to a result, the computer
    moving whichever colour it ends up with."""
    sizes = {"taraguchi10": 15}
    for rule in ["swap1", "swap", "swap2", "rif", "yamaguchi", "soosorv8", "taraguchi10"]:
        for computer in [1, 2]:
            for choice in ["stay", "swap"]:
                name = f"{rule} computer {computer} human {choice}"
                black, white = ("easy", "human") if computer == 1 else ("human", "easy")
                g = new_game(s, rule="renju", size=sizes.get(rule, 15), black=black,
                             white=white, opening=rule)
                gid = g["id"]
                end = time.time() + 60
                while not g["opening"]["done"] and time.time() < end:
                    step = g["opening"]["step"]
                    if step["who"] != "human":
                        g = wait_for(s, gid, lambda x: x["opening"]["step"] != step
                                     or x["paused"], timeout=30)
                        if not check(f"{name}: the computer acts", g["opening"]["step"] != step,
                                     g["opening"]):
                            break
                        continue
                    status, g = human_step(s, gid, g, choice)
                    if not check(f"{name}: human step", status == 200, (step, g)):
                        break
                if not check(f"{name}: opening done", g["opening"]["done"], g["opening"]):
                    continue
                human = str(2 if computer == 1 else 1)
                colour = g["opening"]["players"][human]
                g = play_to_result(s, gid, name)
                check(f"{name}: played to a result", g["result"] is not None
                      and g[colour] == "human", {k: g[k] for k in
                                                 ["result", "black", "white", "ply"]})


def test_opening_undo_hvh(s):
    g = new_game(s, rule="renju", white="human", opening="rif")
    gid = g["id"]
    ops(s, gid, "h8", "i9", "j10", "swap", "k11", "g9", "g10", "g10")
    move(s, gid, "f11")
    status, _, g = act(s, gid, "undo")
    check("undo a move after the phase", g["ply"] == 5 and g["opening"]["done"], g)
    status, _, g = act(s, gid, "undo")
    check("undo the selection", not g["opening"]["done"] and g["opening"]["step"]["kind"] ==
          "select" and g["ply"] == 4, g["opening"])
    status, _, g = act(s, gid, "undo")
    check("undo an offer", g["opening"]["offers"] == ["g9"], g["opening"])
    status, _, g = act(s, gid, "undo")
    status, _, g = act(s, gid, "undo")
    status, _, g = act(s, gid, "undo")
    check("undo the swap", players(g) == {"1": "black", "2": "white"}
          and g["opening"]["step"]["kind"] == "choose", g["opening"])


def test_opening_online(s):
    g = new_game(s, online=True, rule="standard", opening="swap2", seat="1")
    gid, one = g["id"], g["you"]["token"]
    check("online creator is player 1", g["you"]["player"] == 1 and g["you"]["color"] == "black")
    status, _, j = act(s, gid, "join")
    two = j["you"]["token"]
    check("joiner is player 2", j["you"]["player"] == 2, j)
    status, r = op(s, gid, "place", two, point="h8")
    check("player 2 cannot place for player 1", status == 403, r)
    ops(s, gid, "h8", "i9", "j10", seat=one)
    g = ops(s, gid, "swap", seat=two)
    check("online swap", players(g) == {"1": "white", "2": "black"}
          and g["seats"] == {"black": "taken", "white": "taken"}, g)
    status, _, j = act(s, gid, "join", seat=two)
    check("the seat follows the colour", j["you"]["color"] == "black", j)
    status, _, r = move(s, gid, "k11", two)
    check("black's token may not play white's move", status == 403, r)
    status, _, g = move(s, gid, "k11", one)
    check("player 1 plays white now", status == 200 and g["ply"] == 4, g)
    return gid, one, two


def test_opening_restart(db, s, online):
    mid = new_game(s, rule="renju", white="human", opening="yamaguchi")
    ops(s, mid["id"], "h8", "h9", "h10", 2, "swap")
    vs = new_game(s, rule="renju", black="human", white="easy", opening="soosorv8")
    ops(s, vs["id"], "h8", "i9", "j9")
    wait_for(s, vs["id"], lambda x: idle(x) and x["opening"]["step"]["who"] == "human")
    before = {gid: game(s, gid) for gid in [mid["id"], vs["id"], online[0]]}
    check("killed mid-opening", s.kill() == -signal.SIGKILL)
    s2 = Server(db, "--rate", "0")
    for gid, b in before.items():
        a = game(s2, gid)
        check(f"opening restored {gid}", all(a[k] == b[k] for k in
                                             ["opening", "moves", "black", "white", "to_move",
                                              "seats"]), (b, a))
    g = ops(s2, mid["id"], "j12", "g9", "g7", "g9")
    check("continue after restart", g["opening"]["done"]
          and g["opening"]["line"] == "yamaguchi h8 h9 h10 2 swap j12 g9 g7 g9", g["opening"])
    status, _, r = move(s2, online[0], "l12", online[2])
    check("online seats after restart", status == 200, r)
    status, _, text = s2.get(f"/api/games/{mid['id']}/record?format=sgf")
    check("sgf keeps the opening", "OPENING[yamaguchi h8 h9 h10 2 swap j12 g9 g7 g9]" in text,
          text)
    status, _, g2 = s2.post("/api/games/import", {"data": text})
    check("sgf reads back", status == 201 and g2["moves"] == ["h8", "h9", "h10", "j12", "g9"]
          and g2["opening"]["line"] == "yamaguchi h8 h9 h10 2 swap j12 g9 g7 g9"
          and g2["opening"]["done"], g2)
    status, _, g2 = s2.post("/api/games/import", {"data": "(;FF[4]GM[4]SZ[15]RU[renju]"
                                                 "OPENING[swap2 h8 i9 j10];B[hh];W[ig];B[jf])"})
    check("sgf mid-phase reads back", status == 201 and g2["opening"]["step"]["kind"] == "choose"
          and g2["opening"]["step"]["player"] == 2, g2)
    return s2


def test_old_archive():
    """An archive of schema 1 (before opening rules) opens, and its games play on."""
    import sqlite3
    path = os.path.join(TMP, "v1.sqlite")
    con = sqlite3.connect(path)
    con.executescript(
        "CREATE TABLE games (id TEXT PRIMARY KEY, rule TEXT NOT NULL, size INTEGER NOT NULL,"
        " black TEXT NOT NULL, white TEXT NOT NULL, online INTEGER NOT NULL,"
        " token_black TEXT NOT NULL, token_white TEXT NOT NULL, moves TEXT NOT NULL,"
        " ply INTEGER NOT NULL, length INTEGER NOT NULL, reason TEXT NOT NULL,"
        " winner TEXT NOT NULL, paused INTEGER NOT NULL, draw_offer TEXT NOT NULL,"
        " undo_offer TEXT NOT NULL, game_ms INTEGER NOT NULL, increment_ms INTEGER NOT NULL,"
        " move_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL, white_ms INTEGER NOT NULL,"
        " computer_ms INTEGER NOT NULL, evals TEXT NOT NULL, created INTEGER NOT NULL,"
        " updated INTEGER NOT NULL);"
        "CREATE INDEX games_updated ON games(updated DESC);"
        "INSERT INTO games VALUES ('abcdefghij','renju',15,'human','human',0,'','',"
        "'h8 i9 h9',3,3,'','',0,'','',0,0,0,0,0,3000,'[]',1763740000000,1763740000000);"
        "PRAGMA user_version = 1;")
    con.close()
    s = Server(path, "--rate", "0")
    g = game(s, "abcdefghij")
    check("old game read", g["moves"] == ["h8", "i9", "h9"] and g["opening"] is None, g)
    status, _, g = move(s, "abcdefghij", "i10")
    check("old game plays on", status == 200 and g["ply"] == 4, g)
    s.kill(signal.SIGTERM)
    con = sqlite3.connect(path)
    version = con.execute("PRAGMA user_version").fetchone()[0]
    con.close()
    check("archive migrated", version == 2, version)


def test_model():
    """--model: a user's network for the zero level, offered on its board only; a bad file is
    refused at start."""
    model, bad = os.path.join(TMP, "m9.tgnn"), os.path.join(TMP, "bad.tgnn")
    subprocess.run([BIN, "zero", "init", "--out", model, "--size", "9", "--channels", "8",
                    "--blocks", "1"], check=True, capture_output=True)
    with open(bad, "w") as f:
        f.write("not a model")
    r = subprocess.run([BIN, "serve", "--port", "0", "--db", ":memory:", "--model", bad],
                       capture_output=True, text=True, timeout=10)
    check("a bad model refused at start", r.returncode != 0 and "not a tengen model" in r.stderr,
          r.stderr)
    s = Server(os.path.join(TMP, "model.sqlite"), "--rate", "0", "--model", model)
    info = s.get("/api/info")[2]
    check("zero boards: the model's", info["zero_boards"] == [{"rule": "freestyle", "size": 9}],
          info)
    g = new_game(s, size=9, black="human", white="zero", computer_ms=200)
    move(s, g["id"], "e5")
    g = wait_for(s, g["id"], lambda x: x["ply"] == 2 and idle(x))
    check("the model plays its board", g["ply"] == 2, g)
    status, _, e = s.post("/api/games", {"size": 8, "white": "zero"})
    check("a board the model is not for",
          status == 400 and "(--model) is for freestyle 9x9, not freestyle 8x8" in e["error"], e)
    status, _, e = s.post("/api/games/import", {"data": "h8 i9", "size": 15, "white": "zero"})
    check("an import the model is not for", status == 400 and "--model" in e["error"], e)
    s.kill(signal.SIGTERM)
    # An archived 8x8 game against the built-in network, continued under the 9x9 model: the
    # computer cannot move, and the game says why.
    db = os.path.join(TMP, "model2.sqlite")
    s = Server(db, "--rate", "0")
    g = new_game(s, size=8, black="human", white="zero", computer_ms=200)
    move(s, g["id"], "d4")
    g = wait_for(s, g["id"], lambda x: x["ply"] == 2 and idle(x))
    check("no search error after a move", g["search_error"] is None, g)
    s.kill(signal.SIGTERM)
    s = Server(db, "--rate", "0", "--model", model)
    move(s, g["id"], "e5" if "e5" not in g["moves"] else "c3")
    g = wait_for(s, g["id"], lambda x: x["search_error"] is not None)
    check("a continued game the model is not for: the computer says why it cannot move",
          g["paused"] and "no network model" in (g["search_error"] or ""), g)
    s.kill(signal.SIGTERM)


def main():
    t0 = time.time()
    db = os.path.join(TMP, "tengen.sqlite")
    s = Server(db, "--rate", "0")  # the test is quicker than any person; see test_rate_limit
    tests = [test_info_and_rules, test_human_game, test_refusals, test_assets, test_undo_redo_goto,
             test_resign_draw, test_search_controls, test_events_and_analysis, test_mate_texts, test_analysis_kept, test_solve, test_online_aids, test_records,
             test_clock, test_computer_games, test_openings_list, test_opening_swap_rules,
             test_opening_renju_rules, test_opening_refusals, test_opening_starts,
             test_opening_computer, test_opening_rules_to_result, test_opening_undo_hvh]
    for t in tests:
        try:
            t(s)
        except Exception as e:  # a crash of one part is a failure, not the end of the run
            check(t.__name__, False, repr(e))
    online = test_online(s)
    opening_online = test_opening_online(s)
    test_list(s)
    test_filters_and_delete(s)
    s2 = test_restart(db, s, online)
    s3 = test_opening_restart(db, s2, opening_online)
    test_shutdown(s3)
    test_rate_limit(os.path.join(TMP, "rate.sqlite"))
    test_old_archive()
    try:
        test_model()
    except Exception as e:
        check("test_model", False, repr(e))
    for srv in servers:
        if srv.proc.poll() is None:
            srv.kill()
        srv.err.close()
        report = open(srv.err_path).read()
        check("no sanitizer report", not re.search(r"Sanitizer|runtime error", report),
              report[-3000:])
    print(f"serve: {counts['passed']} passed, {counts['failed']} failed "
          f"({time.time() - t0:.0f} s)")
    sys.exit(1 if counts["failed"] else 0)


def stop_all():
    """No server outlives the test, however it ends."""
    for srv in servers:
        if srv.proc.poll() is None:
            srv.proc.kill()
            srv.proc.wait()
    shutil.rmtree(TMP, ignore_errors=True)


if __name__ == "__main__":
    atexit.register(stop_all)
    main()
