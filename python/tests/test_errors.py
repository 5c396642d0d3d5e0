"""Hostile arguments raise Python exceptions with zrf's message and change nothing."""

import os

import pytest

import zrf


@pytest.fixture()
def state():
    return zrf.load("chess").new_initial_state()


def snapshot(s):
    return (s.position(), s.history(), s.legal_actions(), s.move_history())


def test_illegal_and_out_of_range_actions_change_nothing(state):
    before = snapshot(state)
    size = state.game.action_space_size()
    for bad in [0, 1, size - 1, size, size + 5, 2**31, 2**64, 10**100, -1, -(2**70)]:
        with pytest.raises(zrf.ZrfError):
            state.apply_action(bad)
        assert snapshot(state) == before
    for bad in ["e2e4", 1.5, None, [3364], True]:
        with pytest.raises(TypeError):
            state.apply_action(bad)
    assert snapshot(state) == before


def test_bad_move_texts(state):
    before = snapshot(state)
    for bad in ["e2e5", "Ke2", "z9z9", "", "x" * 100_000, "\x00\x1b[31m"]:
        with pytest.raises(zrf.ZrfError):
            state.play(bad)
        with pytest.raises(zrf.ZrfError):
            state.string_to_action(bad)
    assert snapshot(state) == before
    with pytest.raises(zrf.ZrfError, match="ambiguous|not a legal"):
        state.play("e2")


def test_moves_after_the_end_are_refused():
    s = zrf.load("chess").new_initial_state()
    for m in ["f3", "e5", "g4", "Qh4"]:
        s.play(m)
    before = snapshot(s)
    with pytest.raises(zrf.ZrfError, match="over"):
        s.play("e4")
    with pytest.raises(zrf.ZrfError):
        s.apply_action(0)
    assert snapshot(s) == before


def test_bad_positions(state):
    before = snapshot(state)
    for bad in ["", "not a position", "9/9/9 w", "x" * 2_000_000, "turn 99999999999"]:
        with pytest.raises(zrf.ZrfError):
            state.set_position(bad)
        assert snapshot(state) == before


def test_rules_with_errors_carry_every_diagnostic():
    text = "(game (title \"Bad\") (players A B) (turn-order A B) (board (grid (dimensions \"a_b\" \"1_2\"))) (piece (name P) (moves (frobnicate))))"
    with pytest.raises(zrf.ZrfError) as e:
        zrf.load(text)
    diags = e.value.diagnostics
    assert diags and all({"severity", "message", "file", "line", "column", "help"} <= d.keys() for d in diags)
    assert any(d["severity"] == "error" for d in diags)
    assert "frobnicate" in str(e.value)
    assert isinstance(e.value, ValueError)


def test_unknown_variant_and_missing_files(tmp_path):
    with pytest.raises(zrf.ZrfError, match="no variant"):
        zrf.load("chess", variant="Nonesuch")
    with pytest.raises(zrf.ZrfError, match="no variant number"):
        zrf.load("chess", variant=99)
    with pytest.raises(zrf.ZrfError, match="cannot read"):
        zrf.load(str(tmp_path / "missing.zrf"))
    with pytest.raises(zrf.ZrfError):
        zrf.load(str(tmp_path))
    with pytest.raises(TypeError):
        zrf.load(42)
    assert zrf.load("chess", variant="Crazyhouse").title == "Crazyhouse"
    assert zrf.load("chess", variant=2).title == "Crazyhouse"
    p = tmp_path / "ttt.zrf"
    p.write_text(open(os.path.join(os.path.dirname(__file__), "..", "..", "games", "tic-tac-toe.zrf")).read())
    assert zrf.load(p).num_players() == 2


def test_bad_arguments_to_long_calls(state):
    with pytest.raises(zrf.ZrfError):
        state.perft(1000)
    with pytest.raises(OverflowError):
        state.perft(-1)
    with pytest.raises(zrf.ZrfError):
        state.divide(0)
    with pytest.raises(zrf.ZrfError):
        state.best_move(time=-1)
    with pytest.raises(zrf.ZrfError):
        state.best_move(time=float("nan"))
    with pytest.raises(zrf.ZrfError):
        state.observation_tensor(5)
    with pytest.raises(zrf.ZrfError):
        state.action_to_string(-3)


def test_records_errors(tmp_path):
    with pytest.raises(zrf.ZrfError):
        list(zrf.records.read(tmp_path / "none.pgn"))
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n\n1. e4 e5 2. Qxf7 *\n')
    with pytest.raises(zrf.ZrfError):
        list(zrf.records.read(bad))
    with pytest.raises(zrf.ZrfError, match="PDN"):
        zrf.load("chess").new_initial_state().to_pdn()
    with pytest.raises(zrf.ZrfError, match="PGN"):
        zrf.load("checkers").new_initial_state().to_pgn()
