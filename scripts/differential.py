#!/usr/bin/env python3
"""Differential test: zrf against pydraughts and Fairy-Stockfish (pyffish).

Plays seeded random games with the oracle library and, at every ply, compares the set of legal
moves the oracle gives with the set zrf gives for the same position (zrf reads the position as a
FEN or PDN FEN through `zrf moves --stdin`). Prints one line per game kind and exits non-zero on
the first difference, showing the position and both move lists.

Usage: scripts/differential.py [--games N] [--plies N] [--seed S] [--only NAME...] [--zrf PATH]
Needs: pip install pydraughts pyffish; a built zrf (cargo build --release).
"""
import argparse
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "..", "shared", "oracles"))

# (name, oracle kind, oracle variant, rules file, zrf variant)
KINDS = [
    ("english", "draughts", "english", "games/checkers.zrf", None),
    ("international", "draughts", "standard", "games/international-draughts.zrf", None),
    ("brazilian", "draughts", "brazilian", "games/international-draughts.zrf", "Brazilian"),
    ("russian", "draughts", "russian", "games/russian-draughts.zrf", None),
    ("frisian", "draughts", "frisian", "games/frisian-draughts.zrf", None),
    ("chess", "chess", "chess", "games/chess.zrf", None),
    ("crazyhouse", "chess", "crazyhouse", "games/chess.zrf", "Crazyhouse"),
    ("loop", "chess", "loop", "games/chess.zrf", "Loop"),
    ("chessgi", "chess", "chessgi", "games/chess.zrf", "Chessgi"),
]


class Zrf:
    """One `zrf moves --stdin` process per game kind."""

    def __init__(self, exe, rules, variant):
        cmd = [exe, "moves", os.path.join(ROOT, rules), "--stdin"]
        if variant:
            cmd += ["--variant", variant]
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def moves(self, fen):
        self.p.stdin.write(fen + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        if line.startswith("error:"):
            raise RuntimeError(f"zrf could not read {fen!r}: {line.strip()}")
        return line.split()

    def close(self):
        self.p.stdin.close()
        self.p.stdout.close()
        self.p.wait()


def zrf_draughts(text):
    """zrf's canonical draughts move -> the landing path (disambiguation and crowning dropped)."""
    return text.split("[")[0].split("=")[0]


def zrf_uci(text):
    """zrf's canonical chess move -> UCI."""
    if "@" in text:
        return text
    base, _, promo = text.partition("=")
    return base.replace("-", "").replace("x", "") + promo.lower()


def play_draughts(kind, zrf, rng, plies):
    from draughts import Board, Move
    from draughts_oracle import fmt

    board = Board(kind, "startpos")
    game = board._game
    played = []
    for _ in range(plies):
        moves, caps = game.legal_moves()
        texts = [fmt(kind, m, c)[1].split(" ")[0] for m, c in zip(moves, caps)]
        want = sorted(texts)
        # The whole history goes to zrf: some rules (Frisian's king-move limit) depend on it.
        got = sorted(zrf_draughts(t) for t in zrf.moves("moves " + " ".join(played)))
        if want != got:
            return "after " + (" ".join(played) or "no move"), want, got
        if not moves:
            break
        k = rng.randrange(len(moves))
        game.push(moves[k])
        played.append(texts[k])
    return None


def play_chess(kind, zrf, rng, plies):
    import pyffish as sf

    start = sf.start_fen(kind)
    played = []
    for _ in range(plies):
        fen = sf.get_fen(kind, start, played)
        want = sorted(sf.legal_moves(kind, start, played))
        got = sorted(zrf_uci(t) for t in zrf.moves(fen))
        if want != got:
            return fen, want, got
        # The history too, through zrf's own move parser.
        if len(played) % 10 == 9:
            again = sorted(zrf_uci(t) for t in zrf.moves("moves " + " ".join(played)))
            if again != got:
                return "after " + " ".join(played), want, again
        if not want or sf.is_optional_game_end(kind, start, played)[0]:
            break
        played.append(rng.choice(want))
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="random games per kind (default 200)")
    p.add_argument("--plies", type=int, default=120, help="longest game in plies (default 120)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--only", nargs="*", help="kinds to run (default all)")
    p.add_argument("--zrf", default=os.path.join(ROOT, "target", "release", "zrf"), help="zrf binary")
    a = p.parse_args()
    failed = False
    for name, oracle, kind, rules, variant in KINDS:
        if a.only and name not in a.only:
            continue
        zrf = Zrf(a.zrf, rules, variant)
        rng = random.Random(f"{a.seed}-{name}")
        t = time.time()
        positions = 0
        for g in range(a.games):
            play = play_draughts if oracle == "draughts" else play_chess
            diff = play(kind, zrf, rng, a.plies)
            if diff:
                fen, want, got = diff
                print(f"{name}: game {g + 1} differs at {fen}")
                print(f"  oracle: {' '.join(want)}")
                print(f"  zrf:    {' '.join(got)}")
                print(f"  only oracle: {sorted(set(want) - set(got))}  only zrf: {sorted(set(got) - set(want))}")
                failed = True
                break
        zrf.close()
        if not failed:
            print(f"{name}: {a.games} games, no difference ({time.time() - t:.1f} s)", flush=True)
        else:
            break
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
