#!/usr/bin/python3
"""zero.py - the learning loop of tengen's zero level (docs/zero.md).

    zero.py loop --dir RUN [--size 8] [--rule freestyle] [--hours H] ...
        self-play (tengen zero selfplay, several processes) -> train -> evaluate against pure
        MCTS (tengen selfplay) -> keep the best model; resumable from RUN/state.json; prints a
        progress line per iteration and redraws RUN/curve.svg.
    zero.py train --dir RUN ...     one training pass over RUN/records, exporting RUN/latest.tgnn
    zero.py export CHECKPOINT OUT   a checkpoint as a tengen model file
    zero.py plot --dir RUN          redraw RUN/curve.svg from RUN/log.csv

Needs Python 3 with numpy and PyTorch (Debian: python3-numpy, python3-torch). Uses a GPU when
PyTorch sees one, else the CPU.
"""
import argparse
import csv
import glob
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

RULES = ["freestyle", "standard", "renju", "caro8", "caro9"]
PLANES = 4
POLICY_CH = 2
VALUE_HIDDEN = 64
WDL = 3  # value head outputs: win, draw, loss for the side to move
MODEL_MAGIC = 0x4E4E4754  # "TGNN"
MODEL_VERSION = 2  # the value head ends in win, draw and loss logits
RECORD_MAGIC = 0x50534754  # "TGSP"
RECORD_VERSION = 1
LEARNING_RATE = 2e-3  # Adam's, unless --lr says otherwise


# ---- The network (the same shape as src/core/nn.h, with batch normalisation) ----

class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(c)
        self.c2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        return F.relu(self.b2(self.c2(y)) + x)


