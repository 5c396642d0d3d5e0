"""The rest of the package's surface: the game's length, random players, playouts as arrays,
shipped games, the board, records, copies, and hostile arguments to each."""

import copy
import random
from pathlib import Path

import numpy as np
import pytest

import zrf

ROOT = Path(__file__).resolve().parents[2]
DICE = ROOT / "tests" / "fixtures" / "dice-race.zrf"


def play_randomly(state, seed):
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_max_game_length_ends_a_game_in_a_draw():
    assert zrf.load("chess").max_game_length() == 1000
    g = zrf.load("chess", max_game_length=10)
    assert g.max_game_length() == 10
    s = play_randomly(g.new_initial_state(), seed=0)
    assert len(s.history()) == 10 and len(s.move_history()) == 10
    assert s.result() == "draw (the maximum game length of 10 actions)"
    assert s.returns() == [0.0, 0.0]
    assert s.current_player() == zrf.TERMINAL and s.legal_actions() == []
    with pytest.raises(zrf.ZrfError, match="over"):
        s.apply_action(0)
    # Taking back an action takes back the end.
    assert s.undo() and not s.is_terminal() and len(s.legal_actions()) > 0
    # A game that ends by its rules first keeps its own result.
    t = zrf.load("chess", max_game_length=4).new_initial_state()
    for m in ["f3", "e5", "g4", "Qh4"]:
        t.play(m)
    assert "Black wins" in t.result()


def test_max_game_length_counts_every_action_of_a_turn():
    # The limit may fall inside a capture chain: the game ends there, the chain unplayed.
    s = zrf.load("checkers", max_game_length=1).new_initial_state()
    s.set_position("W:W22:B18,11,10,1")
    s.apply_action(s.legal_actions()[0])
    assert s.is_terminal() and s.move_history() == [] and s.returns() == [0.0, 0.0]
    assert s.undo() and s.legal_moves() == ["22x15x6", "22x15x8"]


@pytest.mark.parametrize("bad", [0, -1, 2**31, 10**30])
def test_max_game_length_out_of_range(bad):
    with pytest.raises(zrf.ZrfError, match="max_game_length"):
        zrf.load("tic-tac-toe", max_game_length=bad)


@pytest.mark.parametrize("bad", [True, "10", 1.5, [10]])
def test_max_game_length_of_the_wrong_type(bad):
    with pytest.raises(TypeError, match="max_game_length"):
        zrf.load("tic-tac-toe", max_game_length=bad)


def test_random_players():
    assert zrf.load(DICE).players() == ["A", "Dice", "B"]
    assert zrf.load(DICE).random_players() == [1]
    assert zrf.load("chess").random_players() == []
    s = zrf.load(DICE).new_initial_state()
    s.apply_action(s.legal_actions()[0])
    assert s.current_player() == zrf.CHANCE and s.is_chance_node()
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == s.legal_actions()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)


def test_playouts_are_numpy_arrays():
    g = zrf.load("tic-tac-toe")
    lengths, returns, ended = zrf.playouts(g, 50, seed=5, outcomes=True)
    assert lengths.dtype == np.int64 and lengths.shape == (50,)
    assert returns.dtype == np.float64 and returns.shape == (50, 2)
    assert ended.dtype == np.bool_ and ended.all()  # tic-tac-toe always ends by its goals
    assert ((5 <= lengths) & (lengths <= 9)).all()
    assert (returns.sum(axis=1) == 0).all()
    # A win ends after an odd ply count for X (player 0), an even one for O.
    assert ((returns[:, 0] == 1) <= (lengths % 2 == 1)).all()
    assert ((returns[:, 1] == 1) <= (lengths % 2 == 0)).all()
    again = zrf.playouts(g, 50, seed=5)
    assert len(again) == 2 and np.array_equal(again[0], lengths) and np.array_equal(again[1], returns)
    # Stopped by the ply limit: no result and no returns.
    lengths, returns, ended = zrf.playouts(g, 10, seed=1, max_plies=3, outcomes=True)
    assert lengths.tolist() == [3] * 10 and not returns.any() and not ended.any()
    # The game's max_game_length is the default limit.
    short = zrf.load("tic-tac-toe", max_game_length=4)
    assert zrf.playouts(short, 10, seed=1)[0].tolist() == [4] * 10
    lengths, returns = zrf.playouts(g, 0)
    assert lengths.shape == (0,) and returns.shape == (0, 2)


def test_playouts_hostile_arguments():
    g = zrf.load("tic-tac-toe")
    for bad in [-1, 1_000_001, 10**30]:
        with pytest.raises(zrf.ZrfError, match="n must be"):
            zrf.playouts(g, bad)
    for bad in [True, 1.5, "3", None]:
        with pytest.raises(TypeError):
            zrf.playouts(g, bad)
    for bad in [0, -5, 2**40]:
        with pytest.raises(zrf.ZrfError, match="max_plies"):
            zrf.playouts(g, 1, max_plies=bad)
    with pytest.raises(TypeError):
        zrf.playouts("tic-tac-toe", 1)
    with pytest.raises(OverflowError):
        zrf.playouts(g, 1, seed=-1)


