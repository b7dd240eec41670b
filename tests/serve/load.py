#!/usr/bin/env python3
"""load.py — a load test of `tengen serve` (not part of `make test`).

Starts a server (or uses --url), then runs N concurrent games for S seconds, one client thread
each: most between humans, some against the easy level. Each thread posts legal moves as fast
as it can (starting a new game when one ends) and the run reports requests a second, the p50
and p99 latency of POST /moves, and the errors.

usage: load.py path/to/tengen [--games 16] [--seconds 20] [--computer 4] [--workers N]
       load.py --url http://127.0.0.1:8080 ...
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import subprocess
import tempfile
import threading
import time


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("bin", nargs="?")
    p.add_argument("--url")
    p.add_argument("--games", type=int, default=16)
    p.add_argument("--seconds", type=float, default=20)
    p.add_argument("--computer", type=int, default=4, help="games against the easy level")
    p.add_argument("--workers", type=int, default=0)
    return p.parse_args()


class Client:
    def __init__(self, host, port):
        self.host, self.port = host, port
        self.conn = None

    def call(self, method, path, body=None):
        """One request on a kept-alive connection (reopened if the server closed it)."""
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data else {}
        for attempt in range(2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
                self.conn.request(method, path, data, headers)
                r = self.conn.getresponse()
                text = r.read()
                if r.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                    self.conn = None
                return r.status, json.loads(text)
            except (http.client.HTTPException, ConnectionError, OSError) as e:
                if self.conn:
                    self.conn.close()
                self.conn = None
                if attempt:  # counted as an error by the caller, not a dead thread
                    return 0, {"code": f"connection ({type(e).__name__})"}


def points(size):
    return [f"{c}{r}" for c in "abcdefghijklmnopqrstuv"[:size] for r in range(1, size + 1)]


def count_error(stats, status, answer):
    """Counts a failed request by its error code (the caller holds the lock)."""
    code = answer.get("code", status) if isinstance(answer, dict) else status
    stats["errors"] += 1
    stats["codes"][code] = stats["codes"].get(code, 0) + 1


def player(client, stats, stop, computer, seed):
    rnd = random.Random(seed)
    lock = stats["lock"]
    while not stop.is_set():
        status, g = client.call("POST", "/api/games",
                                {"rule": "freestyle", "black": "human",
                                 "white": "easy" if computer else "human"})
        if status != 201:
            with lock:
                count_error(stats, status, g)
            time.sleep(0.05)
            continue
        gid = g["id"]
        free = points(15)
        rnd.shuffle(free)
        while not stop.is_set() and g["result"] is None:
            if computer and (g["thinking"] or g["to_move"] != "black"):
                status, answer = client.call("GET", f"/api/games/{gid}")
                with lock:
                    stats["requests"] += 1
                    if status != 200:
                        count_error(stats, status, answer)
                if status == 200:
                    g = answer
                continue
            taken = set(g["moves"])
            while free and free[-1] in taken:
                free.pop()
            if not free:
                break
            t = time.perf_counter()
            status, answer = client.call("POST", f"/api/games/{gid}/moves", {"move": free.pop()})
            ms = (time.perf_counter() - t) * 1000
            with lock:
                stats["requests"] += 1
                stats["latency"].append(ms)
                if status != 200:
                    count_error(stats, status, answer)
            if status == 200:
                g = answer
                continue
            status, answer = client.call("GET", f"/api/games/{gid}")
            if status != 200:
                with lock:
                    count_error(stats, status, answer)
                break
            g = answer
        with lock:
            stats["games"] += 1


def start_server(args, tmp):
    cmd = [args.bin, "serve", "--port", "0", "--db", os.path.join(tmp, "load.sqlite"),
           "--rate", "0"]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    m = re.search(r"http://([\d.]+):(\d+)/", proc.stdout.readline())
    return proc, m.group(1), int(m.group(2))


def main():
    args = parse()
    proc = None
    if args.url:
        m = re.match(r"http://([^:/]+):(\d+)", args.url)
        host, port = m.group(1), int(m.group(2))
    else:
        tmp = tempfile.mkdtemp(prefix="tengen-load-")
        proc, host, port = start_server(args, tmp)
    try:
        run(args, host, port)
    finally:
        if proc:
            proc.terminate()
            proc.wait(timeout=10)
            shutil.rmtree(tmp, ignore_errors=True)


def run(args, host, port):
    stats = {"lock": threading.Lock(), "requests": 0, "errors": 0, "games": 0, "latency": [],
             "codes": {}}
    stop = threading.Event()
    threads = [threading.Thread(target=player, args=(Client(host, port), stats, stop,
                                                     i < args.computer, i))
               for i in range(args.games)]
    t0 = time.time()
    for t in threads:
        t.start()
    time.sleep(args.seconds)
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.time() - t0
    lat = sorted(stats["latency"])
    pct = (lambda q: lat[min(len(lat) - 1, int(q * len(lat)))]) if lat else (lambda q: 0)
    print(f"load: {args.games} games ({args.computer} against easy) for {elapsed:.1f} s: "
          f"{stats['requests'] / elapsed:.0f} requests/s, {len(lat) / elapsed:.0f} moves/s, "
          f"POST /moves p50 {pct(0.5):.1f} ms p99 {pct(0.99):.1f} ms, "
          f"{stats['games']} games finished, {stats['errors']} errors {stats['codes'] or ''}")


if __name__ == "__main__":
    main()