class Net(nn.Module):
    def __init__(self, size, channels, blocks):
        super().__init__()
        self.size, self.channels, self.nblocks = size, channels, blocks
        cells = size * size
        self.stem = nn.Conv2d(PLANES, channels, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(channels)
        self.blocks = nn.ModuleList([Block(channels) for _ in range(blocks)])
        self.p_conv = nn.Conv2d(channels, POLICY_CH, 1, bias=False)
        self.p_bn = nn.BatchNorm2d(POLICY_CH)
        self.p_fc = nn.Linear(POLICY_CH * cells, cells)
        self.v_conv = nn.Conv2d(channels, 1, 1, bias=False)
        self.v_bn = nn.BatchNorm2d(1)
        self.v_fc1 = nn.Linear(cells, VALUE_HIDDEN)
        self.v_fc2 = nn.Linear(VALUE_HIDDEN, WDL)

    def forward(self, x):
        x = F.relu(self.stem_bn(self.stem(x)))
        for b in self.blocks:
            x = b(x)
        p = F.relu(self.p_bn(self.p_conv(x))).flatten(1)
        v = F.relu(self.v_bn(self.v_conv(x))).flatten(1)
        return self.p_fc(p), self.v_fc2(F.relu(self.v_fc1(v)))  # policy, WDL logits


def fold(conv, bn):
    """A conv followed by batch norm (eval mode) as one conv's weight and bias."""
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    w = conv.weight * scale.reshape(-1, 1, 1, 1)
    b = bn.bias - bn.running_mean * scale
    return w.detach(), b.detach()


def model_bytes(net, rule):
    """The tengen model file (docs/zero.md) of a network: BN folded, float32 little-endian."""
    parts = [fold(net.stem, net.stem_bn)]
    for b in net.blocks:
        parts += [fold(b.c1, b.b1), fold(b.c2, b.b2)]
    parts += [fold(net.p_conv, net.p_bn), (net.p_fc.weight.detach(), net.p_fc.bias.detach()),
              fold(net.v_conv, net.v_bn), (net.v_fc1.weight.detach(), net.v_fc1.bias.detach()),
              (net.v_fc2.weight.detach(), net.v_fc2.bias.detach())]
    data = np.concatenate([t.cpu().numpy().astype("<f4").ravel() for pair in parts for t in pair])
    head = struct.pack("<10I", MODEL_MAGIC, MODEL_VERSION, net.size, RULES.index(rule), PLANES,
                       net.channels, net.nblocks, POLICY_CH, VALUE_HIDDEN, data.size)
    body = head + data.tobytes()
    return body + struct.pack("<I", zlib.crc32(body) & 0xFFFFFFFF)


def write_model(net, rule, path):
    net.eval()
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(model_bytes(net, rule))
    os.replace(tmp, path)


# ---- Self-play records ----

def parse_records(data, size):
    """Yields (moves, visits, winner) per complete game of a .tgsp file's bytes; stops at a torn
    or corrupt tail (a writer may be in the middle of a game)."""
    at = 0
    while at + 14 <= len(data):
        magic, version, sz, rule, winner, count = struct.unpack_from("<IBBBBH", data, at)
        if magic != RECORD_MAGIC or version != RECORD_VERSION or sz != size:
            return
        p = at + 10
        moves, visits = [], []
        try:
            for _ in range(count):
                move, k = struct.unpack_from("<HH", data, p)
                pairs = struct.unpack_from("<%dH" % (2 * k), data, p + 4)
                p += 4 + 4 * k
                moves.append(move)
                visits.append((pairs[0::2], pairs[1::2]))
            (crc,) = struct.unpack_from("<I", data, p)
        except struct.error:
            return
        if zlib.crc32(data[at:p]) & 0xFFFFFFFF != crc:
            return
        yield moves, visits, winner
        at = p + 4


def game_samples(moves, visits, winner, size):
    """Input planes, policy targets and value targets of every position of one game."""
    cells = size * size
    n = len(moves)
    x = np.zeros((n, PLANES, size, size), np.float32)
    pi = np.zeros((n, cells), np.float32)
    z = np.zeros(n, np.float32)
    board = np.zeros(cells, np.int8)  # 1 black, 2 white
    for i, m in enumerate(moves):
        me = 1 + (i & 1)
        x[i, 0] = (board == me).reshape(size, size)
        x[i, 1] = (board == 3 - me).reshape(size, size)
        if i > 0:
            x[i, 2].flat[moves[i - 1]] = 1
        if me == 1:
            x[i, 3] = 1
        pts, cnt = visits[i]
        total = float(sum(cnt)) or 1.0
        for q, c in zip(pts, cnt):
            pi[i, q] = c / total
        z[i] = 0.0 if winner == 2 else (1.0 if winner == me - 1 else -1.0)
        board[m] = me
    return x, pi, z


class Records:
    """Every game in RUN/records, read incrementally (files only grow)."""

    def __init__(self, directory, size):
        self.dir, self.size = directory, size
        self.offsets = {}
        self.x, self.pi, self.z = [], [], []
        self.games = 0

    def refresh(self):
        for path in sorted(glob.glob(os.path.join(self.dir, "*.tgsp"))):
            with open(path, "rb") as f:
                f.seek(self.offsets.get(path, 0))
                data = f.read()
            used = 0
            for moves, visits, winner in parse_records(data, self.size):
                x, pi, z = game_samples(moves, visits, winner, self.size)
                self.x.append(x), self.pi.append(pi), self.z.append(z)
                self.games += 1
                used += 14 + 4 * len(moves) + sum(4 * len(v[0]) for v in visits)
            self.offsets[path] = self.offsets.get(path, 0) + used

    def window(self, games):
        """The positions of the last `games` games."""
        lo = max(0, len(self.x) - games)
        return (np.concatenate(self.x[lo:]), np.concatenate(self.pi[lo:]), np.concatenate(self.z[lo:]))


# ---- Training ----

def symmetry(x, pi, k, size):
    """Board symmetry k (0..7) applied to planes (B, C, n, n) and policies (B, n*n)."""
    p = pi.reshape(-1, size, size)
    if k & 4:
        x, p = x.transpose(2, 3), p.transpose(1, 2)
    if k & 1:
        x, p = x.flip(3), p.flip(2)
    if k & 2:
        x, p = x.flip(2), p.flip(1)
    return x, p.reshape(-1, size * size)


def train_steps(net, opt, data, steps, batch, device, size):
    """`steps` minibatches drawn from data, each under a random one of the 8 symmetries.
    Returns mean loss, policy loss, value loss and policy entropy."""
    x_all, pi_all, z_all = (torch.from_numpy(a) for a in data)
    n = len(z_all)
    net.train()
    sums = np.zeros(4)
    for _ in range(steps):
        idx = torch.randint(0, n, (min(batch, n),))
        x, pi = symmetry(x_all[idx], pi_all[idx], int(torch.randint(0, 8, (1,))), size)
        x, pi, z = x.to(device), pi.to(device), z_all[idx].to(device)
        logits, wdl = net(x)
        logp = F.log_softmax(logits, 1)
        p_loss = -(pi * logp).sum(1).mean()
        v_loss = F.cross_entropy(wdl, (1 - z).long())  # z 1, 0, -1: class win, draw, loss
        loss = p_loss + v_loss
        opt.zero_grad()
        loss.backward()
        opt.step()
        entropy = -(logp.exp() * logp).sum(1).mean()
        sums += [loss.item(), p_loss.item(), v_loss.item(), entropy.item()]
    return sums / max(steps, 1)


# ---- The loop ----

def device_of():
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def new_state(a):
    return {"size": a.size, "rule": a.rule, "channels": a.channels, "blocks": a.blocks, "iteration": 0,
            "games": 0, "seconds": 0.0, "best_score": -1.0, "mcts_playouts": a.eval_playouts,
            "evals": []}


def load_checkpoint(path, device):
    """A run's checkpoint; one from a trainer of model format 1 (a one-value head) is refused
    with a clear message rather than PyTorch's shape mismatch."""
    saved = torch.load(path, map_location=device)
    fc2 = saved["net"].get("v_fc2.weight")
    if fc2 is not None and fc2.shape[0] != WDL:
        sys.exit("zero: %s holds a network with a one-value head (model format 1); this trainer "
                 "trains win-draw-loss heads (format 2): start a new run directory" % path)
    return saved


def load_run(a, device):
    path = os.path.join(a.dir, "state.json")
    state = json.load(open(path)) if os.path.exists(path) else new_state(a)
    net = Net(state["size"], state["channels"], state["blocks"]).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=a.lr or LEARNING_RATE, weight_decay=1e-4)
    ck = os.path.join(a.dir, "checkpoint.pt")
    if os.path.exists(ck):
        saved = load_checkpoint(ck, device)
        net.load_state_dict(saved["net"])
        opt.load_state_dict(saved["opt"])
        if a.lr:  # given again on resuming: a new rate (say, lower for the last stretch)
            for group in opt.param_groups:
                group["lr"] = a.lr
    return state, net, opt


