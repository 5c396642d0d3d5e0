#!/usr/bin/env python3
"""Tunes the weights of zrf's evaluation against Stockfish's evaluation of chess positions.

Three steps, each reading the previous one's output:

    scripts/tune-eval.py positions GAMES.pgn... --out pos.fen [--max N]
        Quiet positions from the games (python-chess): not in check, no promotion to play,
        no capture that takes a piece worth more than the capturer or one left unguarded,
        the game's own next move not a capture, plies 8 and later; duplicates dropped.
    scripts/tune-eval.py label pos.fen --out labels.txt [--depth 8]
        Stockfish (/usr/games/stockfish, one thread, NNUE as it ships) at a fixed depth:
        `FEN;centipawns` from the side to move (mates as +-3000).
    cargo run --release --example eval_terms -- games/chess.zrf < pos.fen > terms.txt
        zrf's evaluation of each position split by weight (see examples/eval_terms.rs).
    scripts/tune-eval.py fit labels.txt terms.txt [--ridge 0.3] [--alone]
        Fits a multiplier per weight (1 = the weight as it is) and the logistic scale K,
        minimising the squared difference between sigmoid(K x zrf) and Stockfish's expected
        score sigmoid(cp / 174) (the usual 400/ln 10 Elo scale), by Gauss-Newton with a
        ridge pulling every multiplier towards 1. Prints the multipliers, each weight before
        and after, and the error with the weights as they are and fitted. With
        `--iterations 0`, only the error of the weights the terms were written with (give
        the example NAME=VALUE arguments to try other weights exactly, `centre` above all,
        which moves every piece's worth in pawns and so is not linear).

Pure Python apart from python-chess; no other package is needed.
"""

import argparse
import math
import random
import sys

import chess
import chess.engine
import chess.pgn

VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 100}


def quiet(board):
    """No check, no promotion, no capture that plainly wins material."""
    if board.is_check():
        return False
    for m in board.legal_moves:
        if m.promotion:
            return False
        if board.is_capture(m):
            if board.is_en_passant(m):
                continue
            victim = VALUES[board.piece_type_at(m.to_square)]
            attacker = VALUES[board.piece_type_at(m.from_square)]
            if victim > attacker or not board.is_attacked_by(not board.turn, m.to_square):
                return False
    return True


def positions(args):
    seen = set()
    out = []
    for path in args.pgn:
        with open(path) as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                board = game.board()
                moves = list(game.mainline_moves())
                for i, m in enumerate(moves):
                    if i >= 8 and not board.is_capture(m) and quiet(board):
                        key = " ".join(board.fen().split()[:4])
                        if key not in seen:
                            seen.add(key)
                            out.append(board.fen())
                    board.push(m)
    random.Random(1).shuffle(out)
    if args.max:
        out = out[: args.max]
    with open(args.out, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"{len(out)} positions", file=sys.stderr)


def label(args):
    fens = [l.strip() for l in open(args.fens) if l.strip()]
    eng = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    eng.configure({"Threads": 1, "Hash": 16})
    with open(args.out, "w") as f:
        for n, fen in enumerate(fens):
            info = eng.analyse(chess.Board(fen), chess.engine.Limit(depth=args.depth))
            cp = info["score"].relative.score(mate_score=3000)
            f.write(f"{fen};{cp}\n")
            if n % 500 == 0:
                print(n, file=sys.stderr)
                f.flush()
    eng.quit()


