"""The observation tensor: planes of [C, H, W] over a grid board, [C, N] over any other board."""

from pathlib import Path

import numpy as np
import pytest

import zrf

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests" / "fixtures" / "dice-race.zrf"

CHESS_PLANES = [
    "piece Pawn +0", "piece Pawn +1", "piece Knight +0", "piece Knight +1",
    "piece Bishop +0", "piece Bishop +1", "piece Rook +0", "piece Rook +1",
    "piece Queen +0", "piece Queen +1", "piece King +0", "piece King +1",
    "attribute never-moved?", "last from", "last to", "turn so far",
    "to move +0", "to move +1", "counter halfmove-clock",
]


def cells(plane):
    """The (row, column) of the non-zero cells of a plane, sorted."""
    return sorted(zip(*map(list, np.nonzero(plane))))


def test_chess_planes_at_the_start():
    g = zrf.load("chess")
    assert g.observation_tensor_shape() == [19, 8, 8]
    assert g.observation_planes() == CHESS_PLANES
    obs = g.new_initial_state().observation_tensor()
    assert obs.shape == (19, 8, 8) and obs.dtype == np.float32
    plane = {name: obs[i] for i, name in enumerate(CHESS_PLANES)}
    # Row 0 is rank 8, column 0 file a: White's pawns on rank 2, Black's on rank 7.
    assert cells(plane["piece Pawn +0"]) == [(6, c) for c in range(8)]
    assert cells(plane["piece Pawn +1"]) == [(1, c) for c in range(8)]
    assert cells(plane["piece King +0"]) == [(7, 4)]
    assert cells(plane["piece Knight +1"]) == [(0, 1), (0, 6)]
    # Castling rights: kings and rooks that never moved.
    assert cells(plane["attribute never-moved?"]) == [(0, 0), (0, 4), (0, 7), (7, 0), (7, 4), (7, 7)]
    assert obs[:12].sum() == 32
    for name in ["last from", "last to", "turn so far", "to move +1", "counter halfmove-clock"]:
        assert not plane[name].any(), name
    assert (plane["to move +0"] == 1).all()


def test_chess_planes_follow_the_game_and_the_observer():
    g = zrf.load("chess")
    s = g.new_initial_state()
    s.play("e4")
    black = s.observation_tensor()  # Black to move: Black's side comes first
    assert np.array_equal(black, s.observation_tensor(1))
    assert cells(black[0]) == [(1, c) for c in range(8)]
    assert cells(black[1]) == [(4, 4)] + [(6, c) for c in range(8) if c != 4]
    assert cells(black[13]) == [(6, 4)] and cells(black[14]) == [(4, 4)]  # e2, then e4
    assert (black[16] == 1).all() and not black[17].any()
    white = s.observation_tensor(0)
    assert np.array_equal(white[0], black[1]) and not white[16].any() and (white[17] == 1).all()
    # The fifty-move counter is a constant plane with the FEN's half-move clock.
    s.set_position("4k3/8/8/8/8/8/8/4K2R w K - 37 60")
    obs = s.observation_tensor()
    assert (obs[18] == 37).all()
    assert cells(obs[12]) == [(7, 4), (7, 7)]  # castling king side only: e1 and h1 unmoved


def test_the_turn_so_far_plane_marks_a_move_in_parts():
    s = zrf.load("chess").new_initial_state()
    s.set_position("8/P7/8/8/8/8/8/k6K w - - 0 1")
    s.apply_action(s.string_to_action("a7a8"))  # the step; the promotion choice comes next
    obs = s.observation_tensor()
    assert cells(obs[15]) == [(0, 0), (1, 0)]
    assert cells(obs[0]) == [(1, 0)]  # the board stays as it was until the turn is complete


def test_hands_are_constant_planes():
    g = zrf.load("chess", variant="Crazyhouse")
    planes = g.observation_planes()
    assert g.observation_tensor_shape() == [len(planes), 8, 8] == [32, 8, 8]
    s = g.new_initial_state()
    for m in ["e4", "d5", "exd5"]:
        s.play(m)
    obs = s.observation_tensor(0)
    assert (obs[planes.index("hand Pawn +0")] == 1).all()
    assert obs[planes.index("hand Pawn +1")].sum() == 0
    # Seen by Black, the same pawn is in the hand of the next player (+1).
    assert (s.observation_tensor(1)[planes.index("hand Pawn +1")] == 1).all()