def scheduled_lr(a, minutes):
    """The rate --lr-drop sets after `minutes` of the run's own time; None when none applies yet."""
    rate = None
    for at, lr in sorted(a.lr_drop):
        if minutes >= at:
            rate = lr
    return rate


def lr_drop(text):
    """MINUTES:RATE, as --lr-drop takes it."""
    try:
        at, lr = text.split(":")
        at, lr = float(at), float(lr)
    except ValueError:
        raise argparse.ArgumentTypeError("expected MINUTES:RATE, like 75:5e-4, not %r" % text)
    if at < 0 or lr <= 0:
        raise argparse.ArgumentTypeError("minutes must be >= 0 and the rate > 0 in %r" % text)
    return at, lr


def save_run(a, state, net, opt):
    ck = os.path.join(a.dir, "checkpoint.pt")
    torch.save({"net": net.state_dict(), "opt": opt.state_dict()}, ck + ".tmp")
    os.replace(ck + ".tmp", ck)
    tmp = os.path.join(a.dir, "state.json.tmp")
    json.dump(state, open(tmp, "w"), indent=1)
    os.replace(tmp, os.path.join(a.dir, "state.json"))


def run_selfplay(a, state, model, games):
    """`a.workers` tengen processes share the games; returns the seconds taken."""
    start = time.time()
    per = [games // a.workers + (i < games % a.workers) for i in range(a.workers)]
    procs = []
    for i, g in enumerate(per):
        if g == 0:
            continue
        seed = state["iteration"] * 1000 + i
        cmd = [a.tengen, "zero", "selfplay", "--model", model, "--games", str(g), "--out",
               os.path.join(a.dir, "records"), "--playouts", str(a.playouts), "--seed", str(seed),
               "--quiet"]
        if a.temperature_moves:
            cmd += ["--temperature-moves", str(a.temperature_moves)]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL))
    for p in procs:
        if p.wait() != 0:
            sys.exit("zero.py: tengen zero selfplay failed (exit %d)" % p.returncode)
    return time.time() - start


def evaluate(a, state, model):
    """The model against pure MCTS, colours alternating; returns the score (wins + draws/2)."""
    cmd = [a.tengen, "selfplay", "--size", str(state["size"]), "--rule", state["rule"], "--black",
           "zero", "--white", "mcts:%d" % state["mcts_playouts"], "--model", model, "--games",
           str(a.eval_games), "--time", "1000000", "--seed", str(state["iteration"]), "--quiet"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    line = [l for l in out.splitlines() if l.startswith("Score:")][0]
    w, l, d = (int(v) for v in line.split()[1].split("-"))
    return (w + d / 2) / (w + l + d), "%d-%d-%d" % (w, l, d)


def log_row(a, row):
    path = os.path.join(a.dir, "log.csv")
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(row))
        if new:
            w.writeheader()
        w.writerow(row)