def solve(a, b):
    """Solves a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def sig(x):
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, x))))


def fit(args):
    labels = {}
    for line in open(args.labels):
        fen, cp = line.rsplit(";", 1)
        labels[fen.strip()] = int(cp)
    names = None
    rows = []
    for line in open(args.terms):
        parts = line.rstrip("\n").split("\t")
        if parts[0] == "fen":
            names = parts[3:]
            weights = None
            continue
        if parts[0] == "weights":
            weights = [float(x) for x in parts[3:]]
            continue
        fen = parts[0]
        if fen not in labels:
            continue
        total = float(parts[1])
        rest = float(parts[2])
        terms = [float(x) for x in parts[3:]]
        rows.append((sig(labels[fen] / 174.0), rest, terms, total))
    n = len(names)
    print(f"{len(rows)} positions, {n} weights", file=sys.stderr)

    def error(k, mult):
        e = 0.0
        for y, rest, terms, _ in rows:
            v = rest + sum(m * t for m, t in zip(mult, terms))
            e += (sig(k * v) - y) ** 2
        return e / len(rows)

    # The scale K with the weights as they are (a one-dimensional search).
    ones = [1.0] * n
    lo, hi = 0.0005, 0.05
    for _ in range(60):
        a, b = lo + (hi - lo) / 3, hi - (hi - lo) / 3
        if error(a, ones) < error(b, ones):
            hi = b
        else:
            lo = a
    k0 = (lo + hi) / 2
    base_err = error(k0, ones)
    print(f"as they are: K = {k0:.5f}, error {base_err:.6f}")
    # Gauss-Newton over (multipliers, K), the ridge pulling multipliers to 1.
    mult = ones[:]
    k = k0
    for it in range(args.iterations):
        dim = n + 1
        jtj = [[0.0] * dim for _ in range(dim)]
        jtr = [0.0] * dim
        for y, rest, terms, _ in rows:
            v = rest + sum(m * t for m, t in zip(mult, terms))
            s = sig(k * v)
            d = s * (1 - s)
            g = [d * k * t for t in terms] + [d * v]
            r = s - y
            for i in range(dim):
                if g[i] == 0.0:
                    continue
                jtr[i] += g[i] * r
                gi = g[i]
                row = jtj[i]
                for j in range(dim):
                    row[j] += gi * g[j]
        # Ridge: ridge x D_i x (m_i - 1)^2 for each multiplier, D_i the curvature of the
        # error along it (so the pull is the same whatever the term's size); a term that is
        # never non-zero keeps its multiplier at 1.
        for i in range(n):
            reg = args.ridge * jtj[i][i] + 1e-6
            jtj[i][i] += reg
            jtr[i] += reg * (mult[i] - 1.0)
        jtj[n][n] += 1e-12
        step = solve(jtj, [-x for x in jtr])
        mult = [m + s for m, s in zip(mult, step[:n])]
        k = k + step[n]
        if it % 2 == 1 or it == args.iterations - 1:
            print(f"iteration {it + 1}: error {error(k, mult):.6f}", file=sys.stderr)
    err = error(k, mult)
    print(f"fitted: K = {k:.5f}, error {err:.6f} (as they are {base_err:.6f})")
    # How often each term is non-zero, to judge a multiplier's support.
    for i, name in enumerate(names):
        nz = sum(1 for r in rows if r[2][i] != 0.0)
        before = weights[i] if weights else float("nan")
        print(f"{name:14} x {mult[i]:6.3f}   {before:8.3f} -> {before * mult[i]:8.3f}   ({nz} positions)")
    # Each multiplier alone (the others at 1): the error it gains.
    if args.alone:
        for i, name in enumerate(names):
            one = ones[:]
            best = (base_err, 1.0)
            for m in [0.0, 0.25, 0.5, 0.75, 1.25, 1.5, 2.0, 3.0]:
                one[i] = m
                best = min(best, (error(k0, one), m))
            print(f"alone {name:14} best x {best[1]:.2f}: error {best[0]:.6f}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("positions")
    a.add_argument("pgn", nargs="+")
    a.add_argument("--out", required=True)
    a.add_argument("--max", type=int)
    a.set_defaults(func=positions)
    a = sub.add_parser("label")
    a.add_argument("fens")
    a.add_argument("--out", required=True)
    a.add_argument("--depth", type=int, default=8)
    a.add_argument("--stockfish", default="/usr/games/stockfish")
    a.set_defaults(func=label)
    a = sub.add_parser("fit")
    a.add_argument("labels")
    a.add_argument("terms")
    a.add_argument("--ridge", type=float, default=0.3)
    a.add_argument("--iterations", type=int, default=8)
    a.add_argument("--alone", action="store_true", help="also each multiplier alone")
    a.set_defaults(func=fit)
    args = p.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
