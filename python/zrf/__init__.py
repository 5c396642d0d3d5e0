"""zrf: Zillions-of-Games rules files as Python games.

Load a rules file (or a shipped game by name) and play it by actions or move texts::

    import zrf
    game = zrf.load("chess")
    state = game.new_initial_state()
    state.play("e4")
    print(state.legal_moves()[:3], state.legal_actions()[:3])

See docs/python.md for the reference and the action encoding.
"""

from ._zrf import (
    CHANCE,
    TERMINAL,
    Game,
    State,
    ZrfError,
    games,
    load,
    playouts,
)
from . import records

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "State",
    "ZrfError",
    "games",
    "load",
    "playouts",
    "records",
]