def loop(a):
    os.makedirs(os.path.join(a.dir, "records"), exist_ok=True)
    torch.set_num_threads(a.torch_threads)
    device = device_of()
    state, net, opt = load_run(a, device)
    size, rule = state["size"], state["rule"]
    latest = os.path.join(a.dir, "latest.tgnn")
    best = os.path.join(a.dir, "best.tgnn")
    if not os.path.exists(latest):
        write_model(net, rule, latest)
    records = Records(os.path.join(a.dir, "records"), size)
    records.refresh()
    print("zero: %s %dx%d, %d channels x %d blocks, %s, %d games so far" %
          (rule, size, size, state["channels"], state["blocks"], device, records.games), flush=True)
    deadline = time.time() + a.hours * 3600 if a.hours else None
    while (deadline is None or time.time() < deadline) and (not a.iterations or state["iteration"] < a.iterations):
        t0 = time.time()
        rate = scheduled_lr(a, state["seconds"] / 60)
        if rate is not None:
            for group in opt.param_groups:
                group["lr"] = rate
        sp_secs = run_selfplay(a, state, latest, a.games)
        before = sum(len(z) for z in records.z)
        records.refresh()
        data = records.window(a.window)
        fresh = sum(len(z) for z in records.z) - before
        steps = max(1, int(a.reuse * fresh / a.batch))
        loss, p_loss, v_loss, entropy = train_steps(net, opt, data, steps, a.batch, device, size)
        write_model(net, rule, latest)
        state["iteration"] += 1
        state["games"] = records.games
        state["seconds"] += time.time() - t0
        score, result = "", ""
        if state["iteration"] % a.eval_every == 0:
            t1 = time.time()
            s, result = evaluate(a, state, latest)
            score = "%.2f" % s
            state["evals"].append([state["games"], state["mcts_playouts"], s])
            if s >= state["best_score"] or not os.path.exists(best):
                shutil.copyfile(latest, best)
                state["best_score"] = s
                state["best_games"] = state["games"]
            if s >= 1.0 and state["mcts_playouts"] < a.eval_max:
                state["mcts_playouts"] += a.eval_step
                state["best_score"] = -1.0  # a stronger yardstick: start the comparison afresh
            state["seconds"] += time.time() - t1
        save_run(a, state, net, opt)
        gph = a.games / sp_secs * 3600 if sp_secs > 0 else 0
        row = {"iteration": state["iteration"], "games": state["games"], "minutes": round(state["seconds"] / 60, 1),
               "positions": len(data[2]), "loss": round(loss, 4), "policy_loss": round(p_loss, 4),
               "value_loss": round(v_loss, 4), "entropy": round(entropy, 4), "games_per_hour": round(gph),
               "mcts_playouts": state["mcts_playouts"] if score else "", "score": score}
        log_row(a, row)
        plot(a.dir)
        print("iter %d  games %d  %.1f min  loss %.3f (policy %.3f value %.3f)  entropy %.3f  %.0f games/h%s" %
              (state["iteration"], state["games"], state["seconds"] / 60, loss, p_loss, v_loss, entropy, gph,
               "  vs mcts:%d %s = %s" % (state["evals"][-1][1], result, score) if score else ""), flush=True)


# ---- The training curve (plain SVG, no plotting library needed) ----

