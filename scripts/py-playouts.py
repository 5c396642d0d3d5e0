#!/usr/bin/env python3
"""The Python random-playout loop of scripts/py-bench.py through zrf alone, for a fixed number
of games, so that its instructions can be counted (they repeat exactly, unlike times):

    PYTHONHASHSEED=0 valgrind --tool=callgrind target/pyenv/bin/python scripts/py-playouts.py chess 5
    PYTHONHASHSEED=0 valgrind --tool=callgrind target/pyenv/bin/python scripts/py-playouts.py chess 0

(a real interpreter, not a launcher script such as pyenv's shim, which valgrind would count).

The first total minus the second (loading and start-up), over the plies printed, is the cost of
one ply of `state.apply_action(rng.choice(state.legal_actions()))`.
"""

import random
import sys

import zrf


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: py-playouts.py GAME GAMES")
    game = zrf.load(sys.argv[1])
    games = int(sys.argv[2])
    if not 0 <= games <= 10**6:
        sys.exit("GAMES must be 0 to 1000000")
    rng = random.Random(1)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal() and n < 1000:
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        plies += n
    print(f"{plies} plies in {games} games")


if __name__ == "__main__":
    main()