def test_three_players_and_a_row_grid():
    g = zrf.load(DICE)  # players A ?Dice B on a grid of one row of six cells
    assert g.observation_tensor_shape() == [24, 1, 6]
    planes = g.observation_planes()
    obs = g.new_initial_state().observation_tensor(2)  # seen by B
    assert cells(obs[planes.index("piece Q +0")]) == [(0, 5)]  # B's Q on f1
    assert cells(obs[planes.index("piece P +1")]) == [(0, 0)]  # A's P on a1, two seats on
    assert (obs[planes.index("hand D +2")] == 9).all()  # the dice's nine tokens
    assert (obs[planes.index("to move +1")] == 1).all()  # A to move


BOARD_OF_POSITIONS = """
(game (title "Positions") (players A B) (turn-order A B)
  (board (positions (p 0 0 10 10) (q 10 0 20 10) (r 20 0 30 10)))
  (board-setup (A (S p)) (B (S r)))
  (piece (name S) (moves ((verify empty?) add)))
  (draw-condition (A B) stalemated))
"""

KILLED_CENTRE = """
(game (title "Ring") (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
                (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0)))
         (kill-positions b2))
  (board-setup (A (S a1 b1 c1 a2)) (B (S c2 a3 b3 c3)))
  (piece (name S) (moves (n (verify empty?) add)))
  (draw-condition (A B) stalemated))
"""


def test_boards_without_a_full_grid():
    g = zrf.load(BOARD_OF_POSITIONS)
    assert g.observation_tensor_shape() == [len(g.observation_planes()), 3]
    obs = g.new_initial_state().observation_tensor(0)
    assert obs.shape == (7, 3)  # S of A and of B, last from and to, turn so far, to move
    assert obs[0].tolist() == [1, 0, 0] and obs[1].tolist() == [0, 0, 1]
    assert [c["coords"] for c in g.board()["cells"]] == [None, None, None]
    # A grid with a position removed keeps its shape; the removed cell stays zero.
    ring = zrf.load(KILLED_CENTRE)
    assert len(ring.positions()) == 8
    assert ring.observation_tensor_shape()[1:] == [3, 3]
    obs = ring.new_initial_state().observation_tensor(0)
    both = obs[0] + obs[1]
    assert both.sum() == 8 and both[1, 1] == 0
    assert cells(obs[0]) == [(1, 0), (2, 0), (2, 1), (2, 2)]


@pytest.mark.parametrize(
    "name,shape,pieces",
    [("checkers", [10, 8, 8], 24), ("international-draughts", [14, 10, 10], 40), ("tic-tac-toe", [9, 3, 3], 0)],
)
def test_shipped_shapes(name, shape, pieces):
    g = zrf.load(name)
    obs = g.new_initial_state().observation_tensor()
    assert g.observation_tensor_shape() == shape == list(obs.shape)
    assert shape[0] == len(g.observation_planes())
    assert obs[: 2 * len(g.pieces())].sum() == pieces


def test_corpus_shapes_and_states_without_moves():
    # Every fourth file of the vendored corpus: the tensor keeps its shape through 30 random
    # actions, and a position where the player to move has no moves and no goal ends the game
    # is a drawn end, never a state that is not over yet offers no action.
    corpus = ROOT / "tests" / "corpus"
    lines = (corpus / "loads.txt").read_text().splitlines()
    files = sorted(line.split()[0] for line in lines if line.strip() and not line.startswith("#"))
    grids = stuck = 0
    for name in files[::4]:
        g = zrf.load(corpus / "dagaz" / name)
        shape = g.observation_tensor_shape()
        assert shape[0] == len(g.observation_planes()) and len(shape) in (2, 3), name
        grids += len(shape) == 3
        s = g.new_initial_state()
        rng = np.random.default_rng(1)
        for _ in range(30):
            assert list(s.observation_tensor().shape) == shape, name
            if s.is_terminal():
                stuck += s.result() == "draw (no legal moves)"
                break
            s.apply_action(int(rng.choice(s.legal_actions())))
    # Counts as measured: most boards are one grid; a sixth of these files leave a player
    # without moves early (moves that Dagaz makes in JavaScript, which zrf does not run).
    assert (len(files[::4]), grids) == (99, 73)
    assert stuck == 17