def plot(directory):
    path = os.path.join(directory, "log.csv")
    if not os.path.exists(path):
        return
    rows = list(csv.DictReader(open(path)))
    if not rows:
        return
    W, H, L, R, T, B = 720, 400, 60, 60, 30, 50
    games = [float(r["games"]) for r in rows]
    gmax = max(games) or 1

    def X(g):
        return L + (W - L - R) * g / gmax

    def series(key, lo, hi, color, label, y0):
        pts = [(X(float(r["games"])), T + (H - T - B) * (1 - (float(r[key]) - lo) / (hi - lo)))
               for r in rows if r.get(key)]
        if not pts:
            return ""
        d = " ".join("%.1f,%.1f" % p for p in pts)
        return ('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                '<text x="%d" y="%d" fill="%s" font-size="13">%s</text>' % (color, d, L + 10, y0, color, label))

    losses = [float(r["loss"]) for r in rows] + [float(r["entropy"]) for r in rows]
    top = max(losses) * 1.05
    body = [series("loss", 0, top, "#c0392b", "loss (policy + value)", T + 14),
            series("entropy", 0, top, "#2980b9", "policy entropy", T + 30),
            series("score", 0, 1, "#27ae60", "score vs pure MCTS (0..1, right axis)", T + 46)]
    for r in rows:
        if r.get("score"):
            x = X(float(r["games"]))
            y = T + (H - T - B) * (1 - float(r["score"]))
            body.append('<circle cx="%.1f" cy="%.1f" r="3" fill="#27ae60"><title>mcts:%s %s</title></circle>'
                        % (x, y, r["mcts_playouts"], r["score"]))
    axes = ('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>' % (L, H - B, W - R, H - B) +
            '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>' % (L, T, L, H - B) +
            '<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>' % (W - R, T, W - R, H - B) +
            '<text x="%d" y="%d" font-size="13" text-anchor="middle">self-play games (%d in %s min)</text>'
            % ((W) / 2, H - 15, gmax, rows[-1]["minutes"]) +
            '<text x="%d" y="%d" font-size="12" text-anchor="end">%.2f</text>' % (L - 5, T + 5, top) +
            '<text x="%d" y="%d" font-size="12" text-anchor="end">0</text>' % (L - 5, H - B) +
            '<text x="%d" y="%d" font-size="12">1.0</text>' % (W - R + 5, T + 5) +
            '<text x="%d" y="%d" font-size="12">0</text>' % (W - R + 5, H - B) +
            '<text x="%d" y="%d" font-size="12" text-anchor="middle">%d</text>' % (W - R, H - B + 16, gmax))
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif">'
           '<rect width="100%%" height="100%%" fill="white"/>%s%s</svg>\n' % (W, H, axes, "".join(body)))
    tmp = os.path.join(directory, "curve.svg.tmp")
    open(tmp, "w").write(svg)
    os.replace(tmp, os.path.join(directory, "curve.svg"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    lp = sub.add_parser("loop", help="self-play, train, evaluate, keep the best; resumable")
    lp.add_argument("--dir", required=True)
    lp.add_argument("--tengen", default="build/tengen")
    lp.add_argument("--size", type=int, default=8)
    lp.add_argument("--rule", default="freestyle", choices=RULES)
    lp.add_argument("--channels", type=int, default=32)
    lp.add_argument("--blocks", type=int, default=2)
    lp.add_argument("--hours", type=float, default=0, help="stop after this long (0: no limit)")
    lp.add_argument("--iterations", type=int, default=0, help="stop after this many (0: no limit)")
    lp.add_argument("--games", type=int, default=100, help="self-play games an iteration")
    lp.add_argument("--workers", type=int, default=2, help="self-play processes")
    lp.add_argument("--playouts", type=int, default=400, help="self-play playouts a move")
    lp.add_argument("--temperature-moves", type=int, default=0,
                    help="stones played before self-play stops drawing moves by visit counts "
                         "(0: tengen's default, an eighth of the board)")
    lp.add_argument("--window", type=int, default=2000, help="train on the last N games")
    lp.add_argument("--reuse", type=float, default=8.0,
                    help="training samples drawn per new position (from the whole window)")
    lp.add_argument("--batch", type=int, default=256)
    lp.add_argument("--lr", type=float, default=0,
                    help="Adam's learning rate (default %g; a resumed run keeps its own unless given)"
                         % LEARNING_RATE)
    lp.add_argument("--lr-drop", type=lr_drop, action="append", default=[], metavar="MINUTES:RATE",
                    help="from this many minutes of the run's own time on, train at RATE "
                         "(repeatable: a step schedule; it overrides --lr from then on)")
    lp.add_argument("--eval-every", type=int, default=5)
    lp.add_argument("--eval-games", type=int, default=10)
    lp.add_argument("--eval-playouts", type=int, default=1000, help="the yardstick's first playout count")
    lp.add_argument("--eval-max", type=int, default=5000, help="the yardstick's last playout count")
    lp.add_argument("--eval-step", type=int, default=1000,
                    help="playouts the yardstick gains each time the model wins every game")
    lp.add_argument("--torch-threads", type=int, default=2)
    ex = sub.add_parser("export", help="a checkpoint as a tengen model file")
    ex.add_argument("dir")
    ex.add_argument("out")
    pl = sub.add_parser("plot", help="redraw RUN/curve.svg")
    pl.add_argument("--dir", required=True)
    a = ap.parse_args()
    if a.cmd == "loop":
        loop(a)
    elif a.cmd == "plot":
        plot(a.dir)
    else:
        state = json.load(open(os.path.join(a.dir, "state.json")))
        net = Net(state["size"], state["channels"], state["blocks"])
        net.load_state_dict(load_checkpoint(os.path.join(a.dir, "checkpoint.pt"), "cpu")["net"])
        write_model(net, state["rule"], a.out)


if __name__ == "__main__":
    main()