def test_shipped_games_load_by_name():
    names = zrf.games()
    assert {"chess", "checkers", "international-draughts", "halfgi", "tic-tac-toe"} <= set(names)
    for name in names:
        g = zrf.load(name)
        assert g.num_players() == 2 and g.new_initial_state().legal_actions()
    chess = zrf.load("chess")
    assert chess.variants() == ["Chess", "Crazyhouse", "Loop", "Chessgi"]
    assert chess.title == "Chess" and chess.path == "chess.zrf"
    assert repr(chess) == '<zrf.Game "Chess" from "chess.zrf">'
    assert chess.num_distinct_actions() == chess.action_space_size() == 4808


def test_board_of_chess():
    b = zrf.load("chess").board()
    cells = {c["name"]: c for c in b["cells"]}
    assert len(cells) == 64 and b["bounds"] == [0, 0, 400, 400]
    assert cells["a8"]["id"] == 0 and cells["a8"]["rect"] == [0, 0, 50, 50]
    assert cells["a1"]["dark"] and not cells["h1"]["dark"] and cells["e4"]["grid"]
    # Grid coordinates: the index along each dimension (files a-h, then ranks 8 to 1).
    assert cells["a8"]["coords"] == [0, 0] and cells["e2"]["coords"] == [4, 6]
    assert zrf.load(DICE).board()["cells"][5]["coords"] == [5, 0]
    assert set(b["zones"]) >= {"last-rank", "first-rank", "third-rank"}
    white_last, black_last = b["zones"]["last-rank"]
    assert sorted(white_last) == list(range(8)) and sorted(black_last) == list(range(56, 64))


def test_divide_copies_records_and_the_rest_of_state():
    g = zrf.load("chess")
    s = g.new_initial_state()
    assert s.undo() is False
    div = dict(s.divide(2))
    assert len(div) == 20 and sum(div.values()) == 400 and div["e2-e4"] == 20
    s.play("e4")
    a, b = copy.copy(s), copy.deepcopy(s)
    a.play("e5")
    assert b.move_history() == ["e2-e4"] and a.move_history() == ["e2-e4", "e7-e5"]
    assert s.rewards() == s.returns() == [0.0, 0.0] and s.result() is None
    assert "e2-e4" in a.to_record() and "e7-e5" in a.to_record()
    assert repr(a) == '<zrf.State of "Chess" after 2 moves>'
    assert s.game.title == "Chess" and s.game.max_game_length() == 1000
    with pytest.raises(zrf.ZrfError) as e:
        s.play("e2e4")
    assert e.value.diagnostics == []


def test_hostile_loads():
    with pytest.raises(zrf.ZrfError, match="too long"):
        zrf.load("(" + " " * (64 << 20))
    with pytest.raises(zrf.ZrfError, match="path of 10000 bytes"):
        zrf.load("x" * 10_000)
    with pytest.raises(TypeError):
        zrf.load(b"chess")
    with pytest.raises(TypeError, match="bool"):
        zrf.load("chess", variant=True)
    with pytest.raises(TypeError, match="float"):
        zrf.load("chess", variant=1.5)
    for bad in [0, 5, -1, 10**30]:
        with pytest.raises(zrf.ZrfError, match="variant"):
            zrf.load("chess", variant=bad)
    with pytest.raises(zrf.ZrfError, match="too long"):
        zrf.load("chess", variant="x" * 20_000)
    with pytest.raises(zrf.ZrfError, match="path of"):
        list(zrf.records.read("y" * 5000))


def test_hostile_state_calls_change_nothing():
    s = zrf.load("chess").new_initial_state()
    s.play("e4")
    before = (s.position(), s.history())
    for call in [
        lambda: s.string_to_action(None),
        lambda: s.play(42),
        lambda: s.set_position(None),
        lambda: s.observation_tensor("white"),
        lambda: s.observation_tensor(True),
        lambda: s.perft("3"),
        lambda: s.action_to_string(1.5),
    ]:
        with pytest.raises(TypeError):
            call()
    for call in [lambda: s.observation_tensor(2**70), lambda: s.perft(2**40), lambda: s.best_move(depth=-1)]:
        with pytest.raises(OverflowError):
            call()
    for call in [lambda: s.observation_tensor(-1), lambda: s.action_to_string(10**9), lambda: s.best_move(time=1e9)]:
        with pytest.raises(zrf.ZrfError):
            call()
    assert (s.position(), s.history()) == before
