#!/usr/bin/env python3
"""Random playouts from Python, zrf beside OpenSpiel, in one run.

Both run the same plain loop, ``state.apply_action(rng.choice(state.legal_actions()))`` until the
game ends (or ``--max-plies`` actions), over and over for ``--seconds`` per game and library,
and the table gives actions applied per second and zrf's over OpenSpiel's.

    target/pyenv/bin/python scripts/py-bench.py [--seconds 5] [--max-plies 1000] [--games chess,checkers]

It needs the `zrf` package built in release mode (``scripts/test.sh`` installs it in
target/pyenv) and OpenSpiel (``pyspiel``). The machine's load (``uptime``) is printed beside the
figures: timings on a loaded machine are lower for both.
"""

import argparse
import os
import random
import subprocess
import sys
import time

import pyspiel

import zrf

# (name shown, zrf's game, OpenSpiel's game)
GAMES = [
    ("chess", "chess", "chess"),
    ("checkers", "checkers", "checkers"),
    ("tic-tac-toe", "tic-tac-toe", "tic_tac_toe"),
]


def playouts(new_state, seconds, max_plies, seed):
    """Plays random games for about `seconds`; (actions applied, games, seconds taken)."""
    rng = random.Random(seed)
    plies = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = new_state()
        n = 0
        while not state.is_terminal() and n < max_plies:
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        plies += n
        games += 1
    return plies, games, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="time per game and library (default 5)")
    ap.add_argument("--max-plies", type=int, default=1000, help="actions at most per game (default 1000)")
    ap.add_argument("--games", default=",".join(g[0] for g in GAMES), help="games to run, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    wanted = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = set(wanted) - {g[0] for g in GAMES}
    if unknown:
        sys.exit(f"unknown games: {', '.join(sorted(unknown))}")
    if not 0 < args.seconds <= 3600 or not 0 < args.max_plies <= 10**6:
        sys.exit("--seconds must be in (0, 3600] and --max-plies in (0, 1000000]")

    try:
        load = subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        load = "uptime unavailable"
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} cores; {load}")
    print(f"# {args.seconds:g} s per cell, at most {args.max_plies} actions a game")
    print()
    print(f"| game | zrf plies/s | OpenSpiel plies/s | zrf / OpenSpiel | zrf games | OpenSpiel games |")
    print(f"|---|---:|---:|---:|---:|---:|")
    for name, zname, sname in GAMES:
        if name not in wanted:
            continue
        zgame = zrf.load(zname)
        sgame = pyspiel.load_game(sname)
        zp, zg, zt = playouts(zgame.new_initial_state, args.seconds, args.max_plies, args.seed)
        sp, sg, st = playouts(sgame.new_initial_state, args.seconds, args.max_plies, args.seed)
        zr, sr = zp / zt, sp / st
        print(f"| {name} | {zr:,.0f} | {sr:,.0f} | {zr / sr:.2f} | {zg} | {sg} |", flush=True)


if __name__ == "__main__":
    main()
