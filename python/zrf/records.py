"""Game records (PGN, PDN, zrf's `.game`, Zillions' `.zsg`) read as states."""

from __future__ import annotations

import os
from typing import Iterator, Optional, Union

from ._zrf import Game, State, read_records


def read(path: Union[str, os.PathLike], rules: Optional[Game] = None) -> Iterator[State]:
    """Yields every game of a record file as a state at its last position.

    The format follows the file name (`.pgn`, `.pdn`, `.zsg`, else zrf's own `.game`). The
    rules are those the record names (its `Game` header, a known PGN or PDN variant); `rules`
    gives them for a record that names none. Errors raise `zrf.ZrfError`.
    """
    yield from read_records(os.fspath(path), rules)
